"""Does a JSON answer have the fields and types its response model declares?

The response models are the spec's resources (``models.py``): every field they declare
must be present, with the spec's type (string, integer, number, boolean, array, object,
timestamp, date). ``null`` is accepted where the model allows ``None``: the spec leaves
open which fields may be null, and the client tolerates it there.
"""

from __future__ import annotations

import re
import types
from dataclasses import dataclass
from datetime import date, datetime
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# Enough to see what is wrong; a list of 50 events all missing a field says it once each.
MAX_PROBLEMS = 5


@dataclass(frozen=True)
class Mismatch:
    """One field that differs: where (``events[0].date.start``), what the spec says, what came."""

    field: str
    expected: str
    got: str


def mismatches(model: type[BaseModel], value: Any) -> list[Mismatch]:
    """The first few fields of ``value`` that differ from ``model`` (empty: it matches)."""
    found: list[Mismatch] = []
    _check_model(model, value, "", found)
    return found[:MAX_PROBLEMS]


def shown(value: Any) -> str:
    """A value as evidence: its JSON type and a short text of it."""
    if value is None:
        return "null"
    text = repr(value)
    return f"{_json_type(value)} {text if len(text) <= 80 else text[:79] + '…'}"


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _check_model(model: type[BaseModel], value: Any, path: str, found: list[Mismatch]) -> None:
    if not isinstance(value, dict):
        found.append(Mismatch(path or "(body)", "object", shown(value)))
        return
    for name, info in model.model_fields.items():
        key = info.alias or name
        where = f"{path}.{key}" if path else key
        if key not in value:
            found.append(Mismatch(where, _spec_type(info.annotation), "missing"))
        else:
            _check(info.annotation, value[key], where, found)
        if len(found) >= MAX_PROBLEMS:
            return


def _check(annotation: Any, value: Any, path: str, found: list[Mismatch]) -> None:
    origin = get_origin(annotation)
    if origin is Annotated:
        _check(get_args(annotation)[0], value, path, found)
    elif origin in (Union, types.UnionType):
        _check_union(get_args(annotation), value, path, found)
    elif value is None:
        found.append(Mismatch(path, _spec_type(annotation), "null"))
    elif origin is Literal:
        if value not in get_args(annotation):
            found.append(Mismatch(path, _spec_type(annotation), shown(value)))
    elif origin is list:
        _check_items(get_args(annotation)[0], value, path, found)
    elif origin is dict:
        _check_entries(get_args(annotation)[1], value, path, found)
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        _check_model(annotation, value, path, found)
    elif not _scalar_matches(annotation, value):
        found.append(Mismatch(path, _spec_type(annotation), shown(value)))


def _check_union(args: tuple[Any, ...], value: Any, path: str, found: list[Mismatch]) -> None:
    kept = [arg for arg in args if arg is not type(None)]
    if value is None and len(kept) < len(args):
        return
    attempts = []
    for arg in kept:
        tried: list[Mismatch] = []
        _check(arg, value, path, tried)
        if not tried:
            return
        attempts.append(tried)
    found.extend(attempts[0])


def _check_items(item: Any, value: Any, path: str, found: list[Mismatch]) -> None:
    if not isinstance(value, list):
        found.append(Mismatch(path, "array", shown(value)))
        return
    for index, element in enumerate(value):
        _check(item, element, f"{path}[{index}]", found)
        if len(found) >= MAX_PROBLEMS:
            return


def _check_entries(item: Any, value: Any, path: str, found: list[Mismatch]) -> None:
    if not isinstance(value, dict):
        found.append(Mismatch(path, "object", shown(value)))
        return
    for key, element in value.items():
        _check(item, element, f"{path}.{key}", found)


def _scalar_matches(annotation: Any, value: Any) -> bool:
    if annotation is Any:
        return True
    if annotation is bool:
        return isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is str:
        return isinstance(value, str)
    if annotation is datetime:  # checked before date: a datetime is a date
        return isinstance(value, str) and bool(TIMESTAMP.match(value))
    if annotation is date:
        return isinstance(value, str) and bool(DATE.match(value))
    return True  # a type the spec does not name: not ours to judge


def _spec_type(annotation: Any) -> str:
    """The spec's word for ``annotation`` ("integer", "array of Event", "timestamp or null")."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _spec_type(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return " or ".join("null" if arg is type(None) else _spec_type(arg)
                           for arg in get_args(annotation))
    if origin is Literal:
        return "one of " + ", ".join(map(str, get_args(annotation)))
    if origin is list:
        return f"array of {_spec_type(get_args(annotation)[0])}"
    if origin is dict:
        return "object"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"object ({annotation.__name__})"
    names = {bool: "boolean", int: "integer", float: "number", str: "string",
             datetime: "timestamp (YYYY-MM-DDTHH:MM:SS.mmmZ)", date: "date (YYYY-MM-DD)"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))
