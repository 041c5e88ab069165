"""When two requests are the same request: the folds the operation table declares per field.

A request's identity is its parameters with each value folded so that values the
service answers alike are equal. It keys the cache, joins identical calls in
flight, merges a batch's duplicate rows, decides whether Compare asks anything new
and names the explorer's spend intent (``operations.identity_key``). It never
changes what is sent: the service gets the value as typed, trimmed.

A fold is conservative on purpose: folding two values the service answers
differently would hand one request's answer to the other, while a missed fold
only costs a second call. Pure: imports nothing of the package but the other
pure modules, so every layer may use it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from creditscope.text_folding import fold_case
from creditscope.web_hosts import website_identity

# One parameter's value -> its identity; None drops the parameter (a blank website).
Fold = Callable[[Any], Any]

# The legal suffixes the spec names as removed before searching (find_company, rule 1),
# with their dotted forms: "Northwind Labs Ltd." is "Northwind Labs" to the service. Only
# these: the service's full list is not shown, and a wrong guess would mix up companies.
_SPEC_SUFFIX = re.compile(r"(?:[\s,]+(?:ltd|limited|llc|l\.l\.c|inc|plc)\.?)+$", re.IGNORECASE)


def same_text(value: Any) -> Any:
    """The default: text trimmed, runs of spaces one space; other values unchanged."""
    return " ".join(value.split()) if isinstance(value, str) else value


def exact(value: Any) -> Any:
    """An opaque value (a cursor): only trimmed."""
    return value.strip() if isinstance(value, str) else value


def place(value: Any) -> Any:
    """A place as typed: ``" Lisbon "``, ``"lisbon"`` and ``"LISBON"`` are one place;
    accents fold too (``"Zürich"`` is ``"zurich"``). Commas, digits and signs are kept:
    ``"38.72,-9.14"`` is a point, not the words 38 72 9 14."""
    return fold_case(same_text(value)) if isinstance(value, str) else value


def company_name(value: Any) -> Any:
    """A company's name: case, spacing and the spec's legal suffixes ignored
    (``"Northwind Labs Ltd "`` is ``"northwind labs"``). Punctuation is kept: the
    service reads ``&`` as "and", so ``"AT&T"`` and ``"AT T"`` differ."""
    if not isinstance(value, str):
        return value
    text = same_text(value).casefold()
    stripped = _SPEC_SUFFIX.sub("", text).rstrip(" ,")
    return stripped or text  # a name that is only a suffix stays itself


def website(value: Any) -> Any:
    """A website as the service compares it (``web_hosts.website_identity``); blank: none."""
    if not isinstance(value, str):
        return value
    if not value.strip():
        return None
    return website_identity(value) or value.strip()  # no host: refused anyway, kept apart
