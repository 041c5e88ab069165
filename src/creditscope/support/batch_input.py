"""Reading a batch file: CSV (columns are the operation's parameters) or JSON Lines.

``BatchFile`` settles the encoding (``batch_encoding``: the whole file decodes, or
nothing happens) and checks the header when opened, then streams rows each time
it is iterated, so a 100,000-row file is read twice (validate, then write
results) without ever being held in memory.

What spreadsheets really save is accepted: a workbook (``batch_sheets``: .xlsx,
.ods, .xls, one sheet), a BOM, UTF-16, an 8-bit code page, Excel's ``sep=;`` first
line, header names in any case or by meaning (``Company``, ``Webseite``:
``batch_columns``), title rows above the header, trailing empty columns.
Every line after the header becomes one ``InputRow``, blank lines included, with
the line it starts on and its own cells, so results can be matched back to the
customer's file line for line. A row that cannot be a request (too many cells,
a broken line) comes out with its ``problem`` set; a totals or notes row
(``batch_skipped``) with ``skipped`` set; a line break inside a cell (Excel's
Alt+Enter) is read as a space, with a ``note``.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from creditscope import json_limits
from creditscope.client.validation import accepted_fields, required_fields
from creditscope.file_reading import FileRefused
from creditscope.spreadsheet_cells import original_cell
from creditscope.support.batch_columns import ColumnChoiceProblem, also_means, column_params
from creditscope.support.batch_csv_records import (
    MAX_CELL_CHARS,
    CsvRecordProblem,
    csv_records,
)
from creditscope.support.batch_encoding import EncodingProblem, TextEncoding, detect_encoding
from creditscope.support.batch_sheets import Sheet, markup_kind, open_sheet, workbook_kind
from creditscope.support.batch_skipped import footer_reason, report_tail_reason, skip_reason
from creditscope.wording import counted

_JSONL_SUFFIXES = frozenset({".jsonl", ".ndjson", ".jsonlines"})
_SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_EXCEL_SEP_LINE = re.compile(r'^"?sep=(.)"?\s*$', re.IGNORECASE)
_TAB_SUFFIXES = frozenset({".tsv", ".tab"})  # tab-separated by name, whatever the header holds
_HEADER_SEARCH = 30  # non-blank lines looked at for the header (a report's title rows)
_QUOTED_HEADER_LINES = 4  # lines a quoted header cell may run over (Alt+Enter in a header)
_LINE_BREAKS = re.compile(r"\s*[\r\n]+\s*")
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
    skipped: str = ""  # why a totals or notes row is no request (never sent, never priced)
    note: str = ""  # what was read differently from the cells (a line break as a space)

    @property
    def where(self) -> str:
        """``line 4``, for messages: the customer's own line number."""
        return f"line {self.line}"


class BatchFile:
    """A CSV, workbook or JSON Lines file of requests for one operation, read as a stream."""

    def __init__(self, path: Path, operation: str, *, ignore_extra: bool = False,
                 encoding: str | None = None, sheet: str | None = None,
                 columns: Mapping[str, str] | None = None) -> None:
        self.path = path
        self.operation = operation
        self.ignore_extra = ignore_extra
        self.accepted = accepted_fields(operation)
        self._by_folded = {name.casefold(): name for name in self.accepted}
        self.chosen = dict(columns or {})  # parameter -> the header named for it
        for param, header in self.chosen.items():
            if param not in self.accepted:
                raise BatchFileProblem(f"--{param}-column {header}: {operation} has no "
                                       f"{param} parameter (accepted: {', '.join(self.accepted)})")
        self.format = "jsonl" if path.suffix.lower() in _JSONL_SUFFIXES else "csv"
        self.separator = ","
        self.sep_line = False  # the file began with Excel's "sep=;" line
        self.sheet: Sheet | None = self._sheet(sheet)
        self.ignored_encoding = encoding if self.sheet is not None else None
        if self.sheet is not None:
            self.format = "workbook"
            self.encoding = TextEncoding("utf-8")  # a workbook names its own; never used
        else:
            self.encoding = self._detect(encoding)
        self.header_line = 0  # the line of the header (after any sep= line or title rows)
        self.title_rows = 0  # non-blank rows above the header (a title, a date)
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
    def from_excel(self) -> bool:
        """A workbook, or text as Excel saves it (a BOM, UTF-16, cp1252, Mac Roman)."""
        return self.sheet is not None or self.encoding.from_excel

    @property
    def description(self) -> str:
        """``CSV (semicolon-separated, UTF-8), columns name, website`` or ``JSON Lines``."""
        if self.format == "jsonl":
            return f"JSON Lines ({self.encoding.label})"
        where = (self.sheet.description if self.sheet is not None else
                 f"CSV ({_SEPARATORS[self.separator]}-separated, {self.encoding.label})")
        named = [column if param.casefold() == column.casefold() else f"{column} (as {param})"
                 for column, param in zip(self.echo_columns, self.params_of_columns,
                                          strict=False) if param is not None]
        text = f"{where}, columns {', '.join(named)}"
        if self.title_rows:
            text += (f"; header on line {self.header_line}, below "
                     f"{counted(self.title_rows, 'title row')}")
        if self.ignored_columns:
            text += f"; ignoring {', '.join(self.ignored_columns)} (echoed in --out)"
        if self.ignored_encoding:
            text += f"; --encoding {self.ignored_encoding} ignored (a workbook names its own)"
        return text

    def __iter__(self) -> Iterator[InputRow]:
        if self.sheet is not None:
            yield from self._table_rows(self.sheet.rows())
            return
        with self._open() as handle:
            yield from (self._jsonl_rows(handle) if self.format == "jsonl"
                        else self._table_rows(self._csv_cells(handle)))

    # --- the encoding and the header ---------------------------------------------------

    def _sheet(self, wanted: str | None) -> Sheet | None:
        try:
            kind = workbook_kind(self.path)
            if kind is None:
                if wanted is not None:
                    raise BatchFileProblem(f"--sheet {wanted}: {self.path} is a text file, not "
                                           "a workbook (.xlsx, .ods)")
                return None
            return open_sheet(self.path, kind, wanted)
        except FileRefused as exc:
            raise BatchFileProblem(str(exc)) from None
        except FileNotFoundError:
            raise BatchFileProblem(f"{self.path}: no such file") from None
        except IsADirectoryError:
            raise BatchFileProblem(f"{self.path} is a directory, not a file") from None
        except OSError as exc:
            raise BatchFileProblem(f"{self.path}: {exc.strerror or exc}") from None

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
        except OSError as exc:
            raise BatchFileProblem(f"{self.path}: {exc.strerror or exc}") from None

    def _open(self) -> TextIO:
        return self.encoding.open(self.path)

    def _first_rows(self) -> list[tuple[int, str]]:
        """``(line, text)`` of the first non-blank lines, as many as the header search needs."""
        found: list[tuple[int, str]] = []
        with self._open() as handle:
            pending = (0, "")  # a header cell quoted across lines ("Company⏎Name")
            for number, line in enumerate(handle, start=1):
                start, text = pending if pending[1] else (number, "")
                text += line
                if text.count('"') % 2 and number - start < _QUOTED_HEADER_LINES:
                    pending = (start, text)
                    continue
                pending = (0, "")
                if text.strip():
                    found.append((start, text))
                    if len(found) > _HEADER_SEARCH:
                        break
        return found

    def _check(self) -> None:
        hint = f"columns such as {', '.join(self.accepted)}" if self.accepted else "no columns"
        if self.sheet is not None:
            self._check_sheet(self.sheet, hint)
            return
        lines = self._first_rows()
        if not lines:
            raise BatchFileProblem(
                f"{self.path} is empty: expected a header row ({hint}), then one row per request"
            )
        first = lines[0][1]
        markup = markup_kind(first)
        if markup is not None:
            raise BatchFileProblem(f"{self.path} is {markup}, not a table batch reads: open "
                                   "it in Excel and save it as .xlsx or CSV (nothing was sent)")
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
        fixed = "\t" if self.path.suffix.lower() in _TAB_SUFFIXES else None
        if excel_sep:  # Excel's "sep=;" names the separator; the header is the next line
            fixed = excel_sep.group(1)
            self.sep_line = True
            lines = lines[1:]
            if not lines:
                raise BatchFileProblem(f"{self.path} has a sep= line but no header ({hint})")
        if fixed is not None and fixed not in _SEPARATORS:
            raise BatchFileProblem(f"{self.path}: separator {fixed!r} is not one of "
                                   "comma, semicolon, tab or pipe")
        rows: list[tuple[int, list[str], str]] = []
        for line, text in lines:
            separator = fixed or _sniffed_separator(text)
            try:
                rows.append((line, next(csv.reader([text], delimiter=separator)), separator))
            except csv.Error:  # a cell past the limit on a line the header is looked for in
                raise BatchFileProblem(f"{self.path}: line {line} has a cell longer than "
                                       f"{MAX_CELL_CHARS // 2**20} MB; shorten it or remove "
                                       "the row. Nothing was sent.") from None
        header = self._choose_header([(line, cells) for line, cells, _ in rows])
        self.separator = next(separator for line, _, separator in rows if line == header)
        with self._open() as handle:  # every record once, before a row is planned or sent
            for _ in self._csv_cells(handle):
                pass

    def _check_sheet(self, sheet: Sheet, hint: str) -> None:
        head: list[tuple[int, list[str]]] = []
        try:
            for line, cells in sheet.rows():
                if any(cells):
                    head.append((line, cells))
                    if len(head) > _HEADER_SEARCH:
                        break
        except FileRefused as exc:
            raise BatchFileProblem(str(exc)) from None
        others = [name for name in sheet.names if name != sheet.name]
        elsewhere = (f". The list may be on another sheet: --sheet "
                     f"{' or '.join(repr(name) for name in others)}" if others else "")
        if not head:
            raise BatchFileProblem(f"{self.path}: sheet {sheet.name!r} is empty: expected a "
                                   f"header row ({hint}), then one row per request{elsewhere}")
        try:
            self._choose_header(head)
        except BatchFileProblem as exc:
            if not others:
                raise
            raise BatchFileProblem(f"{str(exc).rstrip('.')}{elsewhere}") from None

    def _choose_header(self, rows: list[tuple[int, list[str]]]) -> int:
        """The header: among the first rows, the one whose cells name the most parameters
        (the first on a tie; title rows above it are left out); returns its line."""
        def named(cells: list[str]) -> int:
            try:
                return sum(param is not None for param in column_params(
                    [cell.strip() for cell in cells], self.accepted, {}))
            except ColumnChoiceProblem:
                return 1  # two columns for one parameter: a header all the same
        scores = [named(cells) + sum(cell.strip().casefold() in
                                     {header.casefold() for header in self.chosen.values()}
                                     for cell in cells) for _, cells in rows]
        best = scores.index(max(scores))
        self.header_line, self.title_rows = rows[best][0], best
        self._check_header(rows[best][1])
        return self.header_line

    @property
    def where(self) -> str:
        """The file, and the sheet read from a workbook: what a message about it names."""
        return f"{self.path}" if self.sheet is None else f"{self.path}, sheet {self.sheet.name!r}"

    def _check_header(self, header: list[str]) -> None:
        # A line break typed in a header cell ("Company⏎Name") reads as a space.
        columns = [" ".join(original_cell(name).split()) for name in header]
        while columns and not columns[-1]:
            columns.pop()  # trailing empty columns, as spreadsheets add them
        if "" in columns:
            raise BatchFileProblem(f"{self.where}: the header has an empty column name "
                                   f"(column {columns.index('') + 1})")
        folded = [name.casefold() for name in columns]
        doubled = sorted({name for name in columns if folded.count(name.casefold()) > 1})
        if doubled:
            raise BatchFileProblem(f"{self.where}: column {doubled[0]!r} appears twice")
        try:
            params = column_params(columns, self.accepted, self.chosen)
        except ColumnChoiceProblem as exc:
            raise BatchFileProblem(f"{self.where}: {exc}") from None
        extra = tuple(column for column, name in zip(columns, params, strict=True)
                      if name is None)
        rival = next(((column, meant) for column in extra
                      if (meant := also_means(column, params)) and meant not in self.chosen),
                     None)
        if rival and not self.ignore_extra:  # "Domain" beside "Website": say which is used
            used = columns[params.index(rival[1])]
            raise BatchFileProblem(
                f"{self.where}: columns {used!r} and {rival[0]!r} could both be the "
                f"{rival[1]} ({used!r} is the parameter's own name); say which with "
                f"--{rival[1]}-column, or pass --ignore-extra-columns to use {used!r}")
        if extra and not self.ignore_extra:
            raise BatchFileProblem(
                f"{self.where}: column{'s' if len(extra) > 1 else ''} {', '.join(extra)} "
                f"{'are' if len(extra) > 1 else 'is'} not a parameter of {self.operation} "
                f"(accepted: {', '.join(self.accepted) or 'none'}). Rename or remove "
                f"{'them' if len(extra) > 1 else 'it'}, name the column with --name-column or "
                "--website-column, or pass --ignore-extra-columns (they are then echoed in "
                "--out)."
            )
        missing = [name for name in required_fields(self.operation) if name not in params]
        if missing:
            raise BatchFileProblem(
                f"{self.where}: the required column {missing[0]!r} is missing "
                f"(the header has {', '.join(columns)}; accepted: {', '.join(self.accepted)}; "
                f"or name it with --{missing[0]}-column)"
            )
        self.echo_columns = tuple(columns)
        self.params_of_columns = params

    # --- rows ----------------------------------------------------------------------

    def _csv_cells(self, handle: TextIO) -> Iterator[tuple[int, list[str] | str]]:
        """``(line, cells)`` of every CSV record, or ``(line, why)`` for a broken one."""
        try:
            for start, cells in csv_records(handle, self.separator, len(self.echo_columns)):
                yield start, (cells if isinstance(cells, str)  # a file `batch --out` wrote:
                              else [original_cell(cell) for cell in cells])
        except CsvRecordProblem as exc:
            raise BatchFileProblem(f"{self.path}: {exc}") from None

    def _table_rows(self, records: Iterator[tuple[int, list[str] | str]]
                    ) -> Iterator[InputRow]:
        """Every row; footer-shaped rows are held back until it is known whether a request
        follows them (then they are rows) or only blanks and footers (then skipped)."""
        held: list[tuple[InputRow, InputRow]] = []  # (as read, as a skipped footer)
        for row in _report_tail(self._plain_rows(records)):
            footer = footer_reason(row.echo) if not (row.problem or row.skipped) else None
            if footer is not None:
                held.append((row, InputRow(row.line, {}, row.echo, skipped=footer)))
            elif held and (row.blank or row.skipped):
                held.append((row, row))
            else:
                yield from (read for read, _ in held)
                held.clear()
                yield row
        yield from (as_footer for _, as_footer in held)

    def _plain_rows(self, records: Iterator[tuple[int, list[str] | str]]
                    ) -> Iterator[InputRow]:
        for line, cells in records:
            if line <= self.header_line:
                continue  # blank lines, sep=, title rows and the header itself
            if isinstance(cells, str):
                yield InputRow(line, {}, problem=cells)
            elif not any(cell.strip() for cell in cells):
                yield InputRow(line, {}, tuple("" for _ in self.echo_columns), blank=True)
            elif self.sheet is not None and self.sheet.hidden(line):
                yield InputRow(line, {}, self._row(line, cells).echo, skipped=(
                    "hidden in the workbook (filtered out), not sent; unhide it to send it"))
            else:
                yield self._row(line, cells)

    def _row(self, line: int, cells: list[str]) -> InputRow:
        width = len(self.echo_columns)
        echo = tuple(cells[:width]) + ("",) * (width - len(cells))
        skipped = skip_reason(cells, self.params_of_columns)
        if skipped:
            return InputRow(line, {}, echo, skipped=skipped)
        if any(cell.strip() for cell in cells[width:]):
            beyond = ("a value right of the header's last column" if self.sheet is not None
                      else "a separator inside a value needs quotes")
            extra = ", ".join(repr(cell) for cell in cells[width:] if cell.strip())
            return InputRow(line, {}, echo, (  # the cells no column echoes, said here
                f"{counted(len(cells), 'cell')} but the header has "
                f"{counted(width, 'column')} ({beyond}); beyond the header: {extra[:120]}"))
        params: dict[str, Any] = {}
        notes = []
        for name, cell in zip(self.params_of_columns, cells, strict=False):
            if name is None or not cell.strip():
                continue
            if "\n" in cell or "\r" in cell:  # Excel's Alt+Enter inside a cell
                cell = _LINE_BREAKS.sub(" ", cell.strip())
                notes.append(f"the line break in {name} was read as a space")
            params[name] = cell
        return InputRow(line, params, echo, note="; ".join(notes))

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


def _sniffed_separator(line: str) -> str:
    """The separator a header line uses most (a comma when it holds none)."""
    return max(_SEPARATORS, key=line.count) if any(sep in line for sep in _SEPARATORS) else ","



# A report's footer block is a few rows; past this many, what follows blank rows is data.
REPORT_TAIL_ROWS = 20


def _report_tail(rows: Iterator[InputRow]) -> Iterator[InputRow]:
    """The rows, with a report's footer block skipped: the rows after two or more blank
    rows, up to the end of the file, when one of them holds a footer cell (see
    ``report_tail_reason``). A longer tail is data and passes unchanged."""
    blanks = 0
    tail: list[InputRow] | None = None
    for row in rows:
        if tail is not None:
            tail.append(row)
            if len(tail) > REPORT_TAIL_ROWS:
                yield from tail
                tail, blanks = None, 0
            continue
        if row.blank:
            blanks += 1
        elif blanks >= 2:
            tail = [row]
            continue
        else:
            blanks = 0
        yield row
    if tail is None:
        return
    reason = report_tail_reason([row.echo for row in tail if not row.blank])
    for row in tail:
        yield row if reason is None or row.blank else InputRow(
            row.line, {}, row.echo, skipped=reason)
