"""Control characters (NUL, the C0 and C1 sets, DEL) and bidi overrides are refused in
every parameter and body field (see :mod:`creditscope.invisible_controls`).

Checked by the request guard before any route runs, so such a request is
answered 400 ``invalid_parameter`` and never charged, whatever the operation.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from creditscope import json_limits
from creditscope.invisible_controls import first_invisible_control


def _control_in(text: str) -> str | None:
    if text.isascii() and text.isprintable():  # the common case, without a loop in Python
        return None
    return first_invisible_control(text)


def _first_in(value: Any, where: str) -> tuple[str, str] | None:
    """(field, character) of the first control character in a JSON value, depth first."""
    if isinstance(value, str):
        found = _control_in(value)
        return (where, found) if found else None
    if isinstance(value, dict):
        for key, item in value.items():
            name = str(key)
            if found := _control_in(name):
                return (where or "body", found)
            if hit := _first_in(item, f"{where}.{name}" if where else name):
                return hit
    if isinstance(value, list):
        for index, item in enumerate(value):
            if hit := _first_in(item, f"{where}[{index}]"):
                return hit
    return None


def control_character_error(query_string: bytes, body: bytes) -> dict[str, Any] | None:
    """The spec's error body when a query parameter or JSON body field holds a control
    character, else None. A body that is not JSON is left to the route to refuse."""
    hit: tuple[str, str] | None = None
    for name, value in parse_qsl(query_string.decode("latin-1"), keep_blank_values=True):
        if found := _control_in(name):
            hit = ("query", found)
        elif found := _control_in(value):
            hit = (name, found)
        if hit:
            break
    if hit is None and body.strip():
        try:
            hit = _first_in(json_limits.loads(body), "")
        except ValueError:  # JsonTooDeep too
            hit = None
    if hit is None:
        return None
    field, char = hit
    return {
        "error": {
            "code": "invalid_parameter",
            "message": f"{field}: contains a control character (U+{ord(char):04X})",
            "reason": "control_character",
        }
    }
