"""Writing a table: no cell of a CSV or TSV we write is a formula to a spreadsheet.

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is
read by Excel, LibreOffice and Sheets as a formula (``=HYPERLINK(…)``,
``=cmd|' /C calc'!A0``), whether it is the customer's own cell echoed by a batch
or a name the service sent back. :func:`safe_cell` neutralises it as OWASP
describes, with a leading single quote, which a spreadsheet shows as text and
does not display. A number we write ourselves (an ``int`` or ``float``, or text
that is only a plain decimal number such as ``-9.14`` or ``-1e-05``) stays a number: it cannot
be a formula.

Our own readers undo it with :func:`original_cell`: one quote is removed exactly
where :func:`safe_cell` added one, so a file written here reads back to the same
values (a cell that itself began with quotes before a trigger gains one more).

Every CSV this package writes goes through :class:`TableWriter`. Pure: imports
nothing of the package, so every writer and reader may use it.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
QUOTE = "'"
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def _formula_like(text: str) -> bool:
    return text.startswith(FORMULA_STARTS) and not _PLAIN_NUMBER.fullmatch(text)


def safe_cell(value: Any) -> Any:
    """``value`` as a cell no spreadsheet runs: text that begins like a formula (after
    any quotes) gets one more leading quote; everything else is unchanged."""
    if isinstance(value, str) and _formula_like(value.lstrip(QUOTE)):
        return QUOTE + value
    return value


def safe_row(values: Iterable[Any]) -> list[Any]:
    """:func:`safe_cell` of every value of a row."""
    return [safe_cell(value) for value in values]


class TableWriter:
    """A CSV writer (``\n`` line ends) whose every cell passes :func:`safe_cell`: the one
    way this package writes a table."""

    def __init__(self, handle: TextIO, delimiter: str = ",") -> None:
        self._minimal = csv.writer(handle, delimiter=delimiter, lineterminator="\n")
        # Python's csv leaves a lone carriage return unquoted when lines end in "\n", and a
        # reader takes it for the end of the line: such a row is written fully quoted.
        self._quoted = csv.writer(handle, delimiter=delimiter, lineterminator="\n",
                                  quoting=csv.QUOTE_ALL)

    def writerow(self, values: Iterable[Any]) -> None:
        """Write one row, its cells neutralised."""
        row = safe_row(values)
        has_return = any(isinstance(cell, str) and "\r" in cell for cell in row)
        (self._quoted if has_return else self._minimal).writerow(row)


def original_cell(text: str) -> str:
    """A cell as it was before :func:`safe_cell`: ``"'=1+1"`` -> ``"=1+1"``."""
    if text.startswith(QUOTE) and _formula_like(text.lstrip(QUOTE)):
        return text[1:]
    return text
