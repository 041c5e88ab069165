"""Reading a batch file: CSV (columns are the operation's parameters) or JSON Lines.

``BatchFile`` checks the header when opened (empty file, unknown or missing
columns, duplicate names) and streams rows each time it is iterated, so a
100,000-row file is read twice (validate, then write results) without ever
being held in memory. A BOM is skipped; the separator (comma, semicolon or tab)
is taken from the header line. A row that cannot be a request (too many
cells, a broken line) comes out with its ``problem`` set.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from creditscope.client.validation import accepted_fields, required_fields

_JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson", ".jsonlines"})
_SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}


class BatchFileProblem(ValueError):
    """The file as a whole cannot be used; the message says why and what to change."""


@dataclass(frozen=True)
class InputRow:
    """One data row: its number (1 = first row after the header), line and parameters."""

    number: int
    line: int
    params: dict[str, Any]  # empty cells left out
    problem: str | None = None  # set when the row cannot be a request at all

    @property
    def where(self) -> str:
        """``row 3 (line 4)``, for messages."""
        return f"row {self.number} (line {self.line})"


class BatchFile:
    """A CSV or JSON Lines file of requests for one operation, read as a stream."""

    def __init__(self, path: Path, operation: str, *, ignore_extra: bool = False) -> None:
        self.path = path
        self.operation = operation
        self.ignore_extra = ignore_extra
        self.accepted = accepted_fields(operation)
        self.format = "jsonl" if path.suffix.lower() in _JSONL_SUFFIXES else "csv"
        self.separator = ","
        self.columns: tuple[str, ...] = ()
        self.ignored_columns: tuple[str, ...] = ()
        self._check()

    @property
    def description(self) -> str:
        """``CSV (semicolon-separated), columns name, website`` or ``JSON Lines``."""
        if self.format == "jsonl":
            return "JSON Lines"
        text = f"CSV ({_SEPARATORS[self.separator]}-separated), columns {', '.join(self.columns)}"
        if self.ignored_columns:
            text += f"; ignoring {', '.join(self.ignored_columns)}"
        return text

    def __iter__(self) -> Iterator[InputRow]:
        with self._open() as handle:
            yield from (self._jsonl_rows(handle) if self.format == "jsonl"
                        else self._csv_rows(handle))

    # --- the header ----------------------------------------------------------------

    def _open(self) -> TextIO:
        try:
            # utf-8-sig: a spreadsheet's byte-order mark is not part of the first column name.
            return self.path.open(encoding="utf-8-sig", newline="")
        except FileNotFoundError:
            raise BatchFileProblem(f"{self.path}: no such file") from None
        except IsADirectoryError:
            raise BatchFileProblem(f"{self.path} is a directory, not a file") from None
        except OSError as exc:
            raise BatchFileProblem(f"{self.path}: {exc.strerror or exc}") from None

    def _first_line(self) -> str:
        with self._open() as handle:
            try:
                for line in handle:
                    if line.strip():
                        return str(line)
            except UnicodeDecodeError:
                raise BatchFileProblem(
                    f"{self.path} is not UTF-8 text; save it as UTF-8 (CSV UTF-8 in a "
                    "spreadsheet) and try again"
                ) from None
        return ""

    def _check(self) -> None:
        first = self._first_line()
        hint = f"columns such as {', '.join(self.accepted)}" if self.accepted else "no columns"
        if not first:
            raise BatchFileProblem(
                f"{self.path} is empty: expected a header row ({hint}), then one row per request"
            )
        if first.lstrip().startswith("["):
            raise BatchFileProblem(
                f"{self.path} holds a JSON array; write one JSON object per line "
                "(JSON Lines), or a CSV with a header row"
            )
        if first.lstrip().startswith("{"):
            self.format = "jsonl"
        if self.format == "jsonl":
            return
        self.separator = max(_SEPARATORS, key=first.count) if any(
            sep in first for sep in _SEPARATORS) else ","
        header = next(csv.reader([first], delimiter=self.separator))
        columns = tuple(name.strip() for name in header)
        if any(not name for name in columns):
            raise BatchFileProblem(f"{self.path}: the header has an empty column name")
        doubled = sorted({name for name in columns if columns.count(name) > 1})
        if doubled:
            raise BatchFileProblem(f"{self.path}: column {doubled[0]!r} appears twice")
        extra = tuple(name for name in columns if name not in self.accepted)
        if extra and not self.ignore_extra:
            raise BatchFileProblem(
                f"{self.path}: column{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                f"{'are' if len(extra) > 1 else 'is'} not a parameter of {self.operation} "
                f"(accepted: {', '.join(self.accepted) or 'none'}). Rename or remove "
                f"{'them' if len(extra) > 1 else 'it'}, or pass --ignore-extra-columns."
            )
        missing = [name for name in required_fields(self.operation) if name not in columns]
        if missing:
            raise BatchFileProblem(
                f"{self.path}: the required column {missing[0]!r} is missing "
                f"(the header has {', '.join(columns)}; accepted: {', '.join(self.accepted)})"
            )
        self.columns = columns
        self.ignored_columns = extra

    # --- rows ----------------------------------------------------------------------

    def _csv_rows(self, handle: TextIO) -> Iterator[InputRow]:
        reader = csv.reader(handle, delimiter=self.separator)
        number = 0
        header_seen = False
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                number += 1
                yield InputRow(number, reader.line_num, {}, f"unreadable line ({exc})")
                continue
            except UnicodeDecodeError:
                number += 1
                yield InputRow(number, reader.line_num + 1, {}, "not UTF-8 text")
                return  # the decoder cannot find its way back into the file
            if not any(cell.strip() for cell in cells):
                continue  # blank lines, including trailing ones
            if not header_seen:
                header_seen = True
                continue
            number += 1
            yield self._csv_row(number, reader.line_num, cells)

    def _csv_row(self, number: int, line: int, cells: list[str]) -> InputRow:
        if len(cells) > len(self.columns):
            return InputRow(number, line, {}, (
                f"{len(cells)} cells but the header has {len(self.columns)} columns "
                "(a separator inside a value needs quotes)"))
        params = {
            name: cell for name, cell in zip(self.columns, cells, strict=False)
            if cell.strip() and name not in self.ignored_columns
        }
        return InputRow(number, line, params)

    def _jsonl_rows(self, handle: TextIO) -> Iterator[InputRow]:
        number = 0
        line = 0
        try:
            for text in handle:
                line += 1
                if not text.strip():
                    continue
                number += 1
                yield self._jsonl_row(number, line, text)
        except UnicodeDecodeError:
            yield InputRow(number + 1, line + 1, {}, "not UTF-8 text")

    def _jsonl_row(self, number: int, line: int, text: str) -> InputRow:
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            return InputRow(number, line, {}, f"not valid JSON ({exc.msg})")
        if not isinstance(value, dict):
            return InputRow(number, line, {}, "not a JSON object")
        if self.ignore_extra:
            value = {key: item for key, item in value.items() if key in self.accepted}
        params = {key: item for key, item in value.items() if item is not None and item != ""}
        return InputRow(number, line, params)
