"""Rows of a customer's table that are no request: totals and notes under the list.

A list kept in a spreadsheet ends with what people add below it: ``Total,,8``,
``Summe;;5``, ``Grand total``, a count under the names (``=COUNTA(A2:A41)`` saved as
``40``),
``Notes: exported from the CRM``. Sent, each would be priced as a company called
"Total". Such a row is recognised by its shape, a totals word with nothing but
numbers beside it, a number where the name goes, or a notes label, and written back as
``skipped`` with its reason: never sent, never priced. A company that is really
called "Total" has a website or other words beside it, and is sent.
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
    "合計", "総計", "小計", "合计", "件数",
))
_NOTES = re.compile(
    r"^\s*(notes?|nb|n\.b\.|remarks?|comments?|source|anmerkungs?|anmerkungen|hinweise?|"
    r"bemerkungs?|quelle|remarques?|nota|notas|observaç(?:ão|ões)|observaciones?|"
    r"opmerkings?|opmerkingen|bron|fonte|fuente|備考|注|メモ)\s*[:：]", re.IGNORECASE)
# A number as spreadsheets show one: 8, -3, 1,234.50, 1.234,50 €, 12 %, $1,000.
_NUMBER = re.compile(r"[-+]?[$€£¥]?\s*\d[\d.,'\s\u00a0\u202f]*\s*[%€$£¥]?")
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
    label = _LABEL_AND_NUMBER.fullmatch(first)
    if label and fold_header(label.group(1)) in _TOTALS and rest_are_numbers:
        return f"a totals row ({label.group(1).strip()}), not a request"
    in_params = [params[index] if index < len(params) else None for index, _ in filled]
    if rest_are_numbers and _NUMBER.fullmatch(first) and in_params[0] in _NEVER_A_NUMBER and all(
            param is None or param in _NEVER_A_NUMBER for param in in_params):
        return "numbers only (a total or a count), not a request"
    return None
