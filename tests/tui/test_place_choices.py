"""Issue 26, build 4 in the explorer: an ambiguous town offers its namesakes, largest
first, and the choice is remembered between runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.place_choices import PlaceChoices
from pilot_support import settle

from .conftest import SIZE
from .screen_text import footer_text, visible_text
from .test_restaurants_screens import search

MakeApp = Callable[..., CreditscopeApp]


def sent_locations(app: CreditscopeApp) -> list[Any]:
    assert app.client is not None
    return [r.params.get("location") for r in app.client.ledger.session_records
            if r.operation == "restaurants/search"]


async def test_an_ambiguous_town_lists_its_namesakes_and_ctrl_o_picks_one(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        box.value = "Valencia"
        await settle(pilot)
        hint = visible_text(app)
        assert "Valencia, VE" in hint and "also Valencia, ES" in hint
        assert "Other place" in footer_text(app)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert box.value == "Valencia, ES"
        box.value = "Lisbon"
        await settle(pilot)
        assert "Other place" not in footer_text(app)  # one Lisbon: nothing to choose


async def test_the_choice_is_remembered_in_the_next_run(make_app: MakeApp) -> None:
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await search(pilot, "Cordoba")
        assert sent_locations(first) == ["Córdoba, AR"]  # completed to the largest
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert first.screen.query_one("#location", Input).value.endswith(", ES")
    second = make_app()
    async with second.run_test(size=SIZE) as pilot:
        await search(pilot, "Cordoba")
        assert [str(x).split(",")[-1].strip() for x in sent_locations(second)] == ["ES"]
        assert second.client is not None and second.client.ledger.session_records[-1].status


def test_an_unreadable_choices_file_is_started_afresh(tmp_path: Any) -> None:
    path = tmp_path / "place-choices.json"
    path.write_text("{not json", encoding="utf-8")
    choices = PlaceChoices(path)
    assert choices.preferred("Valencia") is None
    chosen = choices.next_place("Valencia")
    assert chosen is not None and chosen.country_code == "ES"
    assert PlaceChoices(path).preferred("valencia") == chosen
    assert oct(path.stat().st_mode & 0o777) == "0o600"


async def test_areas_without_a_place_box_do_not_offer_other_place(make_app: MakeApp) -> None:
    for mode in ("settings", "activity", "catalog", "usage"):
        app = make_app(initial_mode=mode)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert "Other place" not in footer_text(app), mode


async def test_a_town_typed_with_its_state_is_that_town_and_namesakes_show_their_states(
    make_app: MakeApp,
) -> None:
    """Issue 36: "Springfield, Illinois" is Springfield, Illinois (not the largest
    Springfield, in Missouri); a plain "Springfield" lists the others with their states,
    and Ctrl+O writes one that names a single place."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        box.value = "Springfield, IL"
        await settle(pilot)
        assert "→ Springfield, Illinois, US · 39.8017, -89.6437" in visible_text(app)
        box.value = "Springfield"
        await settle(pilot)
        assert "also Springfield, Massachusetts, US, Springfield, Illinois, US" in \
            visible_text(app)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert box.value == "Springfield, Massachusetts, US"
        assert "→ Springfield, Massachusetts, US · 42.1" in visible_text(app)
