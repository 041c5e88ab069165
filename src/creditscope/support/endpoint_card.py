"""What the Catalog shows of one endpoint: its parameters (types, limits, defaults) read
from the operation's request model, and an example request to show an answer for.

The parameters come from the same request model the client validates with and the
sandbox checks against, so the card cannot tell a different story from either.
"""

from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic.fields import FieldInfo

from creditscope import operations
from creditscope.models import RequestModel

# One request per operation that the built-in sandbox answers: the example on the card,
# and what "Try it" fills in. tests/support/test_endpoint_card.py sends every one.
EXAMPLE_PARAMS: dict[str, dict[str, Any]] = {
    "ticketing/discovery": {"lat": 38.7223, "lng": -9.1393, "limit": 3},
    "professional_network/find_company": {"name": "Northwind Labs Ltd",
                                          "website": "northwind-labs.co.uk"},
    "restaurants/search": {"location": "Lisbon", "limit": 3},
    "restaurants/details": {"id": "rst_lisbon_pt_011"},
    "restaurants/menu": {"id": "rst_lisbon_pt_011"},
    "restaurants/reviews": {"id": "rst_lisbon_pt_011", "limit": 3},
    "catalog": {},
    "provider-requests": {"name": "Trailforks", "url": "https://www.trailforks.com"},
}
_TYPE_WORDS = {str: "text", int: "integer", float: "number", bool: "true or false"}


@dataclass(frozen=True)
class Parameter:
    """One parameter as a person reads it."""

    name: str
    kind: str  # "text", "integer", "one of: italian, japanese, …"
    required: bool
    limits: str  # "1 to 50", "up to 200 characters", or ""
    default: str  # "20", or "" when there is none

    @property
    def rule(self) -> str:
        """Limits and default in one cell: ``1 to 50 · default 20``."""
        parts = [self.limits] if self.limits else []
        if self.default:
            parts.append(f"default {self.default}")
        return " · ".join(parts) or "—"


def operation_for_path(path: str) -> operations.Operation[Any] | None:
    """The operation a catalog entry's path names, or None for one this client lacks."""
    return operations.BY_PATH.get(path)


def parameters_of(model: type[RequestModel]) -> list[Parameter]:
    """Every field of ``model``: its type in words, whether it is required, its limits."""
    paired = {name: other for pair in model.paired for name, other in (pair, pair[::-1])}
    found = []
    for name, info in model.model_fields.items():
        limits = _limits(info)
        if name in paired:
            limits = " · ".join(filter(None, [limits, f"with {paired[name]}"]))
        default = info.get_default(call_default_factory=True)
        found.append(Parameter(
            name=name, kind=_kind(info.annotation), required=info.is_required(),
            limits=limits, default="" if default is None or info.is_required() else str(default),
        ))
    return found


def _kind(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        kinds = [_kind(arg) for arg in get_args(annotation) if arg is not type(None)]
        return " or ".join(kinds)
    if origin is Literal:
        return "one of: " + ", ".join(str(value) for value in get_args(annotation))
    if origin is not None and get_args(annotation):  # Annotated[str, …] and the like
        return _kind(get_args(annotation)[0])
    return _TYPE_WORDS.get(annotation, getattr(annotation, "__name__", str(annotation)))


def _limits(info: FieldInfo) -> str:
    """``1 to 50``, ``at least 1``, ``1 to 200 characters``, from the field's constraints."""
    # pydantic keeps each constraint as a small object with one attribute (annotated-types'
    # Ge, Le, MinLen, MaxLen), read here by name.
    found: dict[str, object] = {}
    for item in info.metadata:
        for name in ("ge", "le", "min_length", "max_length"):
            if getattr(item, name, None) is not None:
                found[name] = getattr(item, name)
    low, high = found.get("ge"), found.get("le")
    shortest, longest = found.get("min_length"), found.get("max_length")
    if shortest is not None or longest is not None:
        return _range(shortest, longest, " characters")
    return _range(low, high, "")


def _range(low: object, high: object, unit: str) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}{unit}"
    if low is not None:
        return f"at least {low}{unit}"
    if high is not None:
        return f"up to {high}{unit}"
    return ""
