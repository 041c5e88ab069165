"""The explorer's stylesheets, and which of them its first frame needs.

Every stylesheet is the app's (no screen has its own: rules are global in Textual, and
a screen's ``CSS_PATH`` would re-parse them all on its first visit). Parsing all of
them cost the first frame ~8 ms (of ~18) for rules of screens it does not show, so the
app starts with the shared sheet and its first area's own, and reads the rest before
any other screen is shown or once the first frame is drawn. An area's sheet styles
only that area's widgets (ids and classes of its own), so reading it later changes
nothing already on screen; the order of the sheets stays the one below.
"""

from __future__ import annotations

from pathlib import Path

SHARED = "app.tcss"
AREA_SHEETS: dict[str, str] = {
    "events": "screens/events/events.tcss",
    "company": "screens/company/company.tcss",
    "restaurants": "screens/restaurants/restaurants.tcss",
    "usage": "screens/usage.tcss",
}
"""Mode -> the sheet of that area's own screens."""

ALL_SHEETS: tuple[str, ...] = (
    SHARED,
    AREA_SHEETS["events"],
    AREA_SHEETS["company"],
    AREA_SHEETS["restaurants"],
    "screens/import_request.tcss",  # Import request, opened from any area
    AREA_SHEETS["usage"],
    "screens/endpoint.tcss",  # an operation's page, opened from the Catalog
)
"""Every sheet, in the order the app reads them (later rules win ties)."""


def first_frame_sheets(mode: str) -> tuple[str, ...]:
    """The sheets a first frame showing the area ``mode`` needs, in reading order."""
    needed = {SHARED, AREA_SHEETS.get(mode, SHARED)}
    return tuple(sheet for sheet in ALL_SHEETS if sheet in needed)


def split_for_first_frame(paths: list[Path], mode: str) -> tuple[list[Path], list[Path]]:
    """``paths`` (the app's resolved ``css_path``) as (read now, read after the first
    frame), each in reading order."""
    needed = first_frame_sheets(mode)
    now = [path for path in paths if any(path.as_posix().endswith("/" + sheet)
                                         for sheet in needed)]
    return now, [path for path in paths if path not in now]
