"""Rows as export text: CSV with dotted columns for nested fields and lists joined with
"; ", JSON as the models dump; the format follows the file name."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime
from pathlib import Path

from creditscope.models import Event, EventDate, EventPrice, Review, Venue
from creditscope.row_export import (
    cell_text,
    csv_text,
    export_format,
    file_stem,
    flatten,
    render_rows,
    rows_json,
)


def concert(number: int, *, venue: Venue | None = None) -> Event:
    return Event(
        id=f"evt_{number}",
        name=f"Fado, night {number}",  # a comma: quoted in CSV
        venue=venue,
        date=EventDate(start=datetime(2025, 3, 14, 20, 0, tzinfo=UTC), timezone="Europe/Lisbon"),
        price=EventPrice(amount=2500, currency="EUR"),
        lineup=["Ana Moura", "Camané"],
        tag="music",
    )


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_csv_flattens_nested_fields_into_dotted_columns_and_joins_lists() -> None:
    venue = Venue(name="Clube de Fado", city="Lisbon", latitude=38.71)
    [row] = read_csv(csv_text([concert(1, venue=venue)]))
    assert row["name"] == "Fado, night 1"
    assert row["venue.name"] == "Clube de Fado" and row["venue.city"] == "Lisbon"
    assert row["venue.latitude"] == "38.71"
    assert row["venue.address"] == ""  # None is an empty cell
    assert row["date.start"] == "2025-03-14T20:00:00.000Z"  # as the JSON dump writes it
    assert row["price.amount"] == "2500" and row["price.currency"] == "EUR"
    assert row["lineup"] == "Ana Moura; Camané"
    assert "venue" not in row and "images" in row  # an object, or its absence


def test_csv_header_is_every_column_of_every_row_in_order_first_met() -> None:
    without = concert(1)  # no venue: its columns come from the second row
    with_venue = concert(2, venue=Venue(name="Tasca", city="Lisbon"))
    text = csv_text([without, with_venue])
    header = text.splitlines()[0].split(",")
    assert header[:3] == ["id", "name", "status"]
    assert "venue" not in header  # the empty object stands aside for its fields
    assert header[5:7] == ["venue.id", "venue.name"]  # where the venue stands
    first, second = read_csv(text)
    assert first["venue.name"] == "" and second["venue.name"] == "Tasca"


def test_a_venue_written_as_text_keeps_its_column_beside_a_nested_one() -> None:
    """One row's venue is 'TBA', another's is an object: the export keeps both the
    `venue` column with 'TBA' and the other row's `venue.city`."""
    text = csv_text([{"name": "A", "venue": "TBA"}, {"name": "B", "venue": {"city": "Porto"}}])
    assert text.splitlines()[0] == "name,venue,venue.city"
    first, second = read_csv(text)
    assert first["venue"] == "TBA" and first["venue.city"] == ""
    assert second["venue"] == "" and second["venue.city"] == "Porto"


def header_of(rows: list[dict[str, object]]) -> str:
    return csv_text(rows).splitlines()[0]


def test_a_field_met_later_joins_its_objects_columns() -> None:
    """Columns of one object stay together, the closest enclosing object first; a column
    that is no object's field, met later, goes at the end."""
    assert header_of([{"a": {"b": {"x": 1}, "y": 2}}, {"a": {"b": {"c": 3}}}]) == \
        "a.b.x,a.b.c,a.y"
    assert header_of([{"a": {"x": 1}, "z": 0}, {"a": {"b": {"c": 2}}}]) == "a.x,a.b.c,z"
    assert header_of([{"venue": {"city": "Porto"}, "name": "B"}, {"venue": "TBA"}]) == \
        "venue.city,name,venue"


def test_json_files_are_indented_by_two_and_keep_letters() -> None:
    assert rows_json([{"city": "Zürich"}]) == '[\n  {\n    "city": "Zürich"\n  }\n]\n'


def test_cells_say_true_false_and_write_objects_in_lists_as_json() -> None:
    assert cell_text(True) == "true" and cell_text(False) == "false"
    assert cell_text(None) == "" and cell_text([]) == ""
    assert cell_text([1, 2.5, None]) == "1; 2.5; "
    assert cell_text([{"a": 1}, "b"]) == '{"a":1}; b'
    assert cell_text([{"city": "Zürich", "n": 2}]) == '{"city":"Zürich","n":2}'
    assert flatten({"a": {"b": {"c": 1}}, "d": {}}) == {"a.b.c": 1, "d": None}


def test_mappings_are_rows_too_and_a_fixed_header_stays_when_empty() -> None:
    rows = [{"rank": 1, "when": date(2025, 3, 14), "hours": {"mon": "09:00-17:00"}}]
    assert csv_text(rows) == "rank,when,hours.mon\n1,2025-03-14,09:00-17:00\n"
    assert csv_text([], ["rank", "name"]) == "rank,name\n"
    assert csv_text([]) == "\n"


def test_json_is_the_models_dump_in_json_mode() -> None:
    events = [concert(1, venue=Venue(name="Clube")), concert(2)]
    dumped = json.loads(rows_json(events))
    assert dumped == [event.model_dump(mode="json") for event in events]
    assert dumped[0]["venue"]["name"] == "Clube" and dumped[1]["venue"] is None
    assert dumped[0]["lineup"] == ["Ana Moura", "Camané"]
    assert "Camané" in rows_json(events)  # written as is, not \\u-escaped
    review = Review(id="r1", rating=5, date=date(2025, 3, 1), text="Óptimo")
    assert json.loads(rows_json([review]))[0]["date"] == "2025-03-01"


def test_the_file_name_chooses_the_format() -> None:
    rows = [Review(id="r1", rating=4, author="Rui")]
    assert export_format(Path("x.CSV")) == "csv" and export_format(Path("x")) == "json"
    fmt, text = render_rows(Path("reviews.csv"), rows)
    assert fmt == "csv" and text.startswith("id,author,rating,text,date,helpful_votes\n")
    fmt, text = render_rows(Path("reviews.json"), rows)
    assert fmt == "json" and json.loads(text)[0]["author"] == "Rui"


def test_file_stems() -> None:
    assert file_stem("Lisbon, PT", "feed") == "lisbon-pt"
    assert file_stem("rst_lisbon_pt_007", "restaurant") == "rst_lisbon_pt_007"
    assert file_stem(" ?! ", "feed") == "feed"
