"""A list shown on screen as export text: CSV or JSON, chosen by the file's name.

Pure code, no Textual: every explorer list (events, restaurants, a menu, reviews,
company matches) goes through it, so their files look alike. A row is a pydantic
model or a mapping. JSON is the rows as the models dump them (``mode="json"``).
CSV has a header row; nested objects are flattened into dotted column names
(``venue.city``), lists are joined with ``"; "``, and a missing value is empty::

    >>> csv_text([{"name": "A", "venue": {"city": "Lisbon"}, "lineup": ["x", "y"]}])
    'name,venue.city,lineup\\nA,Lisbon,x; y\\n'
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from creditscope.spreadsheet_cells import TableWriter

Row = BaseModel | Mapping[str, Any]
Format = Literal["csv", "json"]
LIST_SEPARATOR = "; "


def export_format(path: Path) -> Format:
    """``"csv"`` for a ``.csv`` file, else ``"json"``."""
    return "csv" if path.suffix.lower() == ".csv" else "json"


def file_stem(text: str, fallback: str) -> str:
    """A file-name-safe form of ``text``: ``"Lisbon, PT"`` -> ``"lisbon-pt"``, an id such as
    ``rst_lisbon_pt_007`` as it is; ``fallback`` when nothing is left."""
    return re.sub(r"[^a-z0-9_]+", "-", text.lower()).strip("-") or fallback


def dump_row(row: Row) -> dict[str, Any]:
    """The row as JSON values: a model as it dumps with ``mode="json"``, a mapping likewise."""
    if isinstance(row, BaseModel):
        return row.model_dump(mode="json")
    dumped: dict[str, Any] = to_jsonable_python(dict(row))
    return dumped


def json_text(value: Any) -> str:
    """``value`` as indented JSON (non-ASCII kept as written), ending with a newline."""
    return json.dumps(to_jsonable_python(value), indent=2, ensure_ascii=False) + "\n"


def rows_json(rows: Iterable[Row]) -> str:
    """The rows as a JSON array of their dumps."""
    return json_text([dump_row(row) for row in rows])


def flatten(record: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted keys: ``{"venue": {"city": "X"}}`` -> ``{"venue.city": "X"}``.

    Lists and scalars are kept as they are; an empty object keeps its own key (empty)."""
    flat: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = None if isinstance(value, Mapping) else value
    return flat


def cell_text(value: Any) -> str:
    """One CSV cell: empty for none, ``true``/``false``, a list joined with ``"; "``
    (an object inside a list as compact JSON)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return LIST_SEPARATOR.join(
            json.dumps(item, ensure_ascii=False, separators=(",", ":"))
            if isinstance(item, Mapping | list) else cell_text(item)
            for item in value
        )
    return str(value)


def csv_columns(flat_rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every key of the rows, in the order first met, an object's fields together where
    it stands; a key that is empty wherever it appears and stands for an object other
    rows have (``venue`` beside ``venue.city``) is left out."""
    seen: list[str] = []
    for key in dict.fromkeys(key for row in flat_rows for key in row):
        seen.insert(_place_of(seen, key), key)
    return [
        key for key in seen
        if not (any(other.startswith(f"{key}.") for other in seen)
                and all(row.get(key) is None for row in flat_rows))
    ]


def _place_of(columns: list[str], key: str) -> int:
    """Where ``key`` goes: after the columns of its closest enclosing object already
    there (``venue.city`` after ``venue`` or ``venue.name``), else at the end."""
    parts = key.split(".")
    for size in range(len(parts) - 1, 0, -1):
        parent = ".".join(parts[:size])
        inside = [i for i, column in enumerate(columns)
                  if column == parent or column.startswith(f"{parent}.")]
        if inside:
            return inside[-1] + 1
    return len(columns)


def csv_text(rows: Iterable[Row], columns: Sequence[str] | None = None) -> str:
    """The rows as CSV: a header row (``columns``, else every flattened key), then one
    line per row."""
    flat_rows = [flatten(dump_row(row)) for row in rows]
    header = list(columns) if columns is not None else csv_columns(flat_rows)
    out = io.StringIO()
    writer = TableWriter(out)
    writer.writerow(header)
    for flat in flat_rows:  # the service's text: never a formula to a spreadsheet
        writer.writerow(cell_text(flat.get(column)) for column in header)
    return out.getvalue()


def render_rows(path: Path, rows: Sequence[Row]) -> tuple[Format, str]:
    """(format, text) of ``rows`` for a file named ``path`` (the format from its suffix)."""
    fmt = export_format(path)
    return fmt, csv_text(rows) if fmt == "csv" else rows_json(rows)
