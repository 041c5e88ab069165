"""Every area of the explorer, brought to a typical state on sandbox data.

Shared by the size/theme snapshots and the contrast test, so both look at the
same screens: each entry is a ``run_before`` for ``snap_compare`` (or to await
inside ``run_test``).
"""

from __future__ import annotations

import asyncio
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


async def type_and_enter(pilot: Pilot[Any], field: str, text: str) -> None:
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


async def events_fresh(pilot: Pilot[Any]) -> None:
    """Events as it first opens: nothing searched, Refresh and the page buttons disabled."""
    await _open(pilot, "events")


async def events(pilot: Pilot[Any]) -> None:
    """Events near Lisbon, the third event selected."""
    await _open(pilot, "events")
    await type_and_enter(pilot, "#events-location", "Lisbon")
    await pilot.press("down", "down")
    await settle(pilot)
    await _steady(pilot)


async def company(pilot: Pilot[Any]) -> None:
    """A lookup whose page is momentarily unavailable: the card offers a priced re-check."""
    await _open(pilot, "company")
    await type_and_enter(pilot, "#name", "Meridian Media")
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
    await type_and_enter(pilot, "#location", "Lisbon")
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


# --- every view, one after the other in one app --------------------------------------------
#
# The contrast test looks at every area and every dialog in both themes; starting an app per
# view would take minutes. The tour goes through them in one app, each step starting where
# the last left off (a dialog is closed before the next step).

MENU_OF_LISBON = "/restaurants/menu?id=rst_lisbon_pt_011"
SEARCH_IN_LISBON = "/restaurants/search?location=Lisbon&cuisine=thai&limit=5"


async def _press(pilot: Pilot[Any], *keys: str) -> None:
    await pilot.press(*keys)
    await settle(pilot)


async def _close_dialog(pilot: Pilot[Any]) -> None:
    from textual.screen import ModalScreen

    while isinstance(pilot.app.screen, ModalScreen):
        await _press(pilot, "escape")


async def open_import(pilot: Pilot[Any], path: str) -> None:
    """Import request (its key, where no text box has the cursor) with a curl for ``path``."""
    from textual.widgets import TextArea

    from creditscope.sandbox import SANDBOX_BASE_URL

    pilot.app.screen.set_focus(None)
    await _press(pilot, "i")
    area = pilot.app.screen.query_one("#import-text", TextArea)
    area.text = f"curl -H 'X-API-Key: sk_live_not_a_real_key' '{SANDBOX_BASE_URL}{path}'"
    await settle(pilot)


async def import_to_send(pilot: Pilot[Any]) -> None:
    """Import request holding a request no form takes: its price and a priced Send."""
    await open_import(pilot, MENU_OF_LISBON)


async def import_to_open(pilot: Pilot[Any]) -> None:
    """Import request holding a restaurant search: its price and "Open in Restaurants"."""
    await open_import(pilot, SEARCH_IN_LISBON)


async def import_answered(pilot: Pilot[Any]) -> None:
    """Import request after Send: the answer as JSON under what was recognised."""
    await import_to_send(pilot)
    await pilot.click("#import-send")
    await settle(pilot)
    await asyncio.sleep(0.3)  # the button's pressed flash (0.2 s) is over, as a person sees it
    await pilot.pause()


async def provider_form(pilot: Pilot[Any]) -> None:
    """Request a provider, from the catalog."""
    if pilot.app.current_mode != "catalog":
        await _open(pilot, "catalog")
    await _press(pilot, "ctrl+n")


async def provider_form_errors(pilot: Pilot[Any]) -> None:
    """Request a provider with a bad address sent: the error under its field."""
    await provider_form(pilot)
    await _press(pilot, *"Strava", "tab", *"strava", "enter")


async def save_file(pilot: Pilot[Any]) -> None:
    """Save response JSON, from Activity."""
    if pilot.app.current_mode != "activity":
        await activity(pilot)
    await _press(pilot, "ctrl+s")


async def confirm_replay(pilot: Pilot[Any]) -> None:
    """Replay this call? (a spend confirmation), from Activity."""
    if pilot.app.current_mode != "activity":
        await activity(pilot)
    await _press(pilot, "ctrl+r")


async def over_budget(pilot: Pilot[Any]) -> None:
    """Over your session budget: events near Porto (3 cr) past a 1-credit budget."""
    app: Any = pilot.app
    client = await app.wait_for_client()
    client.budget = 1
    await _open(pilot, "events")
    await type_and_enter(pilot, "#events-location", "Porto")


async def _restaurant_tab(pilot: Pilot[Any], key: str) -> None:
    await _press(pilot, key)
    await _steady(pilot)


async def _from_company_help(pilot: Pilot[Any]) -> None:
    await _press(pilot, "f1")


DIALOGS: dict[str, Step] = {
    "help": help_keys,
    "import request (send)": import_to_send,
    "import request (open)": import_to_open,
    "import request (answered)": import_answered,
    "provider form": provider_form,
    "provider form (errors)": provider_form_errors,
    "save file": save_file,
    "confirm replay": confirm_replay,
    "over budget": over_budget,  # last: the budget stays at 1 credit
}
"""Every dialog, each step standing on its own (in this order: the last lowers the budget)."""


async def _open_restaurant(pilot: Pilot[Any]) -> None:
    # From the Lisbon results the tour has just shown.
    await _press(pilot, "down", "enter")
    await _steady(pilot)


async def _menu(pilot: Pilot[Any]) -> None:
    await _restaurant_tab(pilot, "m")


async def _reviews(pilot: Pilot[Any]) -> None:
    await _restaurant_tab(pilot, "r")


TOUR: list[tuple[str, Step]] = [
    ("events before a search", events_fresh),
    ("events", events),
    ("company", company),
    ("help", _from_company_help),
    ("restaurants", restaurants),
    ("restaurant overview", _open_restaurant),
    ("restaurant menu", _menu),
    ("restaurant reviews", _reviews),
    ("catalog", catalog),
    ("provider form (errors)", provider_form_errors),
    ("import request (send)", import_to_send),
    ("import request (answered)", import_answered),
    ("activity", activity),
    ("save file", save_file),
    ("confirm replay", confirm_replay),
    ("settings", settings),
    ("over budget", over_budget),
]
"""(view, step): every area (a restaurant's three tabs) and every dialog, in an order where
each step can start from where the previous one was left, its dialogs closed."""


# What a larger terminal changes (full-height boxes and buttons, wider tables), in the
# views whose steps stand on their own.
TOUR_AT_FULL_SIZE = ("events before a search", "events", "company", "help", "catalog",
                     "provider form (errors)", "import request (send)", "settings")


async def tour(pilot: Pilot[Any], only: tuple[str, ...] = ()) -> Any:
    """Yield each view's name once it is on screen (an async generator over :data:`TOUR`,
    or over the views named in ``only``)."""
    for name, step in TOUR:
        if only and name not in only:
            continue
        await _close_dialog(pilot)
        await step(pilot)
        yield name
