"""Reading a batch file: CSV (columns are the operation's parameters) or JSON Lines.

``BatchFile`` settles the encoding (``batch_encoding``: the whole file decodes, or
nothing happens) and checks the header when opened, then streams rows each time
it is iterated, so a 100,000-row file is read twice (validate, then write
results) without ever being held in memory.

What spreadsheets really save is accepted: a BOM, UTF-16, Excel's ``sep=;``
first line, header names in any case (``Name,Website``), trailing empty columns.
Every line after the header becomes one ``InputRow``, blank lines included, with
the line it starts on and its own cells, so results can be matched back to the
customer's file line for line. A row that cannot be a request (too many cells,
a broken line) comes out with its ``problem`` set.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from creditscope import json_limits
from creditscope.client.validation import accepted_fields, required_fields
from creditscope.file_reading import FileRefused
from creditscope.spreadsheet_cells import original_cell
from creditscope.support.batch_encoding import EncodingProblem, TextEncoding, detect_encoding

_JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson", ".jsonlines"})
_SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_EXCEL_SEP_LINE = re.compile(r'^"?sep=(.)"?\s*$', re.IGNORECASE)
JSONL_ECHO_COLUMN = "input"  # a JSON Lines row is echoed whole, as the line it was


class BatchFileProblem(ValueError):
    """The file as a whole cannot be used; the message says why and what to change."""


@dataclass(frozen=True)
class InputRow:
    """One line after the header: the line it starts on, its parameters and its own cells."""

    line: int
    params: dict[str, Any]  # empty cells left out, names as the operation spells them
    echo: tuple[str, ...] = ()  # the cells as read, one per ``BatchFile.echo_columns``
    problem: str | None = None  # set when the row cannot be a request at all
    blank: bool = False

    @property
    def where(self) -> str:
        """``line 4``, for messages: the customer's own line number."""
        return f"line {self.line}"


class BatchFile:
    """A CSV or JSON Lines file of requests for one operation, read as a stream."""

    def __init__(self, path: Path, operation: str, *, ignore_extra: bool = False,
                 encoding: str | None = None) -> None:
        self.path = path
        self.operation = operation
        self.ignore_extra = ignore_extra
        self.accepted = accepted_fields(operation)
        self._by_folded = {name.casefold(): name for name in self.accepted}
        self.format = "jsonl" if path.suffix.lower() in _JSONL_SUFFIXES else "csv"
        self.separator = ","
        self.encoding = self._detect(encoding)
        self.header_line = 0  # the line of the CSV header (after any sep= line)
        self.echo_columns: tuple[str, ...] = (JSONL_ECHO_COLUMN,)
        self.params_of_columns: tuple[str | None, ...] = ()  # None: an ignored column
        self._check()

    @property
    def columns(self) -> tuple[str, ...]:
        """The parameters the CSV's columns hold, in the operation's spelling."""
        return tuple(name for name in self.params_of_columns if name is not None)

    @property
    def ignored_columns(self) -> tuple[str, ...]:
        return tuple(column for column, name in zip(self.echo_columns, self.params_of_columns,
                                                    strict=False) if name is None)

    @property
    def description(self) -> str:
        """``CSV (semicolon-separated, UTF-8), columns name, website`` or ``JSON Lines``."""
        if self.format == "jsonl":
            return f"JSON Lines ({self.encoding.label})"
        text = (f"CSV ({_SEPARATORS[self.separator]}-separated, {self.encoding.label}), "
                f"columns {', '.join(self.echo_columns)}")
        if self.ignored_columns:
            text += f"; ignoring {', '.join(self.ignored_columns)} (echoed in --out)"
        return text

    def __iter__(self) -> Iterator[InputRow]:
        with self._open() as handle:
            yield from (self._jsonl_rows(handle) if self.format == "jsonl"
                        else self._csv_rows(handle))

    # --- the encoding and the header ---------------------------------------------------

    def _detect(self, forced: str | None) -> TextEncoding:
        try:
            return detect_encoding(self.path, forced)
        except (EncodingProblem, FileRefused) as exc:
            raise BatchFileProblem(str(exc)) from None
        except UnicodeError as exc:  # a codec such as punycode failing on the bytes
            raise BatchFileProblem(f"{self.path} cannot be read with --encoding {forced}: {exc}"
                                   ) from None
        except LookupError:
            raise BatchFileProblem(f"--encoding {forced}: not a text encoding Python knows "
                                   "(try utf-8, utf-16, cp1252 or latin-1)") from None
        except FileNotFoundError:
            raise BatchFileProblem(f"{self.path}: no such file") from None
        except IsADirectoryError:
            raise BatchFileProblem(f"{self.path} is a directory, not a file") from None
        except OSError as exc:
            raise BatchFileProblem(f"{self.path}: {exc.strerror or exc}") from None

    def _open(self) -> TextIO:
        return self.encoding.open(self.path)

    def _first_lines(self) -> tuple[int, str, int, str]:
        """``(line, text)`` of the first two non-blank lines (0 and "" when missing)."""
        found: list[tuple[int, str]] = []
        with self._open() as handle:
            for number, line in enumerate(handle, start=1):
                if line.strip():
                    found.append((number, line))
                    if len(found) == 2:
                        break
        found += [(0, "")] * (2 - len(found))
        return found[0][0], found[0][1], found[1][0], found[1][1]

    def _check(self) -> None:
        line, first, next_line, second = self._first_lines()
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
        excel_sep = _EXCEL_SEP_LINE.match(first.strip())
        if excel_sep:  # Excel's "sep=;" names the separator; the header is the next line
            self.separator = excel_sep.group(1)
            line, first = next_line, second
            if not first:
                raise BatchFileProblem(f"{self.path} has a sep= line but no header ({hint})")
        else:
            self.separator = max(_SEPARATORS, key=first.count) if any(
                sep in first for sep in _SEPARATORS) else ","
        if self.separator not in _SEPARATORS:
            raise BatchFileProblem(f"{self.path}: separator {self.separator!r} is not one of "
                                   "comma, semicolon, tab or pipe")
        self.header_line = line
        self._check_header(next(csv.reader([first], delimiter=self.separator)))

    def _check_header(self, header: list[str]) -> None:
        columns = [original_cell(name).strip() for name in header]
        while columns and not columns[-1]:
            columns.pop()  # trailing empty columns, as spreadsheets add them
        if "" in columns:
            raise BatchFileProblem(f"{self.path}: the header has an empty column name "
                                   f"(column {columns.index('') + 1})")
        folded = [name.casefold() for name in columns]
        doubled = sorted({name for name in columns if folded.count(name.casefold()) > 1})
        if doubled:
            raise BatchFileProblem(f"{self.path}: column {doubled[0]!r} appears twice")
        params = tuple(self._by_folded.get(name) for name in folded)
        extra = tuple(column for column, name in zip(columns, params, strict=True)
                      if name is None)
        if extra and not self.ignore_extra:
            raise BatchFileProblem(
                f"{self.path}: column{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                f"{'are' if len(extra) > 1 else 'is'} not a parameter of {self.operation} "
                f"(accepted: {', '.join(self.accepted) or 'none'}). Rename or remove "
                f"{'them' if len(extra) > 1 else 'it'}, or pass --ignore-extra-columns "
                "(they are then echoed in --out)."
            )
        missing = [name for name in required_fields(self.operation) if name not in params]
        if missing:
            raise BatchFileProblem(
                f"{self.path}: the required column {missing[0]!r} is missing "
                f"(the header has {', '.join(columns)}; accepted: {', '.join(self.accepted)})"
            )
        self.echo_columns = tuple(columns)
        self.params_of_columns = params

    # --- rows ----------------------------------------------------------------------

    def _csv_rows(self, handle: TextIO) -> Iterator[InputRow]:
        reader = csv.reader(handle, delimiter=self.separator)
        while True:
            start = reader.line_num + 1  # a quoted cell may run over several lines
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                if start > self.header_line:
                    yield InputRow(start, {}, problem=f"unreadable line ({exc})")
                continue
            if start <= self.header_line:
                continue  # blank lines, sep= and the header itself
            if not any(cell.strip() for cell in cells):
                yield InputRow(start, {}, tuple("" for _ in self.echo_columns), blank=True)
                continue
            yield self._csv_row(start, cells)

    def _csv_row(self, line: int, cells: list[str]) -> InputRow:
        cells = [original_cell(cell) for cell in cells]  # a file `batch --out` wrote
        width = len(self.echo_columns)
        echo = tuple(cells[:width]) + ("",) * (width - len(cells))
        if any(cell.strip() for cell in cells[width:]):
            return InputRow(line, {}, echo, (
                f"{len(cells)} cells but the header has {width} columns "
                "(a separator inside a value needs quotes)"))
        params = {name: cell for name, cell in zip(self.params_of_columns, cells, strict=False)
                  if name is not None and cell.strip()}
        return InputRow(line, params, echo)

    def _jsonl_rows(self, handle: TextIO) -> Iterator[InputRow]:
        for line, text in enumerate(handle, start=1):
            echo = (text.rstrip("\r\n"),)
            if not text.strip():
                yield InputRow(line, {}, echo, blank=True)
                continue
            yield self._jsonl_row(line, text, echo)

    def _jsonl_row(self, line: int, text: str, echo: tuple[str, ...]) -> InputRow:
        try:
            value = json_limits.loads(text)
        except json_limits.JsonTooDeep as deep:
            return InputRow(line, {}, echo, f"not read: {deep}")
        except json.JSONDecodeError as exc:
            return InputRow(line, {}, echo, f"not valid JSON ({exc.msg})")
        if not isinstance(value, dict):
            return InputRow(line, {}, echo, "not a JSON object")
        named = {self._by_folded.get(str(key).casefold(), str(key)): item
                 for key, item in value.items()}
        if self.ignore_extra:
            named = {key: item for key, item in named.items() if key in self.accepted}
        params = {key: item for key, item in named.items() if item is not None and item != ""}
        return InputRow(line, params, echo)
