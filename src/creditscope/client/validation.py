"""Local validation: a request the spec forbids never leaves the machine.

``validate`` turns user input (typed values, or strings from the CLI and forms)
into the canonical parameters of an operation: values converted to their spec
types, text trimmed, zero-width characters and odd spaces folded (``name_characters``),
spec defaults applied, ``None`` treated as omitted, keys sorted. Anything the spec
forbids raises ``InvalidRequest`` naming the field, so forms can put the message
next to it.
"""

from __future__ import annotations

import math
import types
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import ValidationError

from creditscope import models, operations
from creditscope.client.errors import InvalidRequest
from creditscope.name_characters import fold_name, refused_character

# Re-exported: the longest text accepted where the spec sets no maximum.
MAX_TEXT_LENGTH = models.MAX_TEXT_LENGTH


@dataclass(frozen=True)
class FieldRule:
    """What one request field accepts, read from the operation's request model."""

    name: str
    kind: Literal["text", "number", "integer", "choice"]
    required: bool
    low: float | None = None
    high: float | None = None
    min_length: int = 0
    max_length: int | None = None
    choices: tuple[str, ...] = ()


@cache
def field_rules(model: type[models.RequestModel]) -> dict[str, FieldRule]:
    """The fields of ``model`` in its order, each with its kind, bounds and lengths."""
    rules: dict[str, FieldRule] = {}
    for name, info in model.model_fields.items():
        base = _without_none(info.annotation)
        limits: dict[str, Any] = {}
        for item in info.metadata:
            for attr in ("ge", "le", "min_length", "max_length"):
                if getattr(item, attr, None) is not None:
                    limits[attr] = getattr(item, attr)
        kind: Literal["text", "number", "integer", "choice"]
        if get_origin(base) is Literal:
            kind, choices = "choice", tuple(str(choice) for choice in get_args(base))
        elif base is float:
            kind, choices = "number", ()
        elif base is int:
            kind, choices = "integer", ()
        else:
            kind, choices = "text", ()
        rules[name] = FieldRule(
            name, kind, info.is_required(), limits.get("ge"), limits.get("le"),
            limits.get("min_length", 0), limits.get("max_length"), choices,
        )
    return rules


def _without_none(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        kept = [arg for arg in get_args(annotation) if arg is not type(None)]
        return kept[0] if len(kept) == 1 else annotation
    return annotation


def operation_named(operation: str | operations.Operation[Any]) -> operations.Operation[Any]:
    """The table's row for ``operation`` (a name or a typed constant: both reach the same
    row, priced and cached alike), or ``InvalidRequest(code="unknown_operation")``."""
    try:
        return operations.get(operation if isinstance(operation, str) else operation.name)
    except KeyError as exc:
        raise InvalidRequest(
            str(exc.args[0]), field="operation", code="unknown_operation"
        ) from None


def accepted_fields(operation: str) -> tuple[str, ...]:
    """The query parameters or body fields ``operation`` accepts, in the spec's order."""
    return tuple(field_rules(operation_named(operation).request_model))


def required_fields(operation: str) -> tuple[str, ...]:
    """The fields ``operation`` cannot do without."""
    rules = field_rules(operation_named(operation).request_model)
    return tuple(name for name, rule in rules.items() if rule.required)


def validate(operation: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical parameters for ``operation``, or ``InvalidRequest`` naming the bad field."""
    op = operation_named(operation)
    model = op.request_model
    rules = field_rules(model)
    # Invisible characters and odd spaces folded first: validated, keyed and sent folded.
    given = {key: fold_name(value) if isinstance(value, str) else value
             for key, value in params.items() if value is not None}
    for key in given:
        if key not in rules:
            hint = ", ".join(rules) if rules else "none"
            raise _invalid(key, f"{op.name} has no parameter {key!r} (accepted: {hint})")
    refuse_control_characters(given)
    clean: dict[str, Any] = {}
    for name, rule in rules.items():
        if name in given:
            clean[name] = _converted(rule, given[name])
        elif rule.required:
            raise _invalid(name, f"{name} is required")
    half = models.unpaired(model, clean)
    if half is not None:
        # A point needs both coordinates; half of one is almost certainly a slip.
        first, second = sorted(half, key=list(rules).index)
        raise _invalid(half[0], f"{first} and {second} go together: give both or neither")
    try:
        request = model.model_validate(clean)
    except ValidationError as exc:
        first_error = exc.errors()[0]
        field = str(first_error["loc"][0]) if first_error["loc"] else "body"
        raise _invalid(field, _in_our_words(field, first_error, clean.get(field))) from None
    # The spec's defaults come with the model, so a call with and without them is one entry.
    return dict(sorted(request.model_dump(exclude_none=True).items()))


def _converted(rule: FieldRule, value: Any) -> Any:
    """``value`` as the field's type (numbers from text too), or ``InvalidRequest``."""
    if rule.kind == "number":
        return _number(value, rule.name, rule.low, rule.high)
    if rule.kind == "integer":
        return _integer(value, rule.name, rule.low, rule.high)
    if rule.kind == "choice":
        choice = _text(value, rule.name, required=True, limit=None).strip().lower()
        if choice not in rule.choices:
            raise _invalid(rule.name, f"{rule.name} must be one of {', '.join(rule.choices)}")
        return choice
    return _text(value, rule.name, required=rule.min_length > 0, limit=rule.max_length)


def refuse_control_characters(params: Mapping[str, Any]) -> None:
    """``InvalidRequest`` for a control character (NUL, the C0 set, ...) in any text value,
    checked before anything else, as the service refuses them in every field."""
    for key, value in params.items():
        if isinstance(value, str):
            _printable(value, key)


def _invalid(field: str, message: str) -> InvalidRequest:
    return InvalidRequest(message, field=field, code="invalid_parameter")


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
        # Our own validators' messages (models.py) name the field, or are said after it.
        message = str(error.get("msg", "")).removeprefix("Value error, ")
        return message if message.startswith(field) else f"{field} {message}"
    return f"{field} is not valid here"


def _text(value: Any, field: str, *, required: bool, limit: int | None) -> str:
    if not isinstance(value, str):
        raise _invalid(field, f"{field} must be text")
    if required and not value.strip():
        raise _invalid(field, f"{field} must not be empty")
    if limit is not None and len(value) > limit:
        raise _invalid(field, f"{field} is {len(value)} characters; at most {limit}")
    _printable(value, field)
    # Sent trimmed: the service reads " Lisbon " as "Lisbon", and a pasted cell's spaces
    # are never what was meant.
    return value.strip()


def _printable(value: str, field: str) -> None:
    """Refuse control characters, bidi overrides and other invisible format characters
    that folding leaves (emoji and right-to-left text are fine), naming the character."""
    refused = refused_character(value)
    if refused is not None:
        raise _invalid(
            field, f"{field} contains an invisible control character ({refused});"
            " remove it and try again",
        )


def _number(value: Any, field: str, low: float | None, high: float | None) -> float:
    if isinstance(value, bool):
        raise _invalid(field, f"{field} must be a number")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise _invalid(field, f"{field} must be a number") from None
    if not _within(number, low, high):
        raise _invalid(field, f"{field} must be {_bounds(low, high)}")
    return number


def _within(number: float, low: float | None, high: float | None) -> bool:
    # NaN and infinities are never a parameter's value (NaN fails every comparison).
    return (math.isfinite(number) and (low is None or number >= low)
            and (high is None or number <= high))


def _bounds(low: float | None, high: float | None) -> str:
    if low is not None and high is not None:
        return f"between {low:g} and {high:g}"
    if low is not None:
        return f"at least {low:g}"
    return f"at most {high:g}" if high is not None else "a finite number"


def _integer(value: Any, field: str, low: float | None, high: float | None) -> int:
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
    if not _within(number, low, high):
        raise _invalid(field, f"{field} must be {_bounds(low, high)}")
    return number
