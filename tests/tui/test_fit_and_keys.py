"""Usable at 80x24, priced keys, keys that would type hidden, nothing misleading."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.geometry import Region
from textual.widgets import Button, Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.calls import ResultArea
from creditscope.tui.screens.help import HelpScreen
from creditscope.tui.widgets.error_panel import ErrorPanel
from creditscope.tui.widgets.footer import Footer
from pilot_support import later, settle

from .areas import SIZES, activity, catalog, company, company_form, events, help_keys

MakeApp = Callable[..., CreditscopeApp]
SMALL = SIZES["80x24"]


def footer_keys(app: Any) -> dict[str, str]:
    """What the footer offers: key display -> description."""
    footer = app.screen.query_one(Footer)
    return {placed.key.display: placed.key.description for placed in footer.placed_keys()}


def on_screen(app: Any, widget: Any) -> bool:
    """True when the whole widget is inside the terminal and not clipped away."""
    region = widget.region
    return bool(region) and Region(0, 0, *app.size).contains_region(region)


async def test_company_form_is_readable_and_the_card_shows_its_action_at_80x24(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await company(pilot)
        screen = app.screen
        for field in ("#name", "#website"):
            assert screen.query_one(field, Input).content_region.width >= 30
        recheck = screen.query_one("#recheck", Button)
        assert recheck.display and on_screen(app, recheck)
        assert "10 cr" in str(recheck.label)


async def test_re_check_is_priced_in_the_footer_and_the_help(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await pilot.app.switch_mode("company")
        await settle(pilot)
        assert "^r" not in footer_keys(app)  # nothing to re-check yet
        await company(pilot)
        assert footer_keys(app)["^r"] == "Re-check · 10 cr"
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        rows = dict(app.screen.sections[0].rows)
        assert rows["^r"] == "Re-check · 10 cr"


async def test_the_footer_never_offers_a_key_the_text_box_would_type(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await company_form(pilot)
        keys = footer_keys(app)
        assert "/" not in keys and "c" not in keys and "?" not in keys
        assert keys.get("f1") == "Help"  # help stays reachable
        assert app.screen.query_one("#name", Input).value == "Meridian Media"
        await pilot.press("escape")
        await settle(pilot)
        assert footer_keys(app).get("/") == "New lookup"


async def test_event_keys_say_what_their_buttons_say(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await events(pilot)
        keys = footer_keys(app)
        assert "s" not in keys and "r" not in keys and "l" not in keys  # letters never spend
        assert keys["^r"] == "Refresh · 3 cr"
        assert keys["^l"] == "Load more · 3 cr"


async def test_at_80x24_the_event_actions_fit_and_the_free_keys_follow_the_prices(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await events(pilot)
        panel = app.screen.query_one("#events-detail").content_region
        for button in app.screen.query(".detail-actions Button").results(Button):
            assert panel.contains_region(button.region), str(button.label)
        keys = footer_keys(app)
        assert keys["^r"] == "Refresh·3 cr"
        assert keys["^l"] == "Load more·3 cr"
        shown = app.screen.query_one(Footer).placed_keys()
        free_in_view = [placed for placed in shown if placed.key.display not in ("^r", "^l")
                        and placed.width and placed.end <= SMALL[0]]
        assert free_in_view, "no free key is left in view"
        await pilot.resize_terminal(*SIZES["120x36"])
        await settle(pilot)
        assert footer_keys(app)["^l"] == "Load more · 3 cr"


async def test_the_event_column_uses_a_wide_terminal(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await events(pilot)
        feed = app.screen.query_one("#events-feed")
        normal = feed.columns[next(key for key in feed.columns if key.value == "name")].width
        feed.move_cursor(row=4)
        await pilot.resize_terminal(*SIZES["200x55"])
        await settle(pilot)
        wide = feed.columns[next(key for key in feed.columns if key.value == "name")].width
        assert wide >= normal + 20
        assert feed.highlighted_number == 5  # the reader's place is kept
        assert len(feed.events) == feed.row_count


async def test_the_location_placeholder_is_never_cut(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        box = app.screen.query_one("#events-location", Input)
        assert len(box.placeholder) < box.content_region.width, box.placeholder
        await pilot.resize_terminal(*SIZES["200x55"])
        await settle(pilot)
        assert "38.72, -9.14" in box.placeholder  # the examples, where they fit


async def test_at_80x24_the_feed_leaves_out_the_columns_it_would_cut(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await events(pilot)
        feed = app.screen.query_one("#events-feed")
        shown = [key.value for key in feed.columns]
        assert shown == ["number", "date", "name", "price", "status"]  # no "V" of Venue
        assert feed.virtual_size.width <= feed.size.width  # nothing hides off to the right
        await pilot.resize_terminal(*SIZES["120x36"])
        await settle(pilot)
        assert "venue" in [key.value for key in feed.columns]
        assert feed.virtual_size.width <= feed.size.width


async def test_catalog_descriptions_fill_a_wide_terminal_and_move_below_on_a_narrow_one(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZES["200x55"]) as pilot:
        await catalog(pilot)
        table = app.screen.query_one("#catalog-table")
        assert [key.value for key in table.columns][-1] == "description"
        assert on_screen(app, table)
        text = " ".join(str(cell) for cell in table.get_row_at(1))
        assert "grades the candidates" in text  # the whole description, not cut
        table.move_cursor(row=2)
        await pilot.resize_terminal(*SMALL)
        await settle(pilot)
        assert "description" not in [key.value for key in table.columns]
        assert table.virtual_size.width <= table.size.width  # nothing hides off to the right
        assert table.cursor_row == 2
        detail = str(app.screen.query_one("#catalog-detail").render())
        assert "/restaurants/search" in detail and "Restaurants near a location" in detail


async def test_activity_zooms_the_body_at_80x24(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await activity(pilot)
        body = app.screen.query_one("#response-json")
        before = body.region.height
        await pilot.press("z")
        await settle(pilot)
        assert app.screen.maximized is body
        assert body.region.height > before + 8
        assert footer_keys(app)["^r"] == "Replay·2 cr"  # tight wording at 80 columns
        await pilot.press("z")
        await settle(pilot)
        assert app.screen.maximized is None


async def test_help_fits_inside_the_terminal_at_80x24(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await help_keys(pilot)
        dialog = app.screen.query_one(".help-dialog")
        assert on_screen(app, dialog)


async def test_declining_an_over_budget_refresh_keeps_the_feed(make_app: MakeApp) -> None:
    app = make_app(budget=5)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await events(pilot)  # 3 cr of the 5
        screen: Any = app.screen
        shown = len(screen.feed_table.events)
        assert shown == 20
        later(app)
        await pilot.press("ctrl+r")  # another 3 cr would pass the budget: asks first
        await settle(pilot)
        assert "budget" in str(app.screen.query_one(".dialog-text").render())
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is screen
        assert len(screen.feed_table.events) == shown and screen.feed_table.display
        assert not screen.query_one("#events-results", ResultArea).query_one(ErrorPanel).display
        hint = str(screen.query_one("#events-hint").render()).lower()
        assert "not sent" in hint and "failed" not in hint
        assert app.credits.spent == 3


async def test_every_save_dialog_suggests_a_file_name(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await activity(pilot)
        await pilot.press("ctrl+s")  # Save JSON
        await settle(pilot)
        assert app.screen.query_one("#save-path", Input).value.endswith(".json")
        await pilot.press("escape")
        await company(pilot)
        await pilot.press("e")  # Export matches
        await settle(pilot)
        assert app.screen.query_one("#save-path", Input).value == "meridian-media-matches.json"


async def test_the_footer_shows_whole_keys_and_nothing_after_the_palette_key(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    # At 80 columns Events has more keys than fit: those shown are whole, none reaches under
    # the palette key, and the palette key ends at the last column (it left one open, where
    # a letter of the key under it showed: "^p palettea").
    async with make_app().run_test(size=SMALL) as pilot:
        await events(pilot)
        keys = pilot.app.screen.query_one(Footer).placed_keys()
        palette = next(placed for placed in keys if placed.key.palette)
        assert palette.end == SMALL[0]
        assert all(placed.end <= palette.x for placed in keys if placed is not palette)
        assert len(keys) >= 4  # the priced keys and the sorts still fit
