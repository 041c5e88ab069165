"""The footer is one widget that repaints: a focus move mounts nothing, a click on a key's
words does what the key does, whole keys only at any width."""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget
from textual.widgets import Input

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.footer_keys import OfferedKey
from creditscope.tui.footer_layout import place_keys
from creditscope.tui.screens.help import HelpScreen
from creditscope.tui.widgets.footer import Footer
from pilot_support import settle

from .areas import company, company_form
from .conftest import SIZE
from .screen_text import footer_text

MakeApp = Callable[..., CreditscopeApp]


def footer_nodes(footer: Footer) -> list[Widget]:
    """The footer and every widget inside it."""
    return [footer, *footer.walk_children(Widget)]


async def test_a_focus_move_repaints_the_footer_and_mounts_no_widget(make_app: MakeApp) -> None:
    app = make_app(initial_mode="company")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        footer = app.screen.query_one(Footer)
        nodes = footer_nodes(footer)
        said = {footer_text(app)}
        for _ in range(6):  # name box, website box, buttons: the keys on offer change
            await pilot.press("tab")
            await settle(pilot)
            said.add(footer_text(app))
            assert footer_nodes(footer) == nodes  # the same widgets, none built or removed
            assert app.screen.query_one(Footer) is footer
        assert len(said) > 1, "no focus move changed the keys: nothing was tested"


async def test_clicking_a_keys_words_runs_what_the_key_does(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await company(pilot)
        footer = app.screen.query_one(Footer)
        placed = {key.key.description: key for key in footer.placed_keys()}
        lookup = placed["New lookup"]
        assert not isinstance(app.focused, Input)
        await pilot.click(footer, offset=(lookup.end - 2, 0))  # the "p" of "lookup"
        await settle(pilot)
        assert app.focused is app.screen.query_one("#name", Input)  # as "/" does
        help_key = next(key for key in footer.placed_keys() if key.key.key == "f1")
        await pilot.click(footer, offset=(help_key.x, 0))
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)


async def test_a_click_between_the_keys_and_the_palette_does_nothing(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await company_form(pilot)
        footer = app.screen.query_one(Footer)
        keys = footer.placed_keys()
        last_free_cell = max(key.end for key in keys if not key.key.palette)
        screen, focused = app.screen, app.focused
        await pilot.click(footer, offset=(last_free_cell + 1, 0))
        await settle(pilot)
        assert app.screen is screen and app.focused is focused


async def test_the_key_under_the_mouse_is_highlighted_alone(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await company(pilot)
        footer = app.screen.query_one(Footer)
        first, second = footer.placed_keys()[:2]
        hover = footer.get_component_rich_style("footer--hover").bgcolor

        def highlighted() -> set[int]:
            text = footer.render()
            return {x for x in range(first.x, second.end)
                    if text.get_style_at_offset(app.console, x).bgcolor == hover}

        assert not highlighted()
        await pilot.hover(footer, offset=(second.x + 1, 0))
        await settle(pilot)
        assert highlighted() == set(range(second.x, second.end))


def key(display: str, description: str, *, palette: bool = False) -> OfferedKey:
    return OfferedKey(display, display, description, f"do_{display}", palette=palette)


def test_only_whole_keys_fit_and_a_shorter_later_key_takes_the_room_left() -> None:
    keys = [key("^r", "Refresh·3 cr"), key("s", "A very long description"), key("h", "Help"),
            key("^p", "palette", palette=True)]
    placed = place_keys(keys, 40, compact=True)
    shown = [(p.key.display, p.x, p.end) for p in placed]
    # "^r Refresh·3 cr" and a gap; the long key would reach under the palette key; "h Help"
    # fits in what is left; the palette key ends at the last column.
    assert shown == [("^r", 0, 15), ("h", 16, 22), ("^p", 29, 40)]
    wide = place_keys(keys, 200, compact=False)
    assert [p.key.display for p in wide] == ["^r", "s", "h", "^p"]
    assert wide[1].x == wide[0].end  # wide keys carry their own padding, no gap
    assert wide[-1].end == 200
