"""The one Textual patch (creditscope.tui.textual_patch): still needed, still safe."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from textual.css.stylesheet import Stylesheet

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.textual_patch import CHECKED_TEXTUAL, applies, installed_textual
from creditscope.tui.widgets.app_header import AppHeader
from pilot_support import settle

SIZE = (120, 36)


@pytest.fixture
def reparses(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times every stylesheet was re-parsed from scratch."""
    counted: list[int] = []
    original = Stylesheet.reparse

    def reparse(self: Stylesheet) -> None:
        counted.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", reparse)
    yield counted


def test_checked_against_the_installed_textual() -> None:
    # Fails on a Textual upgrade: re-read App._init_mode and App.switch_mode, then
    # move CHECKED_TEXTUAL, or delete the patch if new screens no longer refresh the CSS.
    assert applies(), f"textual_patch was checked against Textual {CHECKED_TEXTUAL} only"


def test_the_installed_version_is_the_one_importlib_metadata_reads() -> None:
    # installed_textual reads the .dist-info folder's name to spare the first frame
    # importlib.metadata; it must say what importlib.metadata says.
    from importlib.metadata import version

    assert installed_textual() == version("textual")


async def test_first_visits_do_not_reparse_the_stylesheets(
    make_app: Callable[..., CreditscopeApp], reparses: list[int]
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for mode in ("company", "restaurants", "catalog", "activity", "settings"):
            await app.switch_mode(mode)
            await settle(pilot)
            assert app.screen.query_one(AppHeader).region.height == 1  # styled
    assert reparses == []


async def test_an_area_first_opened_after_a_theme_change_has_the_new_theme(
    make_app: Callable[..., CreditscopeApp]
) -> None:
    app = make_app(theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dark = app.screen.query_one(AppHeader).styles.background
        app.theme = "textual-light"
        await settle(pilot)
        light = app.screen.query_one(AppHeader).styles.background
        await app.switch_mode("catalog")
        await settle(pilot)
        assert light != dark
        assert app.screen.query_one(AppHeader).styles.background == light


async def test_style_caches_of_removed_widgets_are_let_go(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    """Textual's StylesCache.get_inner_outer cache keeps every widget's rendered lines
    (textual#6665) unless the patch caches by colour; restaurants opened and closed
    must not leave their style caches behind."""
    import gc

    from textual._styles_cache import StylesCache

    def live_style_caches() -> int:
        gc.collect()
        return sum(1 for thing in gc.get_objects() if isinstance(thing, StylesCache))

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await app.switch_mode("restaurants")
        await settle(pilot)
        screen = app.screen
        screen.query_one("#location").value = "Lisbon"
        screen.query_one("#location").focus()
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("enter")  # open the first restaurant
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        app.idle_collector.stop()  # counted by CPython's collection, nothing set aside
        baseline = live_style_caches()
        for _ in range(3):
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        assert live_style_caches() <= baseline + 5


async def test_the_notifications_on_screen_are_read_on_this_textual_only() -> None:
    from textual.app import App

    import textual_internals

    app: App[None] = App()
    async with app.run_test() as pilot:
        app.notify("kept", title="Saved", severity="warning")
        await pilot.pause()
        shown = textual_internals.shown_notifications(app)
        assert [(n.title, n.message, n.severity) for n in shown] == [("Saved", "kept", "warning")]


async def test_a_key_is_delivered_and_its_frame_drawn_at_once_on_this_textual_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Input

    import textual_internals

    class OneBox(App[None]):
        def compose(self) -> ComposeResult:
            yield Input(id="box")

    app = OneBox()
    async with app.run_test() as pilot:
        app.query_one(Input).focus()
        await pilot.pause()
        textual_internals.deliver_key_now(app, "x")  # as the terminal would, no Pilot wait
        for _ in range(50):
            if app.query_one(Input).value == "x":
                break
            await pilot.pause(0.01)
        assert app.query_one(Input).value == "x"
        textual_internals.draw_frame_now(app.screen)
        monkeypatch.setattr(textual_internals, "applies", lambda: False)
        with pytest.raises(RuntimeError, match="checked against Textual"):
            textual_internals.deliver_key_now(app, "y")
        with pytest.raises(RuntimeError, match="checked against Textual"):
            textual_internals.draw_frame_now(app.screen)


async def test_a_new_area_is_not_restyled_whole_until_it_comes_back(
    make_app: Callable[..., CreditscopeApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """7.: a new screen was styled as it mounted; its first resumes (two, from
    App._init_mode and App.switch_mode) skip the whole-screen restyle, and its first
    resize finds its size classes already set (fit_new_screen). Back from another area,
    it is restyled as Textual intends."""
    from textual.dom import DOMNode
    from textual.screen import Screen

    restyled: list[str] = []
    original = DOMNode.update_node_styles

    def update_node_styles(self: DOMNode, animate: bool = True) -> None:
        if isinstance(self, Screen):
            restyled.append(type(self).__name__)
        original(self, animate)

    monkeypatch.setattr(DOMNode, "update_node_styles", update_node_styles)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.switch_mode("company")
        await settle(pilot)
        assert "EventsScreen" not in restyled and "CompanyScreen" not in restyled
        assert {"-medium", "-medium-height"} <= app.screen.classes
        await app.switch_mode("events")
        await settle(pilot)
        assert restyled.count("EventsScreen") == 1  # back: its resume restyles it


@pytest.mark.parametrize("size", [(80, 24), (120, 36), (170, 50)])
async def test_new_screens_get_the_size_classes_textual_gives_them(
    make_app: Callable[..., CreditscopeApp], size: tuple[int, int]
) -> None:
    from creditscope.tui.screens.base import AreaScreen

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        preset = AreaScreen()
        app.fit_new_screen(preset)
        sizes = {"-narrow", "-medium", "-wide", "-short", "-medium-height", "-tall"}
        assert preset.classes & sizes == app.screen.classes & sizes
        assert len(preset.classes & sizes) == 2


async def test_work_after_the_first_frame_waits_for_it_and_the_frame_is_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """8.: after_first_frame runs once a frame is drawn outside Textual's start-up batch,
    and that frame is whole (a LayoutUpdate) though frames made in the batch were dropped."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from creditscope.tui import textual_patch

    drawn: list[tuple[int, str]] = []
    original = App._display

    def display(self: App[None], screen: object, renderable: object) -> None:
        if renderable is not None:
            drawn.append((self._batch_count, type(renderable).__name__))
        original(self, screen, renderable)  # type: ignore[arg-type]

    monkeypatch.setattr(App, "_display", display)
    seen: list[bool] = []

    class Hooked(App[None]):
        def __init__(self) -> None:
            super().__init__()
            textual_patch.patch_app(self, lambda where, error: None)

        def compose(self) -> ComposeResult:
            yield Static("hello")

        def on_mount(self) -> None:
            textual_patch.after_first_frame(
                self, lambda: seen.append(textual_patch._first_frames[self].drawn))

    app = Hooked()
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.pause()
        assert seen == [True]
        first_outside = next(kind for batch, kind in drawn if not batch)
        assert first_outside == "LayoutUpdate"
        textual_patch.after_first_frame(app, lambda: seen.append(False))  # later: runs too
        await pilot.pause()
        await pilot.pause()
        assert seen == [True, False]


def test_escape_then_a_digit_is_read_as_alt_digit_not_an_option_character() -> None:
    # Textual reads ESC 3 as WezTerm's Option+3 ("£"); patched, the parser gives Alt+3,
    # which the explorer reads as Escape, then 3 (tui/key_order.py).
    from textual._xterm_parser import XTermParser

    from creditscope.tui.key_order import typed_keys
    from creditscope.tui.textual_patch import read_escape_then_key

    assert read_escape_then_key()
    parser = XTermParser()
    keys = [*parser.feed("\x1b3"), *parser.feed("")]  # "" ends the input: no more sequence
    assert [(k.key, k.character) for k in keys] == [("alt+3", "3")]
    assert [k.key for k in typed_keys(keys[0])] == ["escape", "3"]


def test_textual_and_rich_strip_every_hidden_character_once_extended() -> None:
    from rich.text import Text
    from textual.content import Content

    from creditscope.tui.textual_patch import strip_hidden_when_drawn

    assert strip_hidden_when_drawn()  # both tables found (item 12)
    hostile = "a\x1b]0;t\x07b\x9b\u202e\u200bc\nd\te"
    assert Text(hostile).plain == Content(hostile).plain == "a]0;tbc\nd\te"


async def test_a_toast_is_withdrawn_through_the_patch() -> None:
    from textual.app import App
    from textual.notifications import Notification, Notify

    import textual_internals
    from creditscope.tui import textual_patch

    app: App[None] = App()
    async with app.run_test() as pilot:
        copied, kept = Notification("url", "Copied"), Notification("disk full", "Error")
        for notification in (copied, kept):
            app.post_message(Notify(notification))
        await pilot.pause()
        textual_patch.withdraw_notification(app, copied)  # item 15
        await pilot.pause()
        assert [n.title for n in textual_internals.shown_notifications(app)] == ["Error"]


def test_a_drawn_line_makes_its_caches_only_when_used_and_draws_the_same() -> None:
    # Each Strip made seven tracked caches at once: 84,000+ of the objects a full garbage
    # collection walked after a journey (item 16). Made on use, a line costs one object.
    import gc

    from rich.segment import Segment
    from rich.style import Style
    from textual.strip import Strip

    from creditscope.tui.textual_patch import strip_caches_on_first_use

    assert strip_caches_on_first_use()
    line = Strip([Segment("Tzatziki ", Style(bold=True)), Segment("€4.50")])
    tracked = gc.get_referents(line)
    assert not [thing for thing in tracked if type(thing).__name__ == "FIFOCache"]
    cropped = line.crop(2, 12)
    assert cropped.text == "atziki €4." and line.crop(2, 12) is cropped  # cached once used
    assert [s.text for s in line.divide([4, 9, 14])] == ["Tzat", "ziki ", "€4.50"]
    assert line.apply_style(Style(italic=True)).text == line.text
    assert line.adjust_cell_length(20).cell_length == 20
    with pytest.raises(AttributeError):
        line.not_a_cache  # noqa: B018 - any other missing name is still missing
