"""The data client's lifecycle in the explorer, and the credit figures it feeds.

The client, httpx and the sandbox are imported and built in a worker thread
after the first frame, which posts :class:`ClientReady` (or
:class:`ClientFailed`). Screens never build the client; they run calls
through :class:`creditscope.tui.calls.ResultArea`, which waits for it. Every
ready client is announced on ``signals.client_ready``, and every recorded call
refreshes :attr:`ClientApp.credits` and is announced on ``signals.credits_changed``.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import on, work

from creditscope.settings_preview import SettingsError, SettingsPreview
from creditscope.tui.app_settings import SettingsApp
from creditscope.tui.idle_collector import CHECK_EVERY, IdleCollector
from creditscope.tui.messages import ClientFailed, ClientReady, CreditSnapshot, LedgerChanged
from creditscope.tui.web_tab import STAYS_OFFLINE_NOTE, in_web_tab
from creditscope.tui.widgets.credit_meter import snapshot_of

# The store's thread waiting this long on a file means another process holds its lock.
STORE_WATCH_EVERY = 0.25
STORE_WAIT_NOTED = 0.75
STORE_WAIT_NOTE = ("Another creditscope (a batch?) is writing the same ledger or"
                   " cache. This session's calls are written as soon as it lets go; the"
                   " screen stays usable and nothing is lost.")

if TYPE_CHECKING:
    from textual.timer import Timer

    from creditscope.client.client import DataClient
    from creditscope.client.records import CallRecord
    from creditscope.client.session import SpendSession
    from creditscope.settings import Settings

ClientFactory = Callable[["Settings"], "DataClient"]


class ClientApp(SettingsApp):
    """An App that builds, rebuilds and closes the data client, and follows its ledger."""

    def __init__(
        self, settings: Settings | SettingsPreview, *, client_factory: ClientFactory | None = None
    ) -> None:
        super().__init__(settings)
        self.client_factory = client_factory
        self.client: DataClient | None = None
        self.client_error: BaseException | None = None
        self.credits = CreditSnapshot()
        """What the header meter shows; replaced after every recorded call."""
        self._client_event = asyncio.Event()
        self._unsubscribe_ledger: Callable[[], None] | None = None
        self._spend_session: SpendSession | None = None  # outlives every rebuilt client
        self._loop_thread: int | None = None  # the thread that runs the app's event loop
        self._store_watch: Timer | None = None
        # Full garbage collections while the user is away (they cost 100-300 ms once a
        # session has drawn a lot), from the first client on: start-up is over then.
        self.idle_collector = IdleCollector()
        self._store_waiting = False  # the store's thread waits on another process's lock

    @work(exclusive=True, group="client", description="Start the data client", exit_on_error=False,
          thread=True)
    def start_client(self) -> None:
        """Validate the settings, import and build the client, off the event loop
        (pydantic, FastAPI and httpx imports are slow)."""
        try:
            settings = self._validated_settings()
        except SettingsError:
            return  # the app exits with the error (_settings_failed)
        try:
            factory = self.client_factory
            if factory is None:  # as `creditscope` runs it
                from creditscope.wiring import explorer_client  # httpx, pydantic: slow

                factory = explorer_client
            client = factory(settings)
        except Exception as error:  # shown to the user, never a crash
            self.post_message(ClientFailed(error))
            return
        self._keep_session(client)
        self.post_message(ClientReady(client))

    def _keep_session(self, client: DataClient) -> None:
        """One session (budget, meter, Activity) for every client this explorer builds."""
        with self._settings_lock:
            self._spend_session = self._spend_session or client.ledger.session
            client.ledger.session = self._spend_session

    @on(ClientReady)
    def _client_ready(self, message: ClientReady) -> None:
        self.client = message.client
        self.client_error = None
        self._loop_thread = threading.get_ident()  # handlers run on the loop's thread
        self._unsubscribe_ledger = message.client.ledger.subscribe(self._on_ledger_record)
        self._client_event.set()
        if self._store_watch is None:
            self._store_watch = self.set_interval(STORE_WATCH_EVERY, self._watch_store)
        self._collect_when_idle()
        self.signals.client_ready.publish(message.client)
        self._refresh_credits()
        # A damaged cache or ledger was set aside and rebuilt: say so, once per client.
        for warning in message.client.storage_warnings:
            self.notify(warning, title="Storage problem", severity="warning", timeout=20)

    @on(ClientFailed)
    def _client_failed(self, message: ClientFailed) -> None:
        self.client_error = message.error
        self._client_event.set()
        self.notify(
            f"{message.error}. Check Settings, or use the built-in sandbox.",
            title="Could not start the data client",
            severity="error",
            timeout=10,
        )

    async def wait_for_client(self) -> DataClient:
        """The data client, once ready. Raises the start-up error if building it failed."""
        await self._client_event.wait()
        if self.client is None:
            from creditscope.client.errors import ClientUnavailable

            raise ClientUnavailable(
                str(self.client_error or "the data client is not available")
            ) from self.client_error
        return self.client

    def rebuild_client(self, settings: Settings) -> None:
        """Swap in new settings: drop the current client and build a fresh one."""
        self.settings = settings
        if self._unsubscribe_ledger is not None:
            self._unsubscribe_ledger()
            self._unsubscribe_ledger = None
        old, self.client = self.client, None
        self._client_event.clear()
        if old is not None:
            self._close_client(old)
        self.start_client()

    def go_online(self) -> bool:
        """Leave offline mode (the next offline miss will be fetched); not in a web tab,
        whose visitor must not spend what the presenter chose not to. True if it did."""
        if in_web_tab(self):
            self.notify(STAYS_OFFLINE_NOTE, title="Still offline", severity="warning")
            return False
        self.rebuild_client(self.settings.model_copy(update={"offline": False}))
        self.notify("Online: requests go to the service again.", title="Offline mode off")
        return True

    @work(group="client-close", description="Close the previous client", exit_on_error=False)
    async def _close_client(self, client: DataClient) -> None:
        await client.aclose()

    def _collect_when_idle(self) -> None:
        """Hand full garbage collections to the idle collector (once: from the first
        client on, start-up is over)."""
        if not self.idle_collector.running:
            self.idle_collector.start()
            self.set_interval(CHECK_EVERY, self.idle_collector.tick)

    async def on_unmount(self) -> None:
        """Close the client's connections when the app exits; give garbage collection
        back to CPython."""
        self.idle_collector.stop()
        if self.client is not None:
            with contextlib.suppress(Exception):  # closing is best effort at exit
                await self.client.aclose()

    def _watch_store(self) -> None:
        """Say so while the store's thread waits on a lock another process holds (a batch
        writing the same files): the screen stays usable and nothing is lost."""
        client = self.client
        waiting = client is not None and client.store.busy_for() >= STORE_WAIT_NOTED
        if waiting and not self._store_waiting:
            self.notify(STORE_WAIT_NOTE, title="Saving…", timeout=5)
        self._store_waiting = waiting

    # --- ledger -> meter -------------------------------------------------------------

    def _on_ledger_record(self, record: CallRecord | None = None) -> None:
        # The ledger calls back on the store's thread: post_message hands the message to
        # the loop without waiting for it (the store never waits on the screen).
        self.post_message(LedgerChanged(record))

    @on(LedgerChanged)
    def _ledger_changed(self, _message: LedgerChanged) -> None:
        self._refresh_credits()

    def _refresh_credits(self) -> None:
        if self.client is not None:
            self._read_credits(self.client)

    @work(group="credits", exclusive=True, exit_on_error=False,
          description="Read the session's totals")
    async def _read_credits(self, client: DataClient) -> None:
        """The meter's figures, read on the store's thread (they include the possibly
        charged rows of the ledger file)."""
        snapshot = await client.store.run(snapshot_of, client.ledger, client.account)
        if client is self.client:
            self.credits = snapshot
            self.signals.credits_changed.publish(self.credits)
