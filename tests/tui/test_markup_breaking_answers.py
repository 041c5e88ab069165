"""A service string that Rich's escaping left as markup Textual cannot parse
(``"A\\x1b[8m [link=…]x[/link]"``) raised ``MarkupError`` while the summary was drawn, and
the screen whose handler failed stopped answering: the explorer froze, Ctrl+Q too, with
the charge booked and the meter at 0. Both are fixed: the text is drawn as sent, and a
handler's error leaves its screen answering."""

from __future__ import annotations

from typing import Any

import pytest
from textual.message import Message
from textual.widgets import Static

from creditscope.outside_text import hidden
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.credit_meter import CreditMeter
from explorer_factory import explorer_factory
from pilot_support import settle
from security.hostile_corpus import BRACKET_MARKUP
from textual_internals import shown_notifications

from .conftest import FROZEN_NOW, SIZE
from .test_company import spent
from .test_events_screen import search as events_search
from .test_outside_text_explorer import RewrittenSandbox
from .test_restaurants_screens import search as restaurants_search

EVIL = BRACKET_MARKUP[0]
DRAWN = "".join(char for char in EVIL if not hidden(char))  # ESC is not drawn


def name_the_place_evil(body: Any) -> Any:
    """An answer naming the place it searched near :data:`EVIL`."""
    if isinstance(body.get("location"), dict):  # an event feed
        body["location"]["nearest_city"] = EVIL
    elif "location" in body:  # a restaurant search
        body["location"] = EVIL
    return body


def meter_text(app: CreditscopeApp) -> str:
    return str(app.screen.query_one(CreditMeter).render())


async def test_a_place_named_with_escape_and_markup_is_shown_and_the_app_answers(
    settings: Settings,
) -> None:
    app = CreditscopeApp(settings, clock=lambda: FROZEN_NOW,
                         client_factory=explorer_factory(RewrittenSandbox(name_the_place_evil)))
    async with app.run_test(size=SIZE) as pilot:
        await restaurants_search(pilot, "Lisbon")
        summary = str(app.screen.query_one("#results-summary", Static).render())
        assert f"near {DRAWN}" in summary
        assert spent(app) > 0 and f"{spent(app)} cr spent" in meter_text(app)
        await app.switch_mode("events")
        screen = await events_search(pilot, "Lisbon")
        assert f"nearest city {DRAWN}" in str(
            screen.query_one("#events-summary", Static).render())
        assert f"{spent(app)} cr spent" in meter_text(app)  # the meter agrees with the ledger
        assert not [note for note in shown_notifications(app) if note.severity == "error"]
        await pilot.press("escape")  # out of the location box, where a digit is typed
        await pilot.press("2")  # keys still work: another area opens
        await settle(pilot)
        assert app.current_mode != "events"


class Probe(Message):
    """Posted to a screen whose handler for it fails."""


@pytest.mark.widget_errors  # the handler's failure is the point
async def test_a_screen_whose_handler_failed_still_answers_keys(
    make_app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen

        def on_probe(self: Any, message: Probe) -> None:
            raise RuntimeError("probe: a bug in a screen's handler")

        monkeypatch.setattr(type(screen), "on_probe", on_probe, raising=False)
        screen.post_message(Probe())
        await settle(pilot)
        [error] = [note for note in shown_notifications(app) if note.severity == "error"]
        assert "probe: a bug in a screen's handler" in error.message
        await pilot.press("2")  # the screen passes the key on: another area opens
        await settle(pilot)
        assert app.screen is not screen and app.is_running
