"""``RecentLookups``: lookups already in the cache, to reopen for free."""

from __future__ import annotations

import json
from typing import Any

from textual import on, work
from textual.message import Message
from textual.widgets import Select

from creditscope.tui.host import host_of
from creditscope.tui.prices import Quote, quote
from creditscope.tui.screens.company.lookup_form import FIND_COMPANY
from creditscope.tui.screens.company.reasoning import domain_of

RECENT_LIMIT = 15


def recent_label(params: dict[str, Any], now: Quote) -> str:
    """``"Northwind Labs Ltd · northwind-labs.co.uk · cached · free"``; past its TTL the
    entry is fetched (and charged) again online (``"… · N cr · expired"``), and shown
    free, marked stale, offline."""
    parts = [str(params.get("name", ""))]
    if params.get("website"):
        parts.append(domain_of(str(params["website"])))
    return now.label(" · ".join(parts))


class RecentLookups(Select[str]):
    """A drop-down of cached lookups, newest first; choosing one posts :class:`Reopen`."""

    class Reopen(Message):
        """Reopen this cached lookup (``name`` and optional ``website``)."""

        def __init__(self, params: dict[str, Any]) -> None:
            super().__init__()
            self.params = params

    def __init__(self, **kwargs: Any) -> None:
        super().__init__([], prompt="Recent lookups", allow_blank=True, **kwargs)
        self._by_key: dict[str, dict[str, Any]] = {}

    def on_mount(self) -> None:
        """Fill now, when a client is ready, and after every call (a lookup may be new)."""
        # Once mounted: Select ignores a new prompt until then, so an area opened after the
        # client was ready kept saying "Recent lookups" when there were none.
        self.call_later(self.reload)
        signals = host_of(self).signals
        signals.client_ready.subscribe(self, lambda _client: self.reload())
        signals.credits_changed.subscribe(self, lambda _credits: self.reload())

    def on_unmount(self) -> None:
        """Stop following."""
        host_of(self).signals.unsubscribe(self)

    @work(exclusive=True, group="recent-lookups", description="Read the recent lookups",
          exit_on_error=False)
    async def reload(self) -> None:
        """Read the recent lookups from the client's cache, on the store's thread (free:
        nothing is sent)."""
        host = host_of(self)
        client = host.client
        if client is None:
            return
        found = await client.recent(FIND_COMPANY, limit=RECENT_LIMIT)
        options: list[tuple[str, str]] = []
        self._by_key = {}
        for params in found:
            key = json.dumps(params, sort_keys=True)
            if key in self._by_key:
                continue
            self._by_key[key] = params
            now = quote(host, FIND_COMPANY, params)
            if now is not None:
                options.append((recent_label(params, now), key))
        with self.prevent(Select.Changed):
            self.set_options(options)
        self.prompt = f"Recent lookups ({len(options)})" if options else "No recent lookups"
        self.disabled = not options

    @property
    def lookups(self) -> list[dict[str, Any]]:
        """The params of every listed lookup, newest first."""
        return list(self._by_key.values())

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        if event.value is Select.NULL or not isinstance(event.value, str):
            return
        params = self._by_key.get(event.value)
        if params is not None:
            self.post_message(self.Reopen(dict(params)))
        # Back to the prompt, so choosing the same lookup again still works.
        with self.prevent(Select.Changed):
            self.clear()
