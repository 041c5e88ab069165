"""Every area of the explorer, brought to a typical state on sandbox data.

Shared by the size/theme snapshots and the contrast test, so both look at the
same screens: each entry is a ``run_before`` for ``snap_compare`` (or to await
inside ``run_test``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.tui.widgets.credit_meter import CreditMeter
from pilot_support import settle

Step = Callable[[Pilot[Any]], Awaitable[None]]

SIZES: dict[str, tuple[int, int]] = {"80x24": (80, 24), "120x36": (120, 36), "200x55": (200, 55)}
LIGHT_THEME = "textual-light"
DARK_THEME = "textual-dark"


async def _open(pilot: Pilot[Any], mode: str) -> Any:
    app: Any = pilot.app
    await app.wait_for_client()
    await settle(pilot)
    await app.switch_mode(mode)
    await settle(pilot)
    return app.screen


async def _type_and_enter(pilot: Pilot[Any], field: str, text: str) -> None:
    box = pilot.app.screen.query_one(field, Input)
    box.value = text
    box.focus()
    await pilot.press("enter")
    await settle(pilot)


async def _steady(pilot: Pilot[Any]) -> None:
    # The meter's flash after a spend is on a timer: end it so the picture is stable.
    for meter in pilot.app.screen.query(CreditMeter):
        meter.remove_class("-spent")
    await pilot.pause()


async def events(pilot: Pilot[Any]) -> None:
    """Events near Lisbon, the third event selected."""
    await _open(pilot, "events")
    await _type_and_enter(pilot, "#events-location", "Lisbon")
    await pilot.press("down", "down")
    await settle(pilot)
    await _steady(pilot)


async def company(pilot: Pilot[Any]) -> None:
    """A lookup whose page is momentarily unavailable: the card offers a priced re-check."""
    await _open(pilot, "company")
    await _type_and_enter(pilot, "#name", "Meridian Media")
    await _steady(pilot)


async def company_form(pilot: Pilot[Any]) -> None:
    """The lookup form with a name typed and the cursor in it (keys that type are hidden)."""
    screen = await _open(pilot, "company")
    box = screen.query_one("#name", Input)
    box.focus()
    await pilot.press(*"Meridian Media")
    await settle(pilot)


async def restaurants(pilot: Pilot[Any]) -> None:
    """Restaurants in Lisbon."""
    await _open(pilot, "restaurants")
    await _type_and_enter(pilot, "#location", "Lisbon")
    await _steady(pilot)


async def restaurant(pilot: Pilot[Any]) -> None:
    """One restaurant's overview, opened from the Lisbon results."""
    await restaurants(pilot)
    await pilot.press("down", "enter")
    await settle(pilot)
    await _steady(pilot)


async def catalog(pilot: Pilot[Any]) -> None:
    """The catalog of endpoints and prices."""
    await _open(pilot, "catalog")


async def activity(pilot: Pilot[Any]) -> None:
    """Activity with one call inspected."""
    app: Any = pilot.app
    client = await app.wait_for_client()
    await client.call("restaurants/search", {"location": "Lisbon", "cuisine": "thai"})
    await _open(pilot, "activity")
    await _steady(pilot)


async def settings(pilot: Pilot[Any]) -> None:
    """The settings form."""
    await _open(pilot, "settings")


async def help_keys(pilot: Pilot[Any]) -> None:
    """The help window over Company (with its priced keys)."""
    await company(pilot)
    await pilot.press("f1")
    await settle(pilot)


AREAS: dict[str, Step] = {
    "events": events,
    "company": company,
    "restaurants": restaurants,
    "restaurant": restaurant,
    "catalog": catalog,
    "activity": activity,
    "settings": settings,
    "help": help_keys,
}
