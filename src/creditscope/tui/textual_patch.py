"""The one place the explorer reaches into Textual's internals, for the pinned Textual only.

Workarounds and reads of what Textual does not export, each a named patch
(:data:`PATCHES`) that is on only for the Textual version it was read against and
only when the private modules it needs import. A Textual that moves one of them
turns that patch off and nothing else: the explorer starts, slower or plainer,
and ``creditscope doctor`` and the log say which patch is off and why. Patches are
applied to the app (:func:`patch_app`), not inherited. Items 5 and 6 (reads for
tests and benchmarks) live in ``tests/textual_internals.py``.

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
drivers) with the session's Activity and meter gone. :func:`patch_app`
replaces it so an exception raised in a widget's (or a screen's) own message
loop is reported instead (a notification, the log, a report file) and the app
carries on; the app's own loop, start-up and shutdown still end it as Textual
intends. Textual stops the failed widget's message loop (``break`` after the
call) unless the error is caught before: :func:`patch_app` catches it inside the
widget's dispatch, so the failed widget (a screen, which takes every key) answers the
next message too; errors in idle handlers and callbacks still stop that one loop.

4. (retired) The footer read and priced Textual's unexported ``FooterKey`` widgets. It
now draws its own keys from the screen's public ``active_bindings``
(``tui/widgets/footer.py``): nothing of Textual's to reach into.

5. and 6. (the notifications on screen, for tests; a key and its frame without
Pilot's waits, for benchmarks) moved to ``tests/textual_internals.py``: they serve
no user.

7. A new screen restyled twice before its first frame. ``App._init_mode`` posts a
``ScreenResume`` to a mode's new screen and ``App.switch_mode`` posts another, and
``Screen._on_screen_resume`` restyles the whole screen on each (``refresh_styles``),
though every widget was styled as it mounted: ~20 ms of the explorer's first frame
and of each area's first visit. The restyle is there for a screen coming back after
being away (the theme or its classes may have changed meanwhile), so
:class:`StyledOnMount` skips it only until the screen is first suspended.

8. Work to do once the first frame is on the terminal. Textual's ``call_after_refresh``
runs after the screen's next refresh, but while the app is still starting (its start-up
``batch_update``, until ``App._ready``) a refresh draws nothing (``App._display``
returns at once): work scheduled that way, meant to follow the first frame (the Events
map, the data client's imports), ran before it and delayed it. :func:`patch_app` notes
when ``_display`` first has a frame to draw outside a batch, and
:func:`after_first_frame` runs callbacks then. Worse, a frame made during that batch is
dropped while the compositor counts its regions as drawn, so the first frame drawn was a
partial update that left them blank (the search boxes, the detail panel's frame, the
footer's keys) until something redrew them: the first frame drawn after a dropped one is
drawn whole. An area screen does not make a frame during that batch at all
(:class:`StyledOnMount`): its widgets were rendered twice before the first frame, ~5-8 ms.

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
test run (``test_demo_tour``). :func:`patch_app` closes the stacks from a copy, and
again for any stack opened meanwhile.

11. Escape, then a number key, typed quickly. A terminal sends both as ``ESC 3``, the
same bytes as Alt+3; Textual's table of sequences (``textual._ansi_sequences``) reads
``ESC`` + a digit (and ``§ - =``) as the character macOS's Option key would type in
WezTerm ("£" for ``ESC 3``), so a quick Escape, 3 typed "£" into the field being left
instead of switching to area 3. :func:`read_escape_then_key` drops those entries; the
bytes then reach the app as Alt+key, which ``tui/key_order.py`` reads as Escape
followed by the key. Off, the quick Escape types a character, as Textual does.

12. Outside text that would drive the terminal. Textual's ``Content`` and Rich's
``Text`` remove a few control codes from every string they are given (bell,
backspace, vertical tab, form feed, carriage return: the translate table that is the
default argument of ``textual.content._strip_control_codes`` and of
``rich.control.strip_control_codes``), but not ESC, the other C0 and C1 controls,
bidi overrides or zero-width characters: a restaurant's name holding
``"\x1b]0;…\x07"`` set the window title, ``"\x1b]52;c;…\x07"`` the clipboard.
:func:`strip_hidden_when_drawn` adds every character ``outside_text.hidden`` names
(line breaks and tabs excepted) to both tables, so whatever the explorer draws, from
whatever widget, reaches the terminal as text only. Each is zero cells wide already, so
no layout moves. A guard, not a speed-up: applied on every Textual whose tables it
finds (checked by what the functions do, not by version).

13. Actions named by text. Textual's markup, and Rich's, read ``[@click=app.quit]``
as a style whose click runs an action (``App._broker_event``, called by every
widget's ``_on_click``, ``_on_mouse_down`` and ``_on_mouse_up``), and ``Static``
text and a ``DataTable``'s string cells are markup: a nearest city the service
named ``[@click=app.screenshot()]Lisbon[/]`` in the Events summary ran that action
(a file written on the host) when clicked, and any ``action_`` of the app or a
screen could be named so. The explorer names no action in text (its links and
buttons are widgets), so :func:`patch_app` brokers none: whatever the text says, a
click is a click. A guard, applied on every Textual: a renamed hook leaves it without
effect, and the test that clicks such a name fails.

14. Table cells are markup. A ``DataTable`` reads every ``str`` cell as Rich markup
(``textual.widgets._data_table.default_cell_formatter``), so a lineup or a restaurant
the service named ``Casa [/] Lisboa`` raised ``MarkupError`` in the Events feed and a
``[b]`` restyled the row. The explorer writes no markup into cells (its styled cells
are ``Text``), so :func:`plain_table_cells` escapes every ``str`` cell before Textual's
formatter reads it: what the service sent is drawn as sent. Applied after the first
frame with item 12 (the first frame imports no ``DataTable``), on every Textual that
has the formatter.

15. A toast withdrawn before its timeout. Textual offers no public way to take one
notification off the screen (``App.clear_notifications`` takes every one, errors
included); a click on a toast calls ``App._unnotify`` with it, and
:func:`withdraw_notification` does the same, so a "Copied" toast raised in one area
does not stay over the next (``tui/area_toasts.py``). Off, it stays until its timeout.

16. Seven caches for every line drawn. ``Strip.__init__`` gives each strip (one line of
a widget, as drawn) seven ``FIFOCache`` objects, each a tracked object with its own dict,
made whether they are used or not (most strips are cropped or divided once, if ever).
A session holds thousands of strips: at a full garbage collection 84,000-109,000 of the
190,000-345,000 objects the collector walked were these caches (``benchmarks/
revisit_tmux.py --probe``), and every frame made eight tracked objects per line, which
sets off young collections eight times as often. :func:`strip_caches_on_first_use`
makes a strip's caches when a method first asks for one (``__getattr__``, reached only
for a cache slot not yet set), so a strip that is never cropped costs one object. The
caches' sizes are read off a strip the original ``__init__`` made: a Textual whose
strips carry other caches keeps its own ``__init__``. Measured (``benchmarks/README.md``):
making strips ~6x faster, a full collection over the same strips ~40 % shorter, the
methods as fast.

On any other Textual, or without a private module, the explorer is just slower (or
larger, or exits on a widget's error, or keeps a toast until its timeout), and
``tests/tui/test_textual_patch.py`` fails until the patches are checked again
(or removed, once Textual fixes them).
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import types
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import textual
from rich.console import RenderableType
from rich.segment import Segment
from textual import events
from textual.actions import ActionParseResult
from textual.app import App
from textual.color import Color
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.notifications import Notification
from textual.screen import Screen
from textual.style import Style

from creditscope.outside_text import hidden

if TYPE_CHECKING:
    from textual._styles_cache import StylesCache as StylesCacheType

logger = logging.getLogger("creditscope.tui")

CHECKED_TEXTUAL = "8.2.8"
"""The Textual version every patch was read against."""


@dataclass(frozen=True)
class Patch:
    """One reach into Textual: its item above, what it does, the private modules it needs."""

    name: str
    item: int
    does: str
    needs: tuple[str, ...] = ()
    any_version: bool = False
    """A guard against outside text: kept on whatever the version (it checks itself)."""


PATCHES = (
    Patch("mode-styles", 1, "no stylesheet refresh on an area's first visit"),
    Patch("styles-cache", 2, "rendered lines do not outlive widgets", ("textual._styles_cache",)),
    Patch("widget-errors", 3, "a widget's error is reported, not fatal", ("textual._context",)),
    Patch("resume-restyle", 7, "no second restyle before a screen's first frame"),
    Patch("first-frame", 8, "work after the first frame; the first frame drawn whole"),
    Patch("table-cells", 9, "tables redraw cells they drew before from cache"),
    Patch("close-all", 10, "closing while an area opens"),
    Patch("escape-then-key", 11, "a quick Escape then a key is not an Option character",
          ("textual._ansi_sequences",)),
    Patch("strip-hidden", 12, "outside text drawn without controls or hidden characters",
          any_version=True),
    Patch("no-text-actions", 13, "no action runs from a text's markup", any_version=True),
    Patch("plain-cells", 14, "table cells drawn as sent, never read as markup",
          ("textual.widgets._data_table",), any_version=True),
    Patch("withdraw-toast", 15, "a toast withdrawn when its area is left"),
    Patch("strip-caches", 16, "a drawn line's caches made when first used"),
)

_missing: dict[str, str] = {}
"""Private modules this Textual could not give, and why."""


def _private(module: str, name: str) -> Any:
    """``name`` from Textual's private ``module``; None (remembered, with why) when this
    Textual has no such module or name: the patches that need it are off."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as missing:
        _missing[module] = f"{type(missing).__name__}: {missing}"
        return None


active_message_pump: Any = _private("textual._context", "active_message_pump")
active_app: Any = _private("textual._context", "active_app")
StylesCache: type[StylesCacheType] | None = _private("textual._styles_cache", "StylesCache")
ANSI_SEQUENCES_KEYS: Any = _private("textual._ansi_sequences", "ANSI_SEQUENCES_KEYS")


def _private_later(module: str) -> None:
    """Note now whether Textual's private ``module`` exists, without importing it (the
    first frame must not load it); a patch that needs it imports it when applied."""
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as missing:
        _missing[module] = f"{type(missing).__name__}: {missing}"
        return
    if found is None:
        _missing[module] = f"ModuleNotFoundError: No module named {module!r}"


_private_later("textual.widgets._data_table")


@cache
def installed_textual() -> str | None:
    """The installed Textual's version. Read from the name of its ``.dist-info`` folder
    beside the package (cheap, for the first frame); any other layout (an egg, a zip, a
    vendored copy, two folders) asks ``importlib.metadata``. None when nobody knows."""
    site = Path(textual.__file__).resolve().parent.parent
    found = [path.name for path in site.glob("textual-*.dist-info")]
    if len(found) == 1:
        return found[0].removeprefix("textual-").removesuffix(".dist-info")
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover - the standard library has it from 3.8 on
        return None
    try:
        return version("textual")
    except PackageNotFoundError:
        return None


@dataclass(frozen=True)
class PatchState:
    """Whether one patch is on here, and if not, why (``doctor`` and the log say it)."""

    patch: Patch
    on: bool
    why_off: str = ""


def patch_states() -> list[PatchState]:
    """Every patch, on or off, with the reason when off."""
    version = installed_textual()
    states = []
    for patch in PATCHES:
        if version != CHECKED_TEXTUAL and not patch.any_version:
            why = (f"checked against Textual {CHECKED_TEXTUAL}; installed: "
                   f"{version or 'unknown version'}")
        else:
            why = "; ".join(f"{module} is unavailable ({_missing[module]})"
                            for module in patch.needs if module in _missing)
        states.append(PatchState(patch, not why, why))
    return states


@cache
def is_on(name: str) -> bool:
    """True when the patch ``name`` applies to the installed Textual."""
    return next(state.on for state in patch_states() if state.patch.name == name)


def applies() -> bool:
    """True when the installed Textual is the one the patches were checked against."""
    return installed_textual() == CHECKED_TEXTUAL


@cache
def log_patches_off() -> None:
    """Say in the log which patches are off and why (once per process)."""
    for state in patch_states():
        if not state.on:
            logger.warning("Textual patch %s (%s) is off: %s", state.patch.name,
                           state.patch.does, state.why_off)


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
    (12.); True when both tables were found and extended."""
    if not is_on("strip-hidden"):
        return False
    from rich import control as rich_control
    from textual import content as textual_content

    extended = 0
    strips = (rich_control.strip_control_codes,
              getattr(textual_content, "_strip_control_codes", None))
    for strip in strips:
        table = (getattr(strip, "__defaults__", None) or (None,))[-1]
        if isinstance(table, dict):
            table.update(hidden_when_drawn())
            extended += 1
    return extended == 2


def plain_table_cells() -> bool:
    """Make every ``DataTable`` draw a ``str`` cell as plain text, not markup (14.); True
    when applied. Imports ``DataTable``: call it after the first frame."""
    formatter = _private("textual.widgets._data_table", "default_cell_formatter")
    if formatter is None or not is_on("plain-cells"):
        return False
    if getattr(formatter, "cells_are_plain", False):
        return True
    import textual.widgets._data_table as data_table
    from rich.markup import escape

    def plain(obj: object, wrap: bool = True, height: int = 0) -> RenderableType:
        return formatter(escape(obj) if isinstance(obj, str) else obj, wrap, height)

    plain.cells_are_plain = True  # type: ignore[attr-defined]
    data_table.default_cell_formatter = plain
    return True


def guard_outside_text() -> None:
    """Items 12 and 14, once the first frame is drawn and before any outside text is."""
    strip_hidden_when_drawn()
    plain_table_cells()


def mark_styles_current(app: App[None], screen: Screen[None]) -> None:
    """Tell Textual that ``screen`` (new, not mounted) needs no stylesheet refresh (1.)."""
    if is_on("mode-styles") and not screen.is_mounted:
        screen._css_update_count = app._css_update_count


@lru_cache(1024)
def _inner_outer(base_background: Color, background: Color) -> tuple[Style, Style]:
    return Style(background=base_background + background), Style(background=base_background)


def _get_inner_outer(
    self: StylesCacheType, base_background: Color, background: Color
) -> tuple[Style, Style]:
    """Textual's ``StylesCache.get_inner_outer``, cached by the colours alone."""
    return _inner_outer(base_background, background)


def cache_inner_outer_by_colour() -> bool:
    """Stop ``StylesCache.get_inner_outer`` keeping style caches alive; True when applied (2.)."""
    if StylesCache is None or not is_on("styles-cache"):
        return False
    current = StylesCache.__dict__.get("get_inner_outer")
    if current is _get_inner_outer:
        return True
    clear = getattr(current, "cache_clear", None)
    if clear is None:
        return False
    clear()
    # Textual declares the attribute as an lru_cache wrapper: hence both codes.
    StylesCache.get_inner_outer = _get_inner_outer  # type: ignore[method-assign,assignment]
    return True


def read_escape_then_key() -> bool:
    """Read ``ESC`` + a printable key as Alt+key, not as an Option-key character (11.);
    True when applied."""
    if ANSI_SEQUENCES_KEYS is None or not is_on("escape-then-key"):
        return False
    option_characters = [sequence for sequence, meaning in ANSI_SEQUENCES_KEYS.items()
                         if len(sequence) == 2 and sequence[0] == "\x1b"
                         and sequence[1].isprintable() and isinstance(meaning, str)]
    for sequence in option_characters:
        del ANSI_SEQUENCES_KEYS[sequence]
    return True


def _strip_cache_sizes() -> dict[str, int]:
    """The caches Textual's own ``Strip.__init__`` makes, by slot, with their sizes."""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    probe = Strip([])
    sizes = {}
    for slot in Strip.__slots__:
        value = getattr(probe, slot, None)
        if isinstance(value, FIFOCache):
            sizes[slot] = value._maxsize  # FIFOCache shows no public size
    return sizes


def strip_caches_on_first_use() -> bool:
    """Make each ``Strip``'s caches when first used, not when the strip is made (16.);
    True when applied."""
    if not is_on("strip-caches"):
        return False
    from textual.cache import FIFOCache
    from textual.strip import Strip

    if "__getattr__" in Strip.__dict__:
        return True
    sizes = _strip_cache_sizes()
    made_eagerly = set(sizes) | {"_segments", "_cell_length", "_render_cache", "_link_ids",
                                 "_cell_count"}
    if not sizes or made_eagerly != set(Strip.__slots__):
        return False  # strips that carry something else: Textual's own __init__ stays

    def __init__(self: Strip, segments: Iterable[Segment], cell_length: int | None = None,
                 ) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def __getattr__(self: Strip, name: str) -> object:
        # Reached only for a slot not set yet: a cache, made on its first use.
        size = sizes.get(name)
        if size is None:
            raise AttributeError(name)
        made: FIFOCache[object, object] = FIFOCache(size)
        setattr(self, name, made)
        return made

    Strip.__init__ = __init__  # type: ignore[method-assign]
    Strip.__getattr__ = __getattr__  # type: ignore[attr-defined]
    return True


# --- patches applied to the app (3., 8., 10.) ----------------------------------------------

@dataclass
class _FirstFrame:
    """What item 8 knows of one app's first frame."""

    drawn: bool = False
    start_frame_dropped: bool = False
    waiters: list[tuple[MessagePump, Callable[[], object]]] = field(default_factory=list)


_first_frames: weakref.WeakKeyDictionary[App[Any], _FirstFrame] = weakref.WeakKeyDictionary()


def _bind(app: App[Any], name: str, method: Callable[..., Any]) -> None:
    """Put ``method`` on this app instance in place of Textual's ``name`` (Textual calls
    every one of these through ``self``, so the instance's own wins)."""
    setattr(app, name, types.MethodType(method, app))


def patch_app(app: App[Any], report: Callable[[str, Exception], None]) -> None:
    """Apply the patches that are on to ``app``: a widget's error goes to ``report`` and the
    session goes on (3.), the first frame is noticed and drawn whole (8.), and closing
    copes with an area opened meanwhile (10.), and no action runs from a text's markup
    (13.). The log says which patches are off."""
    log_patches_off()
    if is_on("widget-errors"):
        _patch_widget_errors(app, report)
    if is_on("first-frame"):
        _first_frames[app] = _FirstFrame()
        textual_display = app._display

        def display(self: App[Any], screen: Screen[object],
                    renderable: RenderableType | None) -> None:
            state = _first_frames[self]
            if renderable is not None and not state.drawn:
                if self._batch_count:
                    state.start_frame_dropped = True
                elif state.start_frame_dropped and screen is self.screen:
                    # A frame made in the start-up batch was dropped, but its regions count
                    # as drawn: the first one drawn must be whole, or they stay blank.
                    renderable = screen._compositor.render_update(
                        full=True, screen_stack=self._background_screens)
            # What Textual's _display draws (headless: would draw); a batch draws nothing.
            drawn = renderable is not None and not self._batch_count
            textual_display(screen, renderable)
            if drawn and not state.drawn:
                state.drawn = True
                for node, callback in state.waiters:
                    node.call_later(callback)
                state.waiters.clear()

        _bind(app, "_display", display)
    if is_on("close-all"):
        _bind(app, "_close_all", _close_all_from_copies)
    if is_on("no-text-actions"):
        _bind(app, "_broker_event", _broker_no_event)


async def _broker_no_event(
    self: App[Any], event_name: str, event: events.Event, default_namespace: DOMNode
) -> bool:
    """Textual's hook that runs a style's ``@click`` (and ``@mouse.down``/``up``): never,
    since any such name in drawn text came from outside (13.)."""
    return False


def _patch_widget_errors(app: App[Any], report: Callable[[str, Exception], None]) -> None:
    textual_run_action = app.run_action
    textual_handle_exception = app._handle_exception

    async def run_action(
        self: App[Any],
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        # Key bindings run actions in the app's own loop: a failing one is reported.
        try:
            return await textual_run_action(action, default_namespace, namespaces)
        except Exception as error:
            if self._exit:
                raise
            report(f"the action {action}", error)
            return True

    def handle_exception(self: App[Any], error: Exception) -> None:
        # Fatal as Textual intends, except for an error inside a widget or screen while
        # the app runs.
        pump = active_message_pump.get(None)
        if self.is_running and not self._exit and pump is not None and pump is not self:
            try:
                report(type(pump).__name__, error)
                return
            except Exception:  # reporting failed too: fall back to Textual's own way
                pass
        textual_handle_exception(error)

    _bind(app, "run_action", run_action)
    _bind(app, "_handle_exception", handle_exception)
    _widget_error_reporters[app] = report
    _keep_message_loops_alive()


_widget_error_reporters: weakref.WeakKeyDictionary[
    App[Any], Callable[[str, Exception], None]] = weakref.WeakKeyDictionary()
"""The apps whose widgets' errors are reported (3.), each with its reporter."""


@cache
def _keep_message_loops_alive() -> None:
    """Catch a handler's error inside ``MessagePump._dispatch_message``, before Textual's
    message loop sees it and stops: a screen whose handler failed (markup the service
    broke, say) otherwise never handles another message, and as the screen takes every
    key the explorer froze, Ctrl+Q too. Class-wide (each widget's loop calls it through
    ``self``), but acting only for the apps :func:`patch_app` patched (3.)."""
    textual_dispatch = MessagePump._dispatch_message

    async def dispatch(self: MessagePump, message: Message) -> None:
        try:
            await textual_dispatch(self, message)
        except Exception as error:
            app = active_app.get(None)
            report = _widget_error_reporters.get(app) if app is not None else None
            if report is None or self is app or not app.is_running or app._exit:
                raise  # the app's own loop, start-up and shutdown: Textual's way
            report(type(self).__name__, error)

    MessagePump._dispatch_message = dispatch  # type: ignore[method-assign]


async def _close_all_from_copies(self: App[Any]) -> None:
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


def after_first_frame(node: MessagePump, callback: Callable[[], object]) -> None:
    """Run ``callback`` in ``node``'s message loop once the app's first frame is drawn; once
    it has been (a screen opened later), after two refreshes of ``node`` (see 8.)."""
    state = _first_frames.get(node.app)
    if state is not None and not state.drawn:
        state.waiters.append((node, callback))
    else:
        node.call_after_refresh(node.call_after_refresh, callback)


class StyledOnMount(Screen[None]):
    """Patch 7 (resume-restyle), for screens: skips the resume restyles before the screen
    is first suspended. A class because Textual dispatches ``_on_screen_resume`` through
    every class of the screen's MRO, which an instance attribute cannot join."""

    _suspended_once = False

    # Textual calls the `_on_screen_resume` of every class of the screen's MRO, this one
    # first: it only tells Screen's, on the same event, whether to restyle.
    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        if is_on("resume-restyle") and not self._suspended_once:
            event.refresh_styles = False

    def _on_screen_suspend(self) -> None:
        self._suspended_once = True

    def _compositor_refresh(self) -> None:
        """Patch 8 (first-frame): a frame asked for during the start-up batch would be
        dropped, so it is not made: its regions stay dirty for the first frame drawn."""
        state = _first_frames.get(self.app)
        if state is not None and not state.drawn and self.app._batch_count:
            state.start_frame_dropped = True
            return
        super()._compositor_refresh()


# --- a toast taken off the screen (15.) ------------------------------------------------------

def withdraw_notification(app: App[Any], notification: Notification) -> None:
    """Take ``notification`` off the screen now, as a click on its toast does (see 15.);
    one already gone is no matter."""
    if is_on("withdraw-toast"):
        app._unnotify(notification)
