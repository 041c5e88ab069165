"""`e` exports the list on screen, as shown, to CSV or JSON: the events feed, the
restaurant results, a restaurant's overview, menu and reviews. Free: nothing is fetched."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Label, Select, Tabs

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.events import EventsScreen
from creditscope.tui.screens.help import binding_rows
from creditscope.tui.screens.restaurants import RestaurantScreen
from creditscope.tui.screens.restaurants.formatting import title_case
from creditscope.tui.screens.restaurants.menu_view import MenuView, filter_menu
from creditscope.tui.screens.restaurants.overview import OverviewView
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from creditscope.tui.screens.restaurants.reviews_view import ReviewsView
from creditscope.tui.screens.save_file import SaveFileDialog
from pilot_support import later, open_with_letter, settle
from textual_internals import shown_notifications

from .conftest import SIZE
from .screen_text import footer_text
from .test_events_screen import search as search_events
from .test_restaurants_screens import open_row
from .test_restaurants_screens import search as search_restaurants

MakeApp = Callable[..., CreditscopeApp]


@pytest.fixture
def app(make_app: MakeApp) -> CreditscopeApp:
    """An explorer on the sandbox, not started yet."""
    return make_app()


def spent(app: CreditscopeApp) -> tuple[int, int]:
    """(credits spent, calls recorded) this session."""
    assert app.client is not None
    return app.client.ledger.session_spent(), len(app.client.ledger.session_records)


def notes(app: CreditscopeApp) -> list[str]:
    return [f"{note.title}: {note.message}" for note in shown_notifications(app)]


async def export_to(pilot: Pilot[Any], path: Path) -> tuple[str, str]:
    """Press `e`, read the dialog's title and offered name, save to ``path``."""
    await open_with_letter(pilot, "e")
    dialog = pilot.app.screen
    assert isinstance(dialog, SaveFileDialog), notes(pilot.app)  # type: ignore[arg-type]
    title = str(dialog.query_one(".dialog-title", Label).render())
    box = dialog.query_one("#save-path", Input)
    offered = box.value
    box.value = str(path)
    await pilot.press("enter")
    await settle(pilot)
    return title, offered


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def shows_export_key(app: CreditscopeApp, binding_id: str) -> bool:
    """The key is in the footer and in help, with its description."""
    local, _ = binding_rows(app.screen)
    in_help = ("e", "Export", (binding_id,)) in [row[:3] for row in local]
    return in_help and "e Export" in footer_text(app)


async def test_the_feed_exports_every_event_as_shown(app: CreditscopeApp, tmp_path: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, EventsScreen)
        await pilot.press("escape", "e")  # out of the location box; nothing searched yet
        await settle(pilot)
        assert not isinstance(app.screen, SaveFileDialog)
        assert "Export: Nothing to export yet: search a place first." in notes(app)

        screen = await search_events(pilot, "Lisbon", limit="5")
        later(app, 1.0)
        await pilot.click("#events-more")  # a second page: the export has both
        await settle(pilot)
        table = screen.feed_table
        assert len(table.events) == 10
        table.focus()
        await pilot.press("s", "s")  # date, then price: exported in that order
        await settle(pilot)
        assert shows_export_key(app, "events.export")
        shown = [int(str(table.get_row_at(row)[0])) for row in range(table.row_count)]
        assert shown != sorted(shown)
        before = spent(app)

        title, offered = await export_to(pilot, tmp_path / "feed.json")
        assert title == "Export 10 events (a .csv name writes CSV, otherwise JSON)"
        assert offered == "events-lisbon.json"
        await export_to(pilot, tmp_path / "feed.csv")

        exported = json.loads((tmp_path / "feed.json").read_text())
        assert [row["number"] for row in exported] == shown
        for row in exported:
            event = table.events[row["number"] - 1]
            assert row == {"number": row["number"], **event.model_dump(mode="json")}
        rows = read_csv(tmp_path / "feed.csv")
        assert [int(row["number"]) for row in rows] == shown
        for row in rows:
            event = table.events[int(row["number"]) - 1]
            assert row["id"] == event.id and row["name"] == event.name
            assert event.venue is not None and row["venue.name"] == event.venue.name
            assert event.price is not None and row["price.currency"] == (event.price.currency or "")
            assert row["lineup"] == "; ".join(event.lineup)
        assert spent(app) == before  # nothing fetched, nothing charged
        assert "Exported: 10 events as CSV to " + str(tmp_path / "feed.csv") in notes(app)

        await search_events(pilot, "Lisbon", limit="1")
        screen.feed_table.focus()
        title, _ = await export_to(pilot, tmp_path / "one.json")
        assert title.startswith("Export 1 event (")
        assert len(json.loads((tmp_path / "one.json").read_text())) == 1
    exported = sorted(path.name for path in tmp_path.iterdir() if path.suffix)
    assert exported == ["feed.csv", "feed.json", "one.json"]


async def test_restaurant_results_export_as_sorted(app: CreditscopeApp, tmp_path: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await search_restaurants(pilot)
        table = app.screen.query_one(RestaurantResults)
        table.focus()
        await pilot.press("s", "s", "s")  # name, cuisine, then rating (best first)
        await settle(pilot)
        assert table.sort_column == "rating"
        assert shows_export_key(app, "restaurants.export")
        order = [str(row.key.value) for row in table.ordered_rows]
        before = spent(app)

        title, offered = await export_to(pilot, tmp_path / "results.csv")
        assert title == "Export 10 restaurants (a .csv name writes CSV, otherwise JSON)"
        assert offered == "restaurants-lisbon.csv"
        await export_to(pilot, tmp_path / "results.json")

        by_id = {restaurant.id: restaurant for restaurant in table.results}
        rows = read_csv(tmp_path / "results.csv")
        assert [row["id"] for row in rows] == order
        for row in rows:
            restaurant = by_id[row["id"]]
            assert row["name"] == restaurant.name and row["cuisine"] == restaurant.cuisine
            assert row["rating"] == str(restaurant.rating)
            assert row["open_now"] == {True: "true", False: "false", None: ""}[restaurant.open_now]
        exported = json.loads((tmp_path / "results.json").read_text())
        assert exported == [by_id[key].model_dump(mode="json") for key in order]
        assert spent(app) == before


async def test_no_restaurants_shown_exports_nothing(app: CreditscopeApp, tmp_path: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await app.switch_mode("restaurants")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert "Export: Nothing to export yet: search a place first." in notes(app)
        await search_restaurants(pilot)
        before = spent(app)
        await search_restaurants(pilot, "Narnia")  # an unknown place: refused, free
        await pilot.press("escape", "e")  # the Lisbon rows are hidden: not what is shown
        await settle(pilot)
        assert not isinstance(app.screen, SaveFileDialog)
        assert "Export: Nothing to export yet: the results show no restaurants." in notes(app)
        assert spent(app) == before
    assert list(tmp_path.glob("*.csv")) == list(tmp_path.glob("*.json")) == []


async def test_a_restaurant_exports_its_active_tab(app: CreditscopeApp, tmp_path: Path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await search_restaurants(pilot)
        screen = await open_row(pilot, 0)
        rid = screen.restaurant_id
        assert shows_export_key(app, "restaurants.export_tab")

        # The overview: one record, nested fields flattened.
        details = screen.query_one(OverviewView).details
        assert details is not None
        before = spent(app)
        title, offered = await export_to(pilot, tmp_path / "overview.csv")
        assert title.startswith("Export 1 restaurant overview (")
        assert offered == f"restaurant-{rid}.json"
        await export_to(pilot, tmp_path / "overview.json")
        [row] = read_csv(tmp_path / "overview.csv")
        assert row["id"] == rid and row["name"] == details.name
        assert details.coordinates is not None
        assert row["coordinates.lat"] == str(details.coordinates.lat)
        assert row["features"] == "; ".join(details.features)
        assert all(row[f"hours.{day}"] == hours for day, hours in details.hours.items())
        assert json.loads((tmp_path / "overview.json").read_text()) == [
            details.model_dump(mode="json")
        ]
        assert spent(app) == before

        # The menu: nothing before it is fetched; then the dishes as filtered on screen.
        await pilot.press("m")
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert "Export: Nothing to export yet: the Menu tab is not fetched yet." in notes(app)
        await pilot.press("enter")  # the priced button: 5 cr
        await settle(pilot)
        view = screen.query_one(MenuView)
        menu = view.menu
        assert menu is not None
        total = sum(len(section.items) for section in menu.sections)
        screen.query_one(Tabs).focus()
        before = spent(app)
        title, offered = await export_to(pilot, tmp_path / "menu.json")
        assert title == (f"Export {total} dishes of the whole menu "
                         "(a .csv name writes CSV, otherwise JSON)")
        assert offered == f"menu-{rid}.json"
        assert len(json.loads((tmp_path / "menu.json").read_text())) == total

        diet = screen.query_one("#menu-diet", Select)
        tag = sorted({tag for s in menu.sections for item in s.items for tag in item.dietary})[0]
        diet.value = tag
        await settle(pilot)
        screen.query_one(Tabs).focus()
        kept = [(s.name, item) for s in filter_menu(menu, "", tag) for item in s.items]
        assert 0 < len(kept) < total
        title, _ = await export_to(pilot, tmp_path / "menu.csv")
        assert f"dishes of the menu, as filtered: {title_case(tag)} (a .csv" in title
        rows = read_csv(tmp_path / "menu.csv")
        assert [(row["section"], row["name"]) for row in rows] == [
            (section, item.name) for section, item in kept
        ]
        assert all(tag in row["dietary"].split("; ") for row in rows)
        assert {row["currency"] for row in rows} == {menu.currency}
        assert all(row["popular"] in ("true", "false") for row in rows)

        screen.query_one("#menu-search", Input).value = "no dish is called this"
        await settle(pilot)
        screen.query_one(Tabs).focus()
        await pilot.press("e")
        await settle(pilot)
        assert "Export: Nothing to export yet: no dishes match the search and diet." in notes(app)
        assert spent(app) == before

        # The reviews shown.
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")  # 3 cr
        await settle(pilot)
        reviews = screen.query_one(ReviewsView).reviews
        assert reviews is not None and len(reviews.reviews) == 10
        screen.query_one(Tabs).focus()
        before = spent(app)
        title, offered = await export_to(pilot, tmp_path / "reviews.csv")
        assert title.startswith(f"Export 10 reviews (of {reviews.total:,} reviews in all)")
        assert offered == f"reviews-{rid}.json"
        await export_to(pilot, tmp_path / "reviews.json")
        rows = read_csv(tmp_path / "reviews.csv")
        assert [row["id"] for row in rows] == [review.id for review in reviews.reviews]
        assert [row["rating"] for row in rows] == [str(r.rating) for r in reviews.reviews]
        assert json.loads((tmp_path / "reviews.json").read_text()) == [
            review.model_dump(mode="json") for review in reviews.reviews
        ]
        assert spent(app) == before
        assert isinstance(app.screen, RestaurantScreen)
