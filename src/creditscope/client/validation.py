"""Local validation: a request the spec forbids never leaves the machine.

``validate`` turns user input (typed values, or strings from the CLI and forms)
into the canonical parameters of an operation: values converted to their spec
types, spec defaults applied, ``None`` treated as omitted, keys sorted. Anything
the spec forbids raises ``InvalidRequest`` naming the field, so forms can put
the message next to it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from creditscope import models, operations
from creditscope.client.errors import InvalidRequest

# The query parameters / body fields each operation accepts.
_FIELDS: dict[str, tuple[str, ...]] = {
    "ticketing/discovery": ("lat", "lng", "limit", "cursor"),
    "professional_network/find_company": ("name", "website"),
    "restaurants/search": ("location", "cuisine", "limit"),
    "restaurants/details": ("id",),
    "restaurants/menu": ("id",),
    "restaurants/reviews": ("id", "limit"),
    "catalog": (),
    "provider-requests": ("name", "url", "email"),
}

# (low, high) bounds of each operation's `limit`, from the spec's Limits table.
_LIMIT_RANGES: dict[str, tuple[int, int]] = {
    "ticketing/discovery": (1, 50),
    "restaurants/search": (1, 30),
    "restaurants/reviews": (1, 50),
}


# Longest text accepted for a query parameter: far above any real id, place or cursor,
# far below what proxies refuse as an over-long URL.
MAX_TEXT_LENGTH = 1000
# Bidirectional overrides and isolates: they make a terminal show text other than what is sent.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def operation_named(operation: str) -> operations.Operation:
    """The operation called ``operation``, or ``InvalidRequest(code="unknown_operation")``."""
    try:
        return operations.get(operation)
    except KeyError as exc:
        raise InvalidRequest(
            str(exc.args[0]), field="operation", code="unknown_operation"
        ) from None


def accepted_fields(operation: str) -> tuple[str, ...]:
    """The query parameters or body fields ``operation`` accepts, in the spec's order."""
    return _FIELDS[operation_named(operation).name]


def validate(operation: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical parameters for ``operation``, or ``InvalidRequest`` naming the bad field."""
    op = operation_named(operation)
    given = {key: value for key, value in params.items() if value is not None}
    allowed = _FIELDS[op.name]
    for key in given:
        if key not in allowed:
            hint = ", ".join(allowed) if allowed else "none"
            raise _invalid(key, f"{op.name} has no parameter {key!r} (accepted: {hint})")
    refuse_control_characters(given)
    if op.name == "professional_network/find_company":
        return _body(models.FindCompanyRequest, given)
    if op.name == "provider-requests":
        return _body(models.ProviderRequest, given)

    clean: dict[str, Any] = {}
    if "lat" in given:
        clean["lat"] = _number(given["lat"], "lat", -90.0, 90.0)
    if "lng" in given:
        clean["lng"] = _number(given["lng"], "lng", -180.0, 180.0)
    if ("lat" in clean) != ("lng" in clean):
        # A point needs both coordinates; half of one is almost certainly a slip.
        missing = "lng" if "lat" in clean else "lat"
        raise _invalid(missing, "lat and lng go together: give both or neither")
    for key in ("cursor",):
        if key in given:
            clean[key] = _text(given[key], key, required=False)
    for key in ("location", "id"):
        if key in allowed:
            if key not in given:
                raise _invalid(key, f"{key} is required")
            clean[key] = _text(given[key], key, required=True)
    if "cuisine" in given:
        cuisine = _text(given["cuisine"], "cuisine", required=True).strip().lower()
        if cuisine not in models.CUISINES:
            raise _invalid("cuisine", f"cuisine must be one of {', '.join(models.CUISINES)}")
        clean["cuisine"] = cuisine
    if op.name in _LIMIT_RANGES and "limit" in given:
        low, high = _LIMIT_RANGES[op.name]
        clean["limit"] = _integer(given["limit"], "limit", low, high)
    for key, default in op.defaults:
        clean.setdefault(key, default)
    return dict(sorted(clean.items()))


def refuse_control_characters(params: Mapping[str, Any]) -> None:
    """``InvalidRequest`` for a control character (NUL, the C0 set, ...) in any text value,
    checked before anything else, as the service refuses them in every field."""
    for key, value in params.items():
        if isinstance(value, str):
            _printable(value, key)


def _invalid(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, field=field, code="invalid_parameter")


def _body(model: type[models.RequestModel], given: dict[str, Any]) -> dict[str, Any]:
    for key, value in given.items():
        if not isinstance(value, str):
            raise _invalid(key, f"{key} must be text")
        _printable(value, key)
    if "name" in given and not given["name"].strip():
        raise _invalid("name", "name must not be blank")
    try:
        body = model.model_validate(given)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else "body"
        raise _invalid(field, _in_our_words(field, first, given.get(field))) from None
    return dict(sorted(body.model_dump(exclude_none=True).items()))


def _in_our_words(field: str, error: Any, value: Any) -> str:
    """A pydantic error as the product says it, naming the field:
    "name is 240 characters; at most 200", never "String should have at most 200 characters"."""
    kind = str(error.get("type", ""))
    limits = error.get("ctx") or {}
    if kind == "string_too_long":
        length = f" is {len(value)} characters;" if isinstance(value, str) else ":"
        return f"{field}{length} at most {limits.get('max_length')}"
    if kind == "string_too_short":
        return f"{field} must not be empty"
    if kind == "missing":
        return f"{field} is required"
    if kind in ("string_type", "str_type"):
        return f"{field} must be text"
    if kind == "value_error":
        # Our own validators' messages (models.py) already name the field.
        return str(error.get("msg", "")).removeprefix("Value error, ")
    return f"{field} is not valid here"


def _text(value: Any, field: str, *, required: bool) -> str:
    if not isinstance(value, str):
        raise _invalid(field, f"{field} must be text")
    if required and not value.strip():
        raise _invalid(field, f"{field} must not be empty")
    if len(value) > MAX_TEXT_LENGTH:
        raise _invalid(field, f"{field} is {len(value)} characters; at most {MAX_TEXT_LENGTH}")
    _printable(value, field)
    return value


def _printable(value: str, field: str) -> None:
    """Refuse control characters and bidi overrides (emoji and right-to-left text are fine)."""
    for char in value:
        if unicodedata.category(char) == "Cc" or char in _BIDI_CONTROLS:
            raise _invalid(
                field,
                f"{field} contains an invisible control character (U+{ord(char):04X});"
                " remove it and try again",
            )


def _number(value: Any, field: str, low: float, high: float) -> float:
    if isinstance(value, bool):
        raise _invalid(field, f"{field} must be a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise _invalid(field, f"{field} must be a number") from None
    if not low <= number <= high:
        raise _invalid(field, f"{field} must be between {low:g} and {high:g}")
    return number


def _integer(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise _invalid(field, f"{field} must be a whole number")
    if isinstance(value, float):
        if not value.is_integer():
            raise _invalid(field, f"{field} must be a whole number")
        value = int(value)
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise _invalid(field, f"{field} must be a whole number") from None
    if not low <= number <= high:
        raise _invalid(field, f"{field} must be between {low} and {high}")
    return number
