"""Reads of Textual's internals that serve only tests and benchmarks (they left
``creditscope.tui.textual_patch``, which holds what users run): the notifications on
screen, a key with its frame without Pilot's waits, and whether a screen has work left.
Each refuses, or finds nothing, on a Textual other than the one the patches were checked
against."""

from __future__ import annotations

from dataclasses import dataclass

from textual import events
from textual.app import App
from textual.screen import Screen

from creditscope.tui.textual_patch import CHECKED_TEXTUAL, applies, installed_textual


@dataclass(frozen=True)
class ShownNotification:
    """One toast on screen."""

    title: str
    message: str
    severity: str


def shown_notifications(app: App[object]) -> list[ShownNotification]:
    """The notifications the app is showing now, oldest first (Textual keeps them in
    ``App._notifications`` and offers no public list); none on any other Textual."""
    if not applies():
        return []
    return [ShownNotification(str(n.title), str(n.message), str(n.severity))
            for n in app._notifications]


def _pinned_only(what: str) -> None:
    if not applies():
        raise RuntimeError(f"{what} is checked against Textual {CHECKED_TEXTUAL} only "
                           f"(installed: {installed_textual()})")


def deliver_key_now(app: App[object], key: str) -> None:
    """Hand ``key`` to ``app`` as its terminal driver does (``App._driver.send_message``),
    without Pilot's waits, which would hide the time a benchmark measures."""
    _pinned_only("deliver_key_now")
    char = "\r" if key == "enter" else (key if len(key) == 1 else None)
    event = events.Key(key, char)
    event.set_sender(app)
    driver = app._driver
    if driver is None:
        raise RuntimeError("the app is not running")
    driver.send_message(event)


def draw_frame_now(screen: Screen[object]) -> None:
    """Lay out and draw ``screen``'s pending frame now, as the refresh timer would
    (``Screen._on_timer_update``)."""
    _pinned_only("draw_frame_now")
    screen._on_timer_update()


def messages_pending(screen: Screen[object]) -> bool:
    """True while the app, ``screen`` or any widget on it has messages queued, or callbacks
    wait for the screen's next refresh (``call_after_refresh``)."""
    _pinned_only("messages_pending")
    nodes = [screen.app, screen, *screen.walk_children()]
    return any(node.message_queue_size for node in nodes) or bool(screen._callbacks)


def frame_pending(screen: Screen[object]) -> bool:
    """True while ``screen`` has a layout or a redraw its refresh timer has not drawn yet."""
    _pinned_only("frame_pending")
    return (screen._layout_required or screen._scroll_required or screen._repaint_required
            or bool(screen._dirty_widgets))
