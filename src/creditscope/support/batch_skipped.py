"""Rows of a customer's table that are no request: totals and notes under the list.

A list kept in a spreadsheet ends with what people add below it: ``Total,,8``,
``Summe;;5``, ``Grand total``, a count under the names (``=COUNTA(A2:A41)`` saved as
``40``),
``Notes: exported from the CRM``, and a report's footer (``Grand Totals (2 records)``,
``Confidential Information``, ``Page 1 of 1``). Sent, each would be priced as a company
called "Total". Such a row is recognised by its shape, a totals word (with a count in
parentheses, ``TOTAL (3 companies)``) with nothing but numbers beside it (``1.234,56 €``,
accounting's ``-`` and ``(1,234)``), a number where the name goes, a notes label, a name
that is only ever a total (``Grand total``, ``Subtotal EMEA``), or a lone footer cell
below the list, and written back as ``skipped`` with its reason: never sent, never
priced. A company that is really called "Total" has a website or other words beside
it, and is sent.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from creditscope.support.batch_columns import fold_header

# Totals and counts, in the languages of the service's markets (folded by fold_header).
_TOTALS = frozenset(fold_header(word) for word in (
    "total", "totals", "grand total", "subtotal", "sub-total", "sum", "count", "overall",
    "summe", "gesamt", "gesamtsumme", "insgesamt", "zwischensumme", "anzahl", "summa",
    "total général", "sous-total", "somme", "suma", "total general", "soma", "totaal",
    "subtotaal", "eindtotaal", "som", "totale", "totale generale", "subtotale", "razem",
    "合計", "総計", "小計", "合计", "件数", "records", "record count", "row count",
))
# Words that begin a total and never a company's name: a subtotal, a grand total.
_ONLY_TOTALS = re.compile(
    r"^\s*(sub[- ]?totals?|grand totals?|zwischensumme|gesamtsumme|sous-total|"
    r"total g[ée]n[ée]ral|subtotaa?l|eindtotaal|totale generale|subtotale|総計|小計)\b",
    re.IGNORECASE)
# A report's footer, alone on its row below the list.
_FOOTER = re.compile(
    r"^\s*(confidential|copyright|©|\(c\)\s|generated (by|on)|report generated|"
    r"powered by|printed (by|on)|page \d+ of \d+|do not distribute)", re.IGNORECASE)
# A count in parentheses after a totals word: "Grand Totals (2 records)".
_COUNT_IN_PARENS = re.compile(r"\s*\(\s*\d[\d.,]*(\s+\w+)?\s*\)\s*$")
_NOTES = re.compile(
    r"^\s*(notes?|nb|n\.b\.|remarks?|comments?|source|anmerkungs?|anmerkungen|hinweise?|"
    r"bemerkungs?|quelle|remarques?|nota|notas|observaç(?:ão|ões)|observaciones?|"
    r"opmerkings?|opmerkingen|bron|fonte|fuente|備考|注|メモ)\s*[:：]", re.IGNORECASE)
# A number as spreadsheets show one: 8, -3, 1,234.50, 1.234,50 €, 12 %, $1,000, and
# accounting's negative (1,234) and zero "-".
_AMOUNT = r"[-+]?[$€£¥]?\s*\d[\d.,'\s\u00a0\u202f]*\s*[%€$£¥]?"
_NUMBER = re.compile(rf"{_AMOUNT}|\(\s*{_AMOUNT}\s*\)|[-–—]|n/?a", re.IGNORECASE)
_LABEL_AND_NUMBER = re.compile(r"(.*?)[\s:：=]*(" + _NUMBER.pattern + r")?")
# Parameters whose value is never a bare number: a number there is a count, not a request.
_NEVER_A_NUMBER = frozenset({"name", "website"})


def skip_reason(cells: Sequence[str], params: Sequence[str | None]) -> str | None:
    """Why this row is no request (a totals, count or notes row), or None when it may be
    one. ``params`` names the parameter of each column (None: not a parameter)."""
    filled = [(index, cell.strip()) for index, cell in enumerate(cells) if cell.strip()]
    if not filled:
        return None
    first = filled[0][1]
    if _NOTES.match(first):
        return "a notes row, not a request"
    rest_are_numbers = all(_NUMBER.fullmatch(cell) for _, cell in filled[1:])
    label = _LABEL_AND_NUMBER.fullmatch(_COUNT_IN_PARENS.sub("", first))
    if label and fold_header(label.group(1)) in _TOTALS and rest_are_numbers:
        return f"a totals row ({label.group(1).strip()}), not a request"
    only_total = next((cell for index, cell in filled if index < len(params)
                       and params[index] == "name" and _ONLY_TOTALS.match(cell)), None)
    if only_total is not None:
        return f"a totals row ({only_total}), not a request"
    in_params = [params[index] if index < len(params) else None for index, _ in filled]
    if rest_are_numbers and _NUMBER.fullmatch(first) and in_params[0] in _NEVER_A_NUMBER and all(
            param is None or param in _NEVER_A_NUMBER for param in in_params):
        return "numbers only (a total or a count), not a request"
    return None


def footer_reason(cells: Sequence[str]) -> str | None:
    """Why a row is a report's footer (one cell: ``Confidential``, ``Page 1 of 1``), or
    None. Only rows below the list's last request are footers: the caller checks that."""
    filled = [cell.strip() for cell in cells if cell.strip()]
    if len(filled) == 1 and _FOOTER.match(filled[0]):
        return "a report footer below the list, not a request"
    return None


def report_tail_reason(rows: Sequence[Sequence[str]]) -> str | None:
    """Why the rows after a list's last two blank rows are a report's footer block, or
    None. Salesforce and other report exports end with "Generated By:", a copyright, then
    the report's name and filters ("Filtered By:", "Account Owner equals Jane Doe"): one
    footer-shaped cell anywhere in the block makes the whole block the footer."""
    if any(_FOOTER.match(cell) for cells in rows for cell in cells if cell.strip()):
        return "part of the report's footer below the list, not a request"
    return None
