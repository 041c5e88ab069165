"""Every size: what the explorer draws at the classic 80x24 is whole, and a wide 200x55
terminal gives its extra columns to content. Read from the rendered screen, cell by cell
(:func:`tests.tui.screen_text.screen_rows`), as a person would read it."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.restaurants.results_table import RestaurantResults
from pilot_support import settle

from .areas import SIZES, events, type_and_enter
from .areas import _open as _open_area
from .screen_text import screen_rows
from .test_restaurants_screens import open_row, search

MakeApp = Callable[..., CreditscopeApp]


async def test_wide_restaurant_results_show_each_address(make_app: MakeApp) -> None:
    # At 200 columns the seven columns used 85: the rest was empty while each street
    # needed the restaurant's page (2 cr) to be read.
    app = make_app()
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        await search(pilot)
        table = app.screen.query_one(RestaurantResults)
        rows = screen_rows(app)
        assert any("Address" in row for row in rows)
        for restaurant in table.results:
            assert restaurant.address
            line = next(row for row in rows if restaurant.name in row and " km " in row)
            assert restaurant.address in line


@pytest.mark.parametrize("location", ["Lisbon", "Mumbai"])  # "The Jasmine Curry House"
async def test_narrow_restaurant_results_keep_every_column_whole(
    make_app: MakeApp, location: str
) -> None:
    # With the scrollbar a long list brings, the last heading read "Open n"; a long
    # name pushed the columns after it further off.
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await search(pilot, location)
        table = app.screen.query_one(RestaurantResults)
        header = next(row for row in screen_rows(app) if "Name" in row and "Cuisine" in row)
        assert re.search(r"Distance\s+Open\b", header), header
        assert "Address" not in header
        # Every column inside the table's width beside the scrollbar (drawn when the list
        # is longer than the screen): nothing is cut.
        assert table.virtual_size.width <= table.size.width - table.styles.scrollbar_size_vertical


async def test_a_wide_menu_keeps_each_price_near_its_dish(make_app: MakeApp) -> None:
    # At 200 columns a price sat 190 columns to the right of its dish.
    app = make_app()
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        await search(pilot)
        screen = await open_row(pilot, 0)
        await pilot.press("m", "enter")
        await settle(pilot)
        menu = screen.query_one("MenuView")
        dish = menu.menu.sections[0].items[0]  # type: ignore[attr-defined]
        line = next(row for row in screen_rows(app) if dish.name in row)
        price = re.search(r"[€$£]\s?\d[\d.,]*|\d[\d.,]*\s?[€$£]", line[line.index(dish.name):])
        assert price is not None, line
        gap = price.start()
        assert gap <= 100, f"the price is {gap} columns from its dish: {line.strip()!r}"


async def _activity_with_a_lookup(pilot: Pilot[Any]) -> list[str]:
    app: Any = pilot.app
    client = await app.wait_for_client()
    await client.call("professional_network/find_company", {"name": "Northwind Labs"})
    await client.call("ticketing/discovery", {"lat": 38.7, "lng": -9.1})
    await app.switch_mode("activity")
    await settle(pilot)
    return screen_rows(app)


async def test_activity_at_80x24_shows_every_latency_whole(make_app: MakeApp) -> None:
    # The longest operation name pushed Latency off the edge ("71 m").
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        rows = await _activity_with_a_lookup(pilot)
    header = next(row for row in rows if "Operation" in row)
    assert "Latency" in header
    calls = [row for row in rows if "12:30:00" in row]
    assert len(calls) == 2
    for row in calls:
        assert re.search(r"\b42 ms\b", row), row
    assert any("…/find_company" in row for row in calls)


async def test_activity_at_80x24_shows_more_than_three_lines_of_a_body(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        rows = await _activity_with_a_lookup(pilot)
    title = next(index for index, row in enumerate(rows) if "Body" in row)
    bottom = next(index for index in range(title, len(rows)) if "╰" in rows[index])
    body = [row for row in rows[title + 1:bottom] if row.strip(" │")]
    assert len(body) >= 6, "\n".join(rows[title:bottom])


async def test_company_at_80x24_shows_why_each_match_was_graded(make_app: MakeApp) -> None:
    # The Why column was cut to "Wh", its reasons to "name" or "page lis".
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await _open_area(pilot, "company")
        app.screen.query_one("#website", Input).value = "northwind-labs.co.uk"
        await type_and_enter(pilot, "#name", "Northwind Labs")
        rows = screen_rows(app)
    at = next(index for index, row in enumerate(rows) if "Confidence" in row)
    assert re.search(r"\bWhy\b", rows[at])
    why_at = rows[at].index("Why")
    reasons = [row[why_at:].split("  ")[0] for row in rows[at + 1:at + 4]]
    assert reasons == ["same site", "other site", "other site"]


FORM_LABELS = {
    "events": ["Location", "Per page (1-50)"],
    "company": ["Company name", "Website"],
    "restaurants": ["Location", "Results (1-30)"],  # a Select's prompt is its label
}


async def test_every_area_s_form_labels_its_boxes(make_app: MakeApp) -> None:
    # One form style: Events and Company had untitled boxes ("20" alone said nothing),
    # Restaurants titled ones.
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        drawn: dict[str, str] = {}
        for area in FORM_LABELS:
            await _open_area(pilot, area)
            drawn[area] = "\n".join(screen_rows(app)[:8])
    for area, labels in FORM_LABELS.items():
        for label in labels:
            assert f"▔ {label} ▔" in drawn[area], f"{area} has no {label!r}:\n{drawn[area]}"


DIALOG_LABELS: dict[str, list[str]] = {
    "provider form": ["App or site name (required)", "Its web address (optional)",
                      "Your e-mail, to hear when it ships (optional)"],
    "save file": ["Path (relative to the current directory)"],
    "import request (send)": ["Request or HAR file path"],
}


@pytest.mark.parametrize("size", ["80x24", "120x36"])
async def test_dialog_forms_title_their_boxes_as_the_areas_do(
    make_app: MakeApp, size: str
) -> None:
    # The provider form and the save dialog put a label line over an untitled box (one
    # line high at 80x24), where every area titles its boxes.
    from .areas import DIALOGS, _close_dialog

    app = make_app()
    drawn: dict[str, str] = {}
    async with app.run_test(size=SIZES[size]) as pilot:
        for name in DIALOG_LABELS:
            await _close_dialog(pilot)
            await DIALOGS[name](pilot)
            drawn[name] = "\n".join(screen_rows(app))
    for name, labels in DIALOG_LABELS.items():
        for label in labels:
            assert f"▔ {label} ▔" in drawn[name], f"{name} has no {label!r}:\n{drawn[name]}"


async def test_at_80x24_the_events_number_says_what_it_counts(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await _open_area(pilot, "events")
        form = screen_rows(app)[3]
    assert re.search(r"\b20\s+per page\b", form), form
    assert "City or lat, lng" in form  # the location's placeholder still whole


async def test_at_80x24_the_restaurant_form_is_one_line_boxes_like_the_others(
    make_app: MakeApp,
) -> None:
    # Events and Company went one line high; Restaurants kept three-row boxes, and with
    # them fewer rows of results.
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await _open_area(pilot, "restaurants")
        rows = screen_rows(app)
    form = "\n".join(rows[3:6])
    assert "▔" not in form and "▁" not in form, form
    assert "City, e.g. Lisbon" in form and "Any cuisine" in form
    assert re.search(r"\b10\s+results\b", form), form  # the number says what it counts
    assert "Search · 2 cr" in form


async def test_at_80x24_close_markers_read_as_one_count(make_app: MakeApp) -> None:
    # Lisbon's venues piled up as "14+1", "2+4", "4+9": numbers glued to badges.
    from creditscope.tui.widgets.event_map import EventMap

    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await events(pilot)
        event_map = app.screen.query_one(EventMap)
        rows = [event_map.render_line(y).text for y in range(event_map.size.height - 1)]
    labels = [run for row in rows for run in re.findall(r"[0-9()+]+", row)]
    assert all(re.fullmatch(r"\d+|\(\d+\)", label) for label in labels), rows
    counted = sum(int(label.strip("()")) if label.startswith("(") else 1 for label in labels)
    assert counted == 20, rows  # every event of the page, alone or in a count


async def test_at_80x24_an_event_s_details_are_read_without_scrolling(
    make_app: MakeApp,
) -> None:
    # The panel showed When and Tickets; price, lineup and venue were below, in a
    # scroll nested in the screen.
    from textual.containers import VerticalScroll

    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await events(pilot)
        scroll = app.screen.query_one("#events-detail .detail-scroll", VerticalScroll)
        assert scroll.virtual_size.height <= scroll.scrollable_content_region.height
        panel = "\n".join(row[32:] for row in screen_rows(app)[8:16])
    for fact in ("When", "Tickets", "Price", "Lineup", "Venue", "Open page"):
        assert fact in panel, panel


async def test_a_toast_never_covers_a_dialog_s_buttons(make_app: MakeApp) -> None:
    # A toast (7 s) sat on the buttons of a dialog at the bottom right of the screen.
    from textual.widgets import Button
    from textual.widgets._toast import Toast  # the widget a notification is drawn as

    from .areas import DIALOGS, _close_dialog

    app = make_app()
    covered: list[str] = []
    async with app.run_test(size=SIZES["80x24"], notifications=True) as pilot:
        for name, step in DIALOGS.items():
            await _close_dialog(pilot)
            app.clear_notifications()
            await step(pilot)
            app.notify("Saved the report to /tmp/support/report-20250314.md", timeout=7)
            await settle(pilot)
            buttons = [b.region for b in app.screen.query(Button) if b.display and b.region]
            toasts = [toast.region for toast in app.screen.query(Toast)]
            assert toasts, name
            if any(t.overlaps(b) for t in toasts for b in buttons):
                covered.append(name)
    assert not covered, f"a toast covers the buttons of: {covered}"


async def test_at_80x24_the_reviews_button_keeps_its_label_on_one_line(
    make_app: MakeApp,
) -> None:
    # Once fetched it read "Show reviews · cached ·" with "free" alone on the next line.
    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await search(pilot)
        await open_row(pilot, 0)
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("enter")  # the priced button has the cursor
        await settle(pilot)
        rows = screen_rows(app)
    assert any("Show reviews · cached · free" in row for row in rows), "\n".join(rows[:14])


@pytest.mark.parametrize("area", ["events", "restaurants", "company"])
async def test_at_80x24_an_error_s_fix_it_buttons_are_on_screen(
    make_app: MakeApp, area: str
) -> None:
    # Offline, a search not cached: "Go online · 3 cr" was below the bottom of the screen.
    from textual.widgets import Button

    from creditscope.tui.widgets.error_panel import ErrorPanel

    from .areas import AREAS

    app = make_app(offline=True)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await AREAS[area](pilot)
        panel = app.screen.query_one(ErrorPanel)
        buttons = [button for button in panel.query(Button) if button.display]
        assert buttons
        footer_top = app.size.height - 1
        rows = screen_rows(app)
        for button in buttons:
            region = button.region
            assert region.height and region.bottom <= footer_top, f"{button.label}: {region}"
            assert str(button.label) in rows[region.y + region.height // 2]


async def test_at_80x24_the_map_s_scale_and_caption_are_whole(make_app: MakeApp) -> None:
    # The centre and zoom were drawn over the scale: "├──────┤ 5 km  9.14°W ×1526".
    from .areas import events

    app = make_app()
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await events(pilot)
        drawn = app.screen.query_one("EventMap").content_region
        line = screen_rows(app)[drawn.bottom - 1][drawn.x:drawn.right]
    assert re.search(r"├─+┤ \d+ k?m ", line), line
    if "°" in line:
        assert re.search(r" \d+\.\d+°[NS] \d+\.\d+°[EW] ×\d+ ", line), line
    else:
        assert re.search(r" ×\d+ ", line), line
