"""Nothing spends by accident (issue 23): one test per reproduced failure, in the explorer.

Each drives the explorer as a person did when the failure was found: a held key, a
word typed at the map, a click on a row, an offline button, a place that does not
exist, an expired entry, a screen closed while its footer updated.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants import RestaurantScreen
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.widgets.footer import Footer
from creditscope.tui.widgets.price_button import PriceButton
from pilot_support import settle

from .conftest import SIZE
from .screen_text import footer_text, visible_text
from .test_restaurants_screens import open_row, search, spent
from .test_worker_failures import press_a_broken_key

MakeApp = Callable[..., CreditscopeApp]
AUTO_REPEAT = 0.03  # seconds between a held key's repeats


async def burst(pilot: Pilot[Any], key: str, times: int = 10) -> None:
    """``key`` held down: ``times`` presses ``AUTO_REPEAT`` apart."""
    for _ in range(times):
        await pilot.press(key)
        await asyncio.sleep(AUTO_REPEAT)


async def events_search(pilot: Pilot[Any], place: str = "Lisbon") -> None:
    app: Any = pilot.app
    await settle(pilot)
    box = app.screen.query_one("#events-location", Input)
    box.focus()
    box.value = place
    await pilot.press("enter")
    await settle(pilot)


def charged(app: CreditscopeApp, operation: str) -> int:
    """How many calls of ``operation`` were charged this session."""
    assert app.client is not None
    return sum(1 for r in app.client.ledger.session_records
               if r.operation == operation and r.credits_charged)


# --- held and repeated keys ---------------------------------------------------------


async def test_a_held_refresh_key_after_a_search_spends_nothing_until_pressed_again(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await events_search(pilot)
        app.screen.query_one("#events-feed").focus()
        before = spent(app)
        await asyncio.sleep(0.8)  # a moment after the search, the refresh key is held
        await burst(pilot, "ctrl+r")
        await settle(pilot)
        assert spent(app) == before, "ten repeats of a refresh right after the search"
        assert "Press again" in visible_text(app)
        await asyncio.sleep(0.8)  # let go, then one deliberate press
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert charged(app, "ticketing/discovery") == 2  # the search and one refresh


async def test_holding_recheck_on_an_old_cached_lookup_spends_once(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("company")
        await settle(pilot)
        app.screen.query_one("#name", Input).value = "Northwind Labs Ltd"
        app.screen.query_one("#name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        # The lookup was fetched long ago (as far as the guard knows): a refresh is due.
        app.spend_guard.clock = lambda: 10_000.0 + asyncio.get_running_loop().time()
        app.screen.query_one("#matches").focus()
        await burst(pilot, "ctrl+r", times=30)
        await settle(pilot)
        assert charged(app, "professional_network/find_company") == 2


async def test_a_double_click_on_a_paid_button_sends_once(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#events-location", Input).value = "Porto"
        await settle(pilot)
        await pilot.click("#events-search")
        await pilot.click("#events-search")
        await settle(pilot)
        assert charged(app, "ticketing/discovery") == 1


# --- stray typing ---------------------------------------------------------------------


async def test_a_word_typed_at_the_map_goes_into_the_location_box(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await events_search(pilot)
        app.screen.query_one("#events-location", Input).value = ""
        for target in ("#events-map", "#events-feed"):
            app.screen.query_one(target).focus()
            await pilot.pause()
            before = spent(app)
            await pilot.press(*"lisbon")
            await settle(pilot)
            assert spent(app) == before
            assert app.screen.query_one("#events-location", Input).value == "lisbon"
            assert len(app.screen_stack) == 1, "no dialog opened"
            app.screen.query_one("#events-location", Input).value = ""


async def test_a_city_typed_at_once_on_a_cold_start_lands_in_the_box(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"Lisbon")
        await settle(pilot)
        assert app.screen.query_one("#events-location", Input).value == "Lisbon"
        assert len(app.screen_stack) == 1
        assert spent(app) == 0


async def test_slash_on_the_menu_tab_searches_dishes_and_buys_nothing(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 1)
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("enter")  # the menu's priced button has the cursor
        await settle(pilot)
        before = spent(app)
        await pilot.press("slash", *"ramen")
        await settle(pilot)
        assert spent(app) == before, "no reviews were bought"
        assert screen.query_one("#menu-search", Input).value == "ramen"
        assert screen.query_one("#restaurant-parts").active == "menu"


async def test_slash_on_an_unfetched_tab_goes_back_to_the_search(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        await open_row(pilot, 1)
        before = spent(app)
        await pilot.press("slash", *"ramen")
        await settle(pilot)
        assert spent(app) == before
        assert not isinstance(app.screen, RestaurantScreen)
        assert app.screen.query_one("#location", Input).value.endswith("ramen")


async def test_tab_keys_never_spend_they_offer_the_price(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 2)
        before = spent(app)
        await pilot.press("r")
        await settle(pilot)
        assert spent(app) == before
        button = screen.query_one("#reviews-load", PriceButton)
        assert str(button.label) == "Show reviews · 3 cr" and button.has_focus
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app, "restaurants/reviews") == 3


# --- clicks and buttons show their price first ---------------------------------------


async def test_one_click_on_a_row_highlights_it_and_shows_the_price(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        table = app.screen.query_one(RestaurantResults)
        before = spent(app)
        await pilot.click(RestaurantResults, offset=(3, 4))  # the third row
        await settle(pilot)
        assert spent(app) == before and not isinstance(app.screen, RestaurantScreen)
        chosen = table.selected
        assert chosen is not None
        assert "Open · 2 cr" in footer_text(app)
        assert f"opens {chosen.name} · 2 cr" in visible_text(app)
        await pilot.click(RestaurantResults, offset=(3, 4))
        await settle(pilot)
        assert isinstance(app.screen, RestaurantScreen)
        assert spent(app) == before + 2


async def test_offline_buttons_say_they_cannot_send_and_what_online_costs(
    make_app: MakeApp,
) -> None:
    app = make_app(offline=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("company")
        await settle(pilot)
        app.screen.query_one("#name", Input).value = "Northwind Labs Ltd"
        app.screen.query_one("#name", Input).focus()
        await settle(pilot)
        label = str(app.screen.query_one("#submit", PriceButton).label)
        assert label == "Look up · offline · 10 cr online"
        await pilot.press("enter")
        await settle(pilot)
        assert "Go online · 10 cr" in visible_text(app)
        assert spent(app) == 0


# --- a search that cannot find anything ------------------------------------------------


async def test_an_unknown_place_is_refused_free_with_suggestions(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Hogwarts")
        assert spent(app) == 0
        text = visible_text(app)
        assert "No place called 'Hogwarts'" in text and "nothing was sent or charged" in text
        assert str(app.screen.query_one("#search", PriceButton).label) == \
            "Search · unknown place"
        await search(pilot, "Lisbn")
        assert "Did you mean Lisbon, PT" in visible_text(app)
        assert spent(app) == 0


# --- labels agree ------------------------------------------------------------------------


async def test_the_last_page_and_an_unknown_place_say_so_on_their_buttons(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#events-limit", Input).value = "50"
        await events_search(pilot, "Reykjavik")
        more = app.screen.query_one("#events-more", PriceButton)
        if more.disabled:  # one page only
            assert str(more.label) == "Load more · no more pages"
        app.screen.query_one("#events-location", Input).value = "Xqzzyville"
        await settle(pilot)
        assert str(app.screen.query_one("#events-search", PriceButton).label) == \
            "Search · unknown place"


async def test_an_expired_entry_is_priced_not_called_cached(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.client is not None
        app.client.ttls["ticketing/discovery"] = 0  # every answer expires at once
        await events_search(pilot)
        button = app.screen.query_one("#events-search", PriceButton)
        button.update_price()
        await settle(pilot)
        assert str(button.label) == "Search · 3 cr · expired"
        assert button.words is not None and button.words.cost == 3


# --- no crash loses the session ----------------------------------------------------------


async def test_closing_a_screen_while_its_footer_updates_does_not_crash(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 0)
        footer = screen.query_one(Footer)
        await pilot.press("m")
        await pilot.press("escape")
        await pilot.press("4")
        footer.bindings_changed(screen)  # the screen's last bindings change, after it went
        await settle(pilot)
        assert app.is_running and app.return_code is None


@pytest.mark.widget_errors
async def test_a_widget_that_raises_is_reported_and_the_session_goes_on(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        kept = spent(app)
        await press_a_broken_key(pilot)
        assert app.is_running
        assert "Something went wrong" in visible_text(app)
        assert spent(app) == kept
        await app.switch_mode("activity")
        await settle(pilot)
        assert app.client is not None and app.client.ledger.session_records
