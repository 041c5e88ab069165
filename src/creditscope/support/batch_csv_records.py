"""CSV records with the lines they start on, refusing what the csv module reads wrong.

The csv module stops at a cell over 128 KB (a CRM's long description) with a traceback,
and an unbalanced quote (``"12"" Pizza Ltd`` with no closing quote) makes it read the
rest of the file as one cell: rows vanish, or several become one priced name. Cells are
allowed up to the client's answer cap; a longer one, a quote still open at the end of
the file, or a quoted cell that swallowed lines shaped like rows stops the batch before
anything is sent, naming the line.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from typing import TextIO

from creditscope.client.responses import MAX_ANSWER_BYTES

MAX_CELL_CHARS = MAX_ANSWER_BYTES  # no answer can hold more; the file is refused past it
csv.field_size_limit(max(csv.field_size_limit(), MAX_CELL_CHARS))


class CsvRecordProblem(ValueError):
    """The file cannot be read as CSV rows; the message names the line and what to do."""


class _RecordedLines:
    """The handle's lines, keeping those of the record being read (for the checks)."""

    def __init__(self, handle: TextIO) -> None:
        self._handle = handle
        self.taken: list[str] = []

    def __iter__(self) -> _RecordedLines:
        return self

    def __next__(self) -> str:
        line = next(self._handle)
        self.taken.append(line)
        return line


def csv_records(handle: TextIO, separator: str, width: int = 0
                ) -> Iterator[tuple[int, list[str] | str]]:
    """``(line, cells)`` of every record, or ``(line, why)`` for a broken one. ``width``
    (the header's columns) tells a swallowed row; 0 while the header is not known."""
    lines = _RecordedLines(handle)
    reader = csv.reader(lines, delimiter=separator)
    while True:
        start = reader.line_num + 1  # a quoted cell may run over several lines
        lines.taken.clear()
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if "field limit" in str(exc):
                raise CsvRecordProblem(
                    f"line {start} has a cell longer than {MAX_CELL_CHARS // 2**20} MB "
                    "(or a quote that is never closed); shorten it or remove the row. "
                    "Nothing was sent.") from None
            yield start, f"unreadable line ({exc})"
            continue
        if len(lines.taken) > 1:
            _check_quotes(start, lines.taken, cells, separator, width)
        yield start, cells


def _check_quotes(start: int, raw: list[str], cells: list[str], separator: str,
                  width: int) -> None:
    """Refuse a record whose quote is open at the end of the file, or whose quoted cell
    holds a line shaped like a row (what an unbalanced quote does to the lines after it)."""
    what = ""
    inside = [text for cell in cells for text in cell.splitlines()[1:]]
    if _ends_inside_quotes("".join(raw), separator):
        what = "runs to the end of the file"
    elif width >= 2:
        swallowed = next((text for text in inside
                          if _looks_like_a_row(text, separator, width)), None)
        if swallowed is not None:
            line = start + next(number for number, text in enumerate(raw)
                                if swallowed in text)
            what = f"swallows line {line} ({swallowed.strip()[:60]}), which looks like a row"
    if what:
        raise CsvRecordProblem(
            f"unclosed quote starting on line {start}: the quoted cell {what}. Nothing was "
            'sent. Close the quote, or write a quote inside a cell twice ("12"" Pizza" '
            "inside quotes), or remove it; then run batch again.")


def _ends_inside_quotes(text: str, separator: str) -> bool:
    """Whether ``text`` ends inside a quoted cell, as the csv module reads quotes: one
    opens only at a cell's start, and ``""`` inside is a quote."""
    at_start, quoted, pending_quote = True, False, False
    for char in text:
        if quoted:
            if pending_quote:
                pending_quote = False
                if char != '"':
                    quoted = False  # the quote closed the cell; this char follows it
                    at_start = char in (separator, "\n", "\r")
                continue
            pending_quote = char == '"'
            continue
        if char == '"' and at_start:
            quoted = True
            continue
        at_start = char in (separator, "\n", "\r")
    return quoted and not pending_quote


def _looks_like_a_row(text: str, separator: str, width: int) -> bool:
    """A line of exactly the header's width, every cell filled and none starting with a
    space (a program's row, not an address typed as ``1 High St, London``)."""
    cells = next(csv.reader([text.rstrip("\r\n")], delimiter=separator), [])
    return len(cells) == width and all(cell and not cell[0].isspace() for cell in cells)
