"""How screens and widgets reach the explorer: one typed interface and the app's signals.

A widget never reads an app attribute by name (``getattr(self.app, "client")``)
nor watches an app reactive: it asks :func:`host_of` for the typed
:class:`ExplorerHost`, and follows app-wide state through the host's
:class:`ExplorerSignals` (subscribe in ``on_mount``, unsubscribe in
``on_unmount`` so a popped screen is not kept alive until the next publish)::

    def on_mount(self) -> None:
        host = host_of(self)
        self.show(host.credits)
        host.signals.credits_changed.subscribe(self, self.show)

    def on_unmount(self) -> None:
        host_of(self).signals.unsubscribe(self)

Kept free of client and pydantic imports (annotations only): the first frame uses it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from textual.dom import DOMNode
from textual.signal import Signal

if TYPE_CHECKING:
    from creditscope.client.client import DataClient
    from creditscope.settings import Settings
    from creditscope.tui.messages import CreditSnapshot
    from creditscope.tui.spend_guard import SpendGuard

Clock = Callable[[], datetime]


@dataclass(frozen=True)
class Connection:
    """Where requests go, as the header badge says it: the sandbox or a live host, offline
    or not."""

    badge: str  # "SANDBOX", "api.example.com · OFFLINE"
    live: bool  # a real service rather than the built-in sandbox
    offline: bool  # answered from the cache only


class ExplorerSignals:
    """What the app publishes to widgets on every screen, pushed or in another area."""

    def __init__(self, app: DOMNode) -> None:
        self.client_ready: Signal[DataClient] = Signal(app, "client-ready")
        """A (re)built data client is ready: prices and cache states may differ."""
        self.credits_changed: Signal[CreditSnapshot] = Signal(app, "credits-changed")
        """A call was recorded (or a client became ready): the meter's new figures."""
        self.connection_changed: Signal[Connection] = Signal(app, "connection-changed")
        """The settings changed where requests go (sandbox, live host, offline)."""

    def unsubscribe(self, node: DOMNode) -> None:
        """Drop every subscription of ``node`` (call it from ``on_unmount``)."""
        for signal in (self.client_ready, self.credits_changed, self.connection_changed):
            signal.unsubscribe(node)


class ExplorerHost(Protocol):
    """The part of the explorer app that screens and widgets use, beside Textual's ``App``."""

    client: DataClient | None
    """The data client, once built (None while it starts, or if it failed to)."""
    client_error: BaseException | None
    """Why the data client could not be built, if it could not."""
    clock: Clock
    """Now, as the explorer tells it (injected: tests freeze it)."""
    credits: CreditSnapshot
    """What the header meter shows now."""
    signals: ExplorerSignals
    spend_guard: SpendGuard
    """One intent, one charge: asked before anything is sent (see spend_guard)."""

    @property
    def settings(self) -> Settings:
        """The validated settings."""
        ...

    @property
    def is_sandbox(self) -> bool:
        """True when requests go to the built-in sandbox."""
        ...

    @property
    def connection(self) -> Connection:
        """Where requests go now (what the header badge says)."""
        ...

    @property
    def current_mode(self) -> str:
        """The main area on screen (a Textual mode)."""
        ...

    async def wait_for_client(self) -> DataClient:
        """The data client, once ready; raises the start-up error if it could not be built."""
        ...

    def rebuild_client(self, settings: Settings) -> None:
        """Use new settings: drop the current client and build a fresh one."""
        ...

    def go_online(self) -> bool:
        """Leave offline mode; False when this explorer may not (a web tab)."""
        ...

    def action_go(self, mode: str) -> None:
        """Switch to a main area."""
        ...

    def action_help(self) -> None:
        """Show the keys of the current screen."""
        ...

    def config_path(self) -> Path | None:
        """Where settings are saved, when known."""
        ...


def host_of(node: DOMNode) -> ExplorerHost:
    """The explorer behind ``node`` (its app), typed as what screens and widgets may use."""
    # The app is a CreditscopeApp, which mypy checks against ExplorerHost (see tui/app.py).
    return cast("ExplorerHost", node.app)
