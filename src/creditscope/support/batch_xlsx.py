"""``batch --out results.xlsx``: a real workbook, written a row at a time.

Every cell is written with its own type, never guessed from its text: a number
is a number, and text is text even when it begins with ``=``, ``+``, ``-`` or
``@`` (XlsxWriter's conversions of strings to formulas, numbers and links are
off). Text that looks like a formula also gets Excel's quote prefix (what
typing ``'=1+1`` gives): the cell shows the text as it is, with no added
character, and stays text when someone edits it, as :func:`safe_cell` keeps it
text in a CSV. ``constant_memory`` writes each row as it comes, so memory stays
flat whatever the number of rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, BinaryIO

from creditscope.spreadsheet_cells import safe_cell

SHEET = "Results"


def write_workbook(handle: BinaryIO, columns: tuple[str, ...],
                   rows: Iterable[dict[str, Any]]) -> int:
    """Write a header and ``rows`` as one sheet of an .xlsx into ``handle``; returns the
    number of rows (the header not counted)."""
    import xlsxwriter  # type: ignore[import-untyped]  # ships no type information

    workbook = xlsxwriter.Workbook(handle, {
        "constant_memory": True, "strings_to_formulas": False, "strings_to_numbers": False,
        "strings_to_urls": False, "nan_inf_to_errors": True})
    sheet = workbook.add_worksheet(SHEET)
    as_text = workbook.add_format({"quote_prefix": True})
    bold = workbook.add_format({"bold": True})
    for index, column in enumerate(columns):
        sheet.write_string(0, index, column, bold)
    sheet.freeze_panes(1, 0)
    count = 0
    for count, row in enumerate(rows, start=1):
        for index, column in enumerate(columns):
            value = row.get(column)
            if value is None or value == "":
                continue
            if isinstance(value, bool):
                sheet.write_boolean(count, index, value)
            elif isinstance(value, int | float):
                sheet.write_number(count, index, value)
            else:
                text = str(value)
                formula_like = safe_cell(text) != text
                sheet.write_string(count, index, text, as_text if formula_like else None)
    workbook.close()
    return count
