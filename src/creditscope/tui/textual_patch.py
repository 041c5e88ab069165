"""The one place the explorer reaches into Textual's internals, for the pinned Textual only.

Five workarounds, each applied only to the Textual version it was read against
(1.-3., 7., 8.), two reads of what Textual does not export (4., 5.), the
benchmarks' key-to-frame timing (6.), a render cache for tables refilled with
rows they showed before (9., in ``table_cells_patch.py``), and two guards against
outside text, applied on every Textual (11., 12.).

1. Stylesheet refresh on a mode's first visit. What it works around: since Textual
0.86 (PR Textualize/textual#5211, fixing issue #5210, "refresh on mode switch"; its
description says the refresh "could be improved upon in future, by avoiding a CSS
refresh when not strictly required"), ``App._init_mode`` and ``App.switch_mode``
call ``refresh_css()`` whenever a screen's ``_css_update_count`` differs from the
app's. A screen made for a mode starts at -1, so the first visit of every area
re-parses every stylesheet from scratch and restyles the whole app, twice: ~25 ms of
the first frame and ~90 ms on each area's first visit here. A screen that is not
mounted yet is styled with the current stylesheet when it mounts, so marking it
current skips only that redundant work.

2. ``StylesCache.get_inner_outer`` is an ``lru_cache(1024)`` on an instance method
(Textual issue #6665), so it keys on, and keeps alive, up to 1024 widgets' style
caches with every line they rendered, long after the widgets are gone: ~28 MB
after ``benchmarks/memory.py``'s journey. The answer depends on the two colours
only, so :func:`cache_inner_outer_by_colour` caches by those.

3. Any exception in any handler ends a Textual app: ``App._handle_exception``
"always results in the app exiting", and the shell sees status 1 (0 under some
drivers) with the session's Activity and meter gone. :class:`SurvivesWidgetErrors`
overrides it so an exception raised in a widget's (or a screen's) own message
loop is reported instead (a notification, the log, a report file) and the app
carries on; the app's own loop, start-up and shutdown still end it as Textual
intends. Textual stops the failed widget's message loop (``break`` after the
call), so that one widget may stop answering; everything else goes on.

4. ``FooterKey`` (``textual.widgets._footer``, not exported) is what Textual's
``Footer.compose`` yields for each key. The footer (``tui/widgets/footer.py``) reads
its ``key``, ``key_display``, ``description`` and ``action`` to drop keys a text box
would type, price the ones that spend and measure what fits, and sets its
``description`` to add the price: :func:`footer_key_fields` and
:func:`price_footer_key`. On another Textual they see no keys, so the footer shows
Textual's own, unpriced and unfiltered.

5. The notifications on screen: Textual keeps them in ``App._notifications`` and
offers no public way to list them. :func:`shown_notifications` reads them, for the
tests that assert what a person was told (an empty list on any other Textual).

6. Timing a key to its frame (``benchmarks/revisit_latency.py``): Pilot's ``press``
waits for the app to settle, which hides the time being measured, so
:func:`deliver_key_now` hands a key to the driver as the terminal would
(``App._driver.send_message``) and :func:`draw_frame_now` lays out and draws the
pending frame at once (``Screen._on_timer_update``, what the refresh timer calls).
On any other Textual both refuse (RuntimeError): a benchmark must not time a
different path.

7. A new screen restyled twice before its first frame. ``App._init_mode`` posts a
``ScreenResume`` to a mode's new screen and ``App.switch_mode`` posts another, and
``Screen._on_screen_resume`` restyles the whole screen on each (``refresh_styles``),
though every widget was styled as it mounted: ~20 ms of the explorer's first frame
and of each area's first visit. The restyle is there for a screen coming back after
being away (the theme or its classes may have changed meanwhile), so
:class:`StyledOnMount` skips it only until the screen is first suspended.

8. Work to do once the first frame is on the terminal. Textual's ``call_after_refresh``
runs after the screen's next refresh, but while the app is still starting (its
start-up ``batch_update``, until ``App._ready``) a refresh draws nothing
(``App._display`` returns at once): work scheduled that way, meant to follow the
first frame (the Events map, the data client's imports), ran before it and delayed
it. :class:`FirstFrameHooks` notes when ``_display`` first has a frame to draw outside
a batch, and :func:`after_first_frame` runs callbacks then. Worse, a frame made during
that batch is dropped while the compositor counts its regions as drawn, so the first
frame drawn was a partial update that left them blank (the search boxes, the detail
panel's frame, the footer's keys) until something redrew them: the first frame drawn
after a dropped one is drawn whole.

9. A DataTable renders every cell through Rich (``DataTable._render_cell``: a
``Padding`` in a ``Styled``, ~0.3 ms each) and keys what it rendered on its
``_update_count``, which every ``clear()`` bumps: a table refilled with rows it
showed a moment ago (a cached search revisited) renders all of them again, 70
cells and ~25 ms on the frame that shows the result. :class:`CellsKeyedByContent`
also keeps each cell's lines by what decides them (the cell's text and styles, its
place, width, cursor, hover and focus state), so a revisit draws its rows from
there. It lives in ``table_cells_patch.py``, so the first frame, which shows no
table, does not import ``DataTable``. On any other Textual it is a plain ``DataTable``.

10. Closing while a mode opens. ``App._close_all`` iterates ``_screen_stacks`` while
it awaits each screen's close; a key handled meanwhile (the demo tour's next step)
can switch to a mode not visited yet, which adds a stack, and the loop raises
"dictionary changed size during iteration" as the app exits. Seen once in a full
test run (``test_demo_tour``). :class:`SurvivesWidgetErrors` closes the stacks from a
copy, and again for any stack opened meanwhile.

11. Outside text that would drive the terminal. Textual's ``Content`` and Rich's
``Text`` remove a few control codes from every string they are given (bell,
backspace, vertical tab, form feed, carriage return: the translate table that is the
default argument of ``textual.content._strip_control_codes`` and of
``rich.control.strip_control_codes``), but not ESC, the other C0 and C1 controls,
bidi overrides or zero-width characters: a restaurant's name holding
``"\x1b]0;…\x07"`` set the window title, ``"\x1b]52;c;…\x07"`` the clipboard.
:func:`strip_hidden_when_drawn` adds every character
``outside_text.hidden`` names (line breaks and tabs excepted) to both tables, so
whatever the explorer draws, from whatever widget, reaches the terminal as text
only. Each is zero cells wide already, so no layout moves. Checked by what the
functions do, not by version: if either table cannot be found the test fails.

12. Actions named by text. Textual's markup, and Rich's, read ``[@click=app.quit]``
as a style whose click runs an action (``App._broker_event``, called by every
widget's ``_on_click``, ``_on_mouse_down`` and ``_on_mouse_up``), and ``Static``
text and a ``DataTable``'s string cells are markup: a nearest city the service
named ``[@click=app.screenshot()]Lisbon[/]`` in the Events summary ran that action
(a file written on the host) when clicked, and any ``action_`` of the app or a
screen could be named so. The explorer
names no action in text (its links and buttons are widgets), so
:class:`NoActionsFromText` brokers none: whatever the text says, a click is a click.
Applied on every Textual: a renamed hook leaves it without effect, and the test that
clicks such a name fails.

On any other Textual the explorer is just slower (or larger, or exits on a
widget's error), and
``tests/tui/test_textual_patch.py`` fails until the patches are checked again
(or removed, once Textual fixes them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import textual
from rich.console import RenderableType
from textual import events
from textual._context import active_message_pump
from textual._styles_cache import StylesCache
from textual.actions import ActionParseResult
from textual.app import App
from textual.color import Color
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.style import Style
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets._footer import FooterKey

from creditscope.outside_text import hidden

CHECKED_TEXTUAL = "8.2.8"
"""The Textual version whose ``App._init_mode`` / ``switch_mode`` this was read against."""


@cache
def applies() -> bool:
    """True when the installed Textual is the one this patch was checked against."""
    return installed_textual() == CHECKED_TEXTUAL


def installed_textual() -> str | None:
    """The installed Textual's version, from the name of its ``.dist-info`` folder beside
    the package; None if there is not exactly one. What ``importlib.metadata.version``
    says (the tests check that it agrees), without its ~15 ms of import and path search
    in the first frame."""
    site = Path(textual.__file__).resolve().parent.parent
    found = [path.name for path in site.glob("textual-*.dist-info")]
    if len(found) != 1:
        return None
    return found[0].removeprefix("textual-").removesuffix(".dist-info")


@cache
def hidden_when_drawn() -> dict[int, None]:
    """Every character a terminal could act on or that shows nothing, line breaks and
    tabs excepted (~20 ms to find, so made after the first frame, which shows no data)."""
    planes = (range(0x10000), range(0x1BCA0, 0x1BCA4), range(0x1D173, 0x1D17B),
              range(0xE0000, 0xE0080))  # the BMP, then the format characters beyond it
    surrogates = range(0xD800, 0xE000)  # never in decoded text; left as they are
    return {code: None for codes in planes for code in codes
            if code not in surrogates and chr(code) not in "\n\t" and hidden(chr(code))}


def strip_hidden_when_drawn() -> bool:
    """Make Textual's and Rich's control-code stripping remove every hidden character
    (item 11); True when both tables were found and extended."""
    from rich import control as rich_control
    from textual import content as textual_content

    extended = 0
    for strip in (rich_control.strip_control_codes, textual_content._strip_control_codes):
        table = (strip.__defaults__ or (None,))[-1]
        if isinstance(table, dict):
            table.update(hidden_when_drawn())
            extended += 1
    return extended == 2


def mark_styles_current(app: App[None], screen: Screen[None]) -> None:
    """Tell Textual that ``screen`` (new, not mounted) needs no stylesheet refresh."""
    if applies() and not screen.is_mounted:
        screen._css_update_count = app._css_update_count


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(
    self: StylesCache, base_background: Color, background: Color
) -> tuple[Style, Style]:
    """Textual's ``StylesCache.get_inner_outer``, cached by the colours alone."""
    return _inner_outer(base_background, background)


def cache_inner_outer_by_colour() -> bool:
    """Stop ``StylesCache.get_inner_outer`` keeping style caches alive; True when applied."""
    current = StylesCache.__dict__.get("get_inner_outer")
    if current is _get_inner_outer:
        return True
    clear = getattr(current, "cache_clear", None)
    if not applies() or clear is None:
        return False
    clear()
    # Textual declares the attribute as an lru_cache wrapper: hence both codes.
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    return True


class FirstFrameHooks(App[None]):
    """An App that runs :func:`after_first_frame` callbacks once its first frame is drawn
    (see 8.)."""

    _first_frame_drawn = False
    _first_frame_waiters: list[tuple[MessagePump, Callable[[], object]]] | None = None
    _start_frame_dropped = False

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        if applies() and renderable is not None and not self._first_frame_drawn:
            if self._batch_count:
                self._start_frame_dropped = True
            elif self._start_frame_dropped and screen is self.screen:
                # A frame made in the start-up batch was dropped, but its regions count as
                # drawn: the first one drawn must be whole, or they stay blank.
                renderable = screen._compositor.render_update(
                    full=True, screen_stack=self._background_screens)
        # What Textual's _display draws (headless: would draw); a batch draws nothing.
        drawn = renderable is not None and not self._batch_count
        super()._display(screen, renderable)
        if drawn and not self._first_frame_drawn:
            self._first_frame_drawn = True
            for node, callback in self._first_frame_waiters or []:
                node.call_later(callback)
            self._first_frame_waiters = None


def after_first_frame(node: MessagePump, callback: Callable[[], object]) -> None:
    """Run ``callback`` in ``node``'s message loop once the app's first frame is drawn; once
    it has been (a screen opened later), after two refreshes of ``node`` (see 8.)."""
    app = node.app
    if applies() and isinstance(app, FirstFrameHooks) and not app._first_frame_drawn:
        if app._first_frame_waiters is None:
            app._first_frame_waiters = []
        app._first_frame_waiters.append((node, callback))
    else:
        node.call_after_refresh(node.call_after_refresh, callback)


class NoActionsFromText(App[None]):
    """An App on which no text's style runs an action (item 12)."""

    async def _broker_event(
        self, event_name: str, event: events.Event, default_namespace: DOMNode
    ) -> bool:
        """Textual's hook that runs a style's ``@click`` (and ``@mouse.down``/``up``):
        never, since any such name in drawn text came from outside."""
        return False


class SurvivesWidgetErrors(App[None]):
    """An App that reports a widget's unexpected exception and keeps running (see 3.),
    and closes every screen when it ends, even one opened as it closes (see 10.)."""

    async def _close_all(self) -> None:
        if not applies():
            await super()._close_all()
            return
        for _ in range(3):  # screens opened while closing: a few rounds, never forever
            stacks = [stack for stack in list(self._screen_stacks.values()) if stack]
            if not stacks:
                break
            for stack in stacks:
                for stack_screen in reversed(list(stack)):
                    if stack_screen._running:
                        await self._prune(stack_screen)
                stack.clear()
        self._installed_screens.clear()
        self._modes.clear()

    def report_widget_error(self, where: str, error: Exception) -> None:
        """Tell the user and keep a report; the subclass decides how."""
        raise NotImplementedError

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Textual's ``run_action`` (public), with a failing action reported, not fatal:
        key bindings run actions in the app's own loop."""
        try:
            return await super().run_action(action, default_namespace, namespaces)
        except Exception as error:
            if not applies() or self._exit:
                raise
            self.report_widget_error(f"the action {action}", error)
            return True

    def _handle_exception(self, error: Exception) -> None:
        """Textual's fatal handler, except for an error inside a widget or screen while
        the app runs."""
        pump = active_message_pump.get(None)
        if (applies() and self.is_running and not self._exit and pump is not None
                and pump is not self):
            try:
                self.report_widget_error(type(pump).__name__, error)
                return
            except Exception:  # reporting failed too: fall back to Textual's own way
                pass
        super()._handle_exception(error)


class StyledOnMount(Screen[None]):
    """A Screen that skips the resume restyles before it is first suspended (see 7.)."""

    _suspended_once = False

    # Textual calls the `_on_screen_resume` of every class of the screen's MRO, this one
    # first: it only tells Screen's, on the same event, whether to restyle.
    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        if applies() and not self._suspended_once:
            event.refresh_styles = False

    def _on_screen_suspend(self) -> None:
        self._suspended_once = True


@dataclass(frozen=True)
class FooterKeyFields:
    """What one key of Textual's footer shows and does (see 4.)."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool


def footer_key_fields(widget: Widget) -> FooterKeyFields | None:
    """The fields of a footer child that is a ``FooterKey``; None for any other child
    (a group label) and on any other Textual."""
    if not applies() or not isinstance(widget, FooterKey):
        return None
    return FooterKeyFields(widget.key, widget.key_display, widget.description, widget.action,
                           widget.disabled)


def footer_keys_from_the_start(footer: TextualFooter) -> None:
    """Let Textual's ``Footer.compose`` yield the keys before the screen first announces its
    bindings (its ``_bindings_ready``), so they are in the screen's first frame (see 4.)."""
    if applies():
        footer.set_reactive(TextualFooter._bindings_ready, True)


def price_footer_key(widget: Widget, description: str) -> None:
    """Make a ``FooterKey`` (not yet mounted) say ``description`` (see 4.)."""
    if applies() and isinstance(widget, FooterKey):
        widget.description = description


@dataclass(frozen=True)
class ShownNotification:
    """One toast on screen (see 5.)."""

    title: str
    message: str
    severity: str


def shown_notifications(app: App[object]) -> list[ShownNotification]:
    """The notifications the app is showing now, oldest first (see 5.)."""
    if not applies():
        return []
    return [ShownNotification(str(n.title), str(n.message), str(n.severity))
            for n in app._notifications]


def _pinned_only(what: str) -> None:
    if not applies():
        raise RuntimeError(f"{what} is checked against Textual {CHECKED_TEXTUAL} only "
                           f"(installed: {installed_textual()})")


def deliver_key_now(app: App[object], key: str) -> None:
    """Hand ``key`` to ``app`` as its terminal driver does, without Pilot's waits (see 6.)."""
    _pinned_only("deliver_key_now")
    char = "\r" if key == "enter" else (key if len(key) == 1 else None)
    event = events.Key(key, char)
    event.set_sender(app)
    driver = app._driver
    if driver is None:
        raise RuntimeError("the app is not running")
    driver.send_message(event)


def draw_frame_now(screen: Screen[object]) -> None:
    """Lay out and draw ``screen``'s pending frame now, as the refresh timer would (6.)."""
    _pinned_only("draw_frame_now")
    screen._on_timer_update()
