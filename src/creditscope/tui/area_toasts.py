"""Toasts that belong to the area that raised them.

A "Copied" toast says what a key just did where the user is; raised in Activity and
still on screen over Company, it reads as if Company had copied something. Such a toast
is raised here with the area (the app's mode) it belongs to, and withdrawn when the
user switches to another area (:func:`leave_other_areas`, from every area screen's
resume). Every other toast (errors, warnings, what a call cost) is Textual's, app-wide,
and stays until it times out or is dismissed.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from textual.app import App
from textual.notifications import Notification, Notify

from creditscope.tui.textual_patch import withdraw_notification

# Per app: each toast raised for an area, with that area's mode, until withdrawn or expired.
_RAISED: WeakKeyDictionary[App[Any], list[tuple[Notification, str]]] = WeakKeyDictionary()


def notify_in_area(app: App[Any], message: str, *, title: str) -> None:
    """An information toast (``message`` is markup, as ``App.notify`` reads it) that
    leaves the screen when the user leaves the area it was raised in."""
    notification = Notification(message, title, "information", app.NOTIFICATION_TIMEOUT,
                                markup=True)
    app.post_message(Notify(notification))  # what ``App.notify`` posts: thread-safe
    _RAISED.setdefault(app, []).append((notification, app.current_mode))


def leave_other_areas(app: App[Any], area: str) -> None:
    """``area`` is on screen now: withdraw the toasts other areas raised."""
    kept: list[tuple[Notification, str]] = []
    for notification, raised_in in _RAISED.get(app, []):
        if notification.has_expired:
            continue
        if raised_in == area:
            kept.append((notification, raised_in))
        else:
            withdraw_notification(app, notification)
    _RAISED[app] = kept
