"""The one way a screen runs a client call: :class:`ResultArea`.

A ``ResultArea`` wraps the widgets that show a call's result. ``area.run(request)``
waits for the client (showing "Starting the sandbox…"), validates locally,
runs the call in an exclusive worker with a loading state in place, then posts
``ResultArea.Succeeded`` (the screen fills its widgets) or shows the error in
place with its title, code, message and next-step buttons (Open settings,
Retry / Retry in N s, Go online), outlines the field the refusal names (see
``fields`` and :meth:`ResultArea.mark_field`) and posts ``ResultArea.Failed``.
Inputs live outside the area, so what the user typed is never lost. Over the session
budget, a modal states the price and, once confirmed, the call is re-run with
``confirm_over_budget=True``. Pair it with a
:class:`creditscope.tui.widgets.price_button.PriceButton` for the price label.

Example (a screen)::

    def compose_body(self) -> ComposeResult:
        yield Input(placeholder="Location", id="location")
        yield PriceButton("Search", operation="restaurants/search", id="search")
        # A refusal naming "location" outlines (and focuses) the #location box.
        with ResultArea(id="results", empty="Search for restaurants near a place.",
                        fields={"location": "#location"}):
            yield DataTable(id="table")

    @on(Button.Pressed, "#search")
    def search(self) -> None:
        params = {"location": self.query_one("#location", Input).value}
        request = CallRequest(operations.RESTAURANT_SEARCH, params)
        self.query_one("#results", ResultArea).run(request)

    @on(ResultArea.Succeeded, "#results")
    def show(self, event: ResultArea.Succeeded) -> None:
        table = self.query_one("#table", DataTable)
        found = event.answer(operations.RESTAURANT_SEARCH).data  # a RestaurantSearch
        for row in found.results: ...

    @on(Input.Changed, "#location")
    def typed(self) -> None:
        self.query_one("#results", ResultArea).mark_field(None)  # the fix is under way
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Label, LoadingIndicator, Static
from textual.worker import Worker, WorkerState

from creditscope.client import errors
from creditscope.client.records import CacheStatus
from creditscope.name_characters import fold_notes
from creditscope.tui.call_request import AnswerT, CallRequest
from creditscope.tui.field_marks import mark_field
from creditscope.tui.host import host_of
from creditscope.tui.prices import (
    credits_text,
    not_sent_text,
    over_budget_text,
    presenter_limit_text,
    price_of,
)
from creditscope.tui.spend_guard import CONFIRM_WINDOW, Verdict, intent_of
from creditscope.tui.widgets.error_panel import GO_ONLINE, OPEN_SETTINGS, RETRY, ErrorPanel

# A cached revisit the store has not answered by then says it waits (a file lock held
# by another process), rather than looking frozen.
STORE_BUSY_AFTER = 0.15

if TYPE_CHECKING:
    from textual.widget import AwaitMount

    # Annotations only: the operation table stays out of the first frame.
    from creditscope.client.client import DataClient
    from creditscope.client.records import CallRecord, Result
    from creditscope.operations import Operation

# CallRequest is re-exported: screens import it with ResultArea, from here.
__all__ = ["CallRequest", "ResultArea"]


class ResultArea(Vertical):
    """Holds a call's result widgets and shows its loading, empty and error states in place."""

    class Succeeded(Message):
        """The call returned: ``answer(operation)`` is its typed result, ``record`` the call."""

        def __init__(self, area: ResultArea, request: CallRequest[Any], result: Result[Any]
                     ) -> None:
            super().__init__()
            self.area = area
            self.request = request
            self._result = result

        @property
        def record(self) -> CallRecord:
            """What the call did (status, credits, cache, the raw body), whatever it was."""
            return self._result.record

        def is_for(self, operation: Operation[Any]) -> bool:
            """Whether this answers a call to ``operation``."""
            return self.request.operation == operation.name

        def answer(self, operation: Operation[AnswerT]) -> Result[AnswerT]:
            """The result, typed by the ``operation`` the handler expects
            (``event.answer(operations.RESTAURANT_MENU).data`` is a ``Menu``). Raises
            TypeError when the call was to another operation: a handler listening to
            the wrong area must fail loudly, not read another model's fields."""
            data = self._result.data
            if not self.is_for(operation) or not isinstance(data, operation.response_model):
                raise TypeError(f"this answers {self.request.operation} "
                                f"({type(data).__name__}), not {operation.name}")
            return self._result

        @property
        def control(self) -> ResultArea:
            """The area that ran the call (select handlers with ``@on(..., "#id")``)."""
            return self.area

    class Failed(Message):
        """The call failed; the error is already on screen."""

        def __init__(self, area: ResultArea, request: CallRequest[Any], error: BaseException
                     ) -> None:
            super().__init__()
            self.area = area
            self.request = request
            self.error = error

        @property
        def control(self) -> ResultArea:
            """The area that ran the call."""
            return self.area

    class Cancelled(Message):
        """The user declined to spend (over the budget): nothing was sent, the screen is
        as it was, and a note says so."""

        def __init__(self, area: ResultArea, request: CallRequest[Any]) -> None:
            super().__init__()
            self.area = area
            self.request = request

        @property
        def control(self) -> ResultArea:
            """The area whose call was not made."""
            return self.area

    def __init__(
        self,
        *children: Widget,
        empty: str = "",
        fields: Mapping[str, str] | None = None,
        focus_invalid: bool = True,
        **kwargs: Any,
    ) -> None:
        """``fields`` maps a request field the service may refuse (``"limit"``) to the
        selector, on the screen, of the widget that holds it (``"#limit"``);
        ``focus_invalid`` puts the cursor there when it is refused."""
        super().__init__(*children, **kwargs)
        self.fields = dict(fields or {})
        self.focus_invalid = focus_invalid
        self._empty_text = empty
        self._state = "empty" if empty else "content"
        self.last_request: CallRequest[Any] | None = None

    def compose(self) -> ComposeResult:
        """Status line, error panel and empty hint; the screen's widgets follow them."""
        with Horizontal(classes="call-status"):
            yield LoadingIndicator()
            yield Label("", classes="call-status-text")
        yield ErrorPanel(classes="call-error")
        yield Static(self._empty_text, classes="call-empty")

    def on_mount(self) -> None:
        """Put the state widgets first, then start empty (or showing content if no hint)."""
        for widget in reversed(self._state_widgets()):
            if self.children.index(widget) != 0:
                self.move_child(widget, before=0)
        self.query_one(ErrorPanel).display = False
        self._set_state(self._state)

    def _state_widgets(self) -> list[Widget]:
        return [self.query_one(".call-status"), self.query_one(ErrorPanel),
                self.query_one(".call-empty")]

    def mount_content(self, *widgets: Widget) -> AwaitMount:
        """Add result widgets after the area is mounted (e.g. after the first frame): shown
        or hidden by the area's state, as those given to the constructor are."""
        for widget in widgets:
            widget.display = self.shows_content
        return self.mount(*widgets)

    @property
    def content(self) -> list[Widget]:
        """The screen's own widgets in this area (everything but the state widgets)."""
        state = self._state_widgets()
        return [child for child in self.children if child not in state]

    @property
    def shows_content(self) -> bool:
        """True while the screen's widgets are shown, not the empty hint or an error."""
        return self._state == "content"

    @property
    def is_loading(self) -> bool:
        """True while a call of this area is on its way (its status line is shown)."""
        return bool(self.query_one(".call-status").display)

    def run(self, request: CallRequest[Any], *, confirm_over_budget: bool = False,
            deliberate: bool = False) -> bool:
        """Run ``request`` in a worker; a newer run in this area cancels an older one.

        A fresh cache hit (the store's freshness index says so, from memory) is read
        on the store's thread and shown with no loading line and no spend guard; a
        "Reading the cache…" line appears only if the store is held up (another
        process writing the same files).
        Anything that would be sent asks the spend guard first (see
        :mod:`creditscope.tui.spend_guard`): a held key or double click is one
        press, a press while the same request is on the wire joins it, and a
        paid refresh of an answer fetched moments ago waits for a second press.
        ``deliberate`` (a confirmed dialog) skips the repeat and refresh rules.
        Returns True when the request was answered or sent.
        """
        host = host_of(self)
        group = f"call-{self.id or id(self)}"
        for note in fold_notes(request.params):  # validated and sent folded: say so
            self.notify(note, title="Invisible characters folded",
                        markup=False)
        if host.client is not None and not request.refresh and _cached_now(host.client, request):
            self.last_request = request
            # Exclusive: an older call in this area must not land on top of the revisit.
            self.run_worker(self._revisit(request, confirm_over_budget, deliberate),
                            group=group, name=request.operation, exclusive=True,
                            exit_on_error=False)
            return True
        return self._run_uncached(request, confirm_over_budget, deliberate)

    async def _revisit(self, request: CallRequest[Any], confirm_over_budget: bool,
                       deliberate: bool) -> None:
        """Show the cached answer, read on the store's thread (the loop waits for nothing);
        if it is gone after all (another process cleared it), the request runs as usual."""
        client = host_of(self).client
        assert client is not None
        busy = self.set_timer(STORE_BUSY_AFTER, lambda: self._loading(
            "Reading the cache… (its file is busy: another creditscope is writing to it)"))
        try:
            result = await client.cached(request.op, request.params)
        finally:
            busy.stop()
        if result is None:
            self._run_uncached(request, confirm_over_budget, deliberate)
            return
        self.post_message(self.Succeeded(self, request, result))

    def _run_uncached(self, request: CallRequest[Any], confirm_over_budget: bool,
                      deliberate: bool) -> bool:
        """``run`` past the cache: the spend guard, then a worker that sends."""
        host = host_of(self)
        group = f"call-{self.id or id(self)}"
        intent = intent_of(request.operation, request.params)
        starting = host.client is None and host.client_error is None
        if starting and request.op.credits and not deliberate:
            # A paid press while the client starts: no button could show the price yet,
            # and a press never spends what was not on screen (free loads go on).
            self.app.notify(
                f"Not sent: the {'sandbox' if host.is_sandbox else 'connection'} is still "
                f"starting, so {request.label or request.operation} had no price on screen "
                "yet. Press again once its button shows the price.",
                title="Nothing sent yet", timeout=5)
            return False
        if host.client is not None and not self._valid(host.client, request):
            # Refused locally, for free: shown at once, whatever the guard would say.
            self.last_request = request
            self.run_worker(self._send(request, confirm_over_budget, None), group=group,
                            name=request.operation, exclusive=True, exit_on_error=False)
            return True
        # One place per area and action ("the next page of events"): a held key repeats an
        # action; two different actions in quick succession are two intents.
        place = f"{id(self.screen)}:{group}:{request.label or request.operation}"
        verdict = host.spend_guard.decide(place, intent, refresh=request.refresh,
                                          deliberate=deliberate or confirm_over_budget)
        if verdict is Verdict.JOIN:
            # Sent through the client all the same: its single-flight answers this press
            # from the exchange on the wire (nothing more is spent), in this area too.
            what = request.label or request.operation
            self.app.notify(f"Already fetching {what}: this press gets the same answer,"
                            " nothing more is spent.", title="Joined", timeout=3)
        elif verdict is not Verdict.SEND:
            self._not_sent(request, verdict, intent)
            return False
        self.last_request = request
        self._loading(
            ("Starting the sandbox…" if host.is_sandbox else "Connecting…")
            if starting
            else f"Fetching {request.label or request.operation}…"
        )
        host.spend_guard.sent(intent)
        self.run_worker(
            self._send(request, confirm_over_budget, intent),
            name=request.operation,
            group=group,
            description=f"{request.operation} {request.params}",
            exclusive=True,
            exit_on_error=False,
        )
        return True

    @staticmethod
    def _valid(client: DataClient, request: CallRequest[Any]) -> bool:
        """False when the client would refuse ``request`` before sending it (free)."""
        try:
            client.validate(request.operation, request.params)
        except errors.InvalidRequest:
            return False
        return True

    def _not_sent(self, request: CallRequest[Any], verdict: Verdict, intent: str) -> None:
        """Say why a press sent nothing (a held key's repeats say nothing: they are noise)."""
        what = request.label or request.operation
        if verdict is Verdict.TOO_SOON:
            self.app.notify(f"Not sent: {what} was asked for right after another paid request "
                            "here (a held key?). Press again to send it.",
                            title="Ignored a repeated press", timeout=4)
        elif verdict is Verdict.CONFIRM:
            age = host_of(self).spend_guard.age(intent) or 0.0
            price = credits_text(price_of(host_of(self), request.operation))
            self.app.notify(
                f"{what[:1].upper()}{what[1:]} was fetched {age:.0f} s ago. Press again to "
                f"pay {price} for a fresh copy (within {CONFIRM_WINDOW:.0f} s).",
                title="Press again to refresh", timeout=CONFIRM_WINDOW)

    def refuse(self, request: CallRequest[Any], error: BaseException) -> None:
        """Show a refusal made before anything was sent (free), as a sent call's error is
        shown: in place, the field outlined, ``Failed`` posted."""
        self.last_request = request
        self._failed(error)

    def retry(self) -> None:
        """Run the last request again (after an error); rebuilds a client that failed to start."""
        host = host_of(self)
        if host.client is None and host.client_error is not None:
            host.rebuild_client(host.settings)
        if self.last_request is not None:
            self.run(self.last_request, deliberate=True)  # a button on the error: deliberate

    def show_empty(self, text: str | None = None) -> None:
        """Show the empty hint (e.g. "No restaurants match") instead of the content: plain
        text, as it often names what the service sent ("near Lisbon [/]")."""
        if text is not None:
            self._empty_text = text
            self.query_one(".call-empty", Static).update(Content(text))
        self._set_state("empty")

    async def _send(self, request: CallRequest[Any], confirm_over_budget: bool,
                    intent: str | None) -> None:
        """Send through the client; ``intent`` is what the spend guard counts in flight
        (None for a request the client refuses before sending)."""
        guard = host_of(self).spend_guard
        answered = False
        try:
            client = await host_of(self).wait_for_client()
            self.query_one(".call-status-text", Label).update(
                f"Fetching {request.label or request.operation}…"
            )
            result = await request.send(client, confirm_over_budget=confirm_over_budget)
            answered = True
        finally:
            if intent is not None:
                guard.finished(intent, answered=answered)
        self.post_message(self.Succeeded(self, request, result))

    def _loading(self, text: str) -> None:
        self.query_one(".call-status-text", Label).update(text)
        self.query_one(".call-status").display = True
        self.query_one(ErrorPanel).clear()

    def _set_state(self, state: str) -> None:
        # Loading keeps the previous content visible under the status line.
        self._state = state
        self.query_one(".call-status").display = False
        self.query_one(".call-empty").display = state == "empty"
        for widget in self.content:
            widget.display = state == "content"
        if state != "error":
            self.query_one(ErrorPanel).clear()

    @on(Succeeded)
    def _succeeded(self, event: Succeeded) -> None:
        # Not stopped: the message bubbles on to the screen.
        if event.area is self:
            self._set_state("content")

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.node is not self or not event.worker.group.startswith("call-"):
            return
        event.stop()
        if event.state == WorkerState.ERROR and event.worker.error is not None:
            self._failed(event.worker.error)

    def _failed(self, error: BaseException) -> None:
        request = self.last_request
        assert request is not None
        if isinstance(error, errors.BudgetExceeded):
            self._confirm_over_budget(request, error)
            return
        self._set_state("error")
        self.query_one(ErrorPanel).show(error, price=price_of(host_of(self), request.operation))
        self.mark_field(error.field if isinstance(error, errors.InvalidRequest) else None,
                        focus=self.focus_invalid)
        self.post_message(self.Failed(self, request, error))

    def mark_field(self, field: str | None, *, focus: bool = False) -> Widget | None:
        """Outline the widget holding ``field`` (``-invalid``) and only it; None clears every
        outline. Returns that widget (focused if asked), or None when no widget holds it."""
        return mark_field(self.screen, self.fields, field, focus=focus)

    def _confirm_over_budget(self, request: CallRequest[Any], error: errors.BudgetExceeded) -> None:
        from creditscope.tui.screens.confirm import ConfirmSpend

        def decided(confirmed: bool | None) -> None:
            if confirmed:
                self.run(request, confirm_over_budget=True, deliberate=True)
                return
            # Declined: what was on screen stays (results, empty hint or error), with a note.
            self._set_state(self._state)
            what = request.label or request.operation
            self.app.notify(not_sent_text(what, error.price), title="Cancelled", timeout=8)
            self.post_message(self.Cancelled(self, request))

        what = request.label or request.operation
        if error.shared:  # a web tab: the presenter's limit, which a visitor cannot pass
            dialog = ConfirmSpend("The presenter's budget is reached",
                                  presenter_limit_text(what, error.price, error.spent,
                                                       error.budget),
                                  price=error.price, can_spend=False)
        else:
            dialog = ConfirmSpend("Over your session budget",
                                  over_budget_text(what, error.price, error.spent, error.budget),
                                  price=error.price)
        self.app.push_screen(dialog, decided)

    @on(ErrorPanel.ActionChosen)
    def _next_step(self, event: ErrorPanel.ActionChosen) -> None:
        event.stop()
        host = host_of(self)
        if event.action == RETRY:
            self.retry()
        elif event.action == OPEN_SETTINGS:
            host.action_go("settings")
        elif event.action == GO_ONLINE and host.go_online():
            self.retry()



def _cached_now(client: DataClient, request: CallRequest[Any]) -> bool:
    """True when the cache would answer ``request`` free now (a fresh copy, or any copy
    offline), by the store's freshness index: memory only, no file read."""
    try:
        state = client.cache_state(request.operation, request.params)
    except (errors.CreditscopeError, KeyError):  # refused before sending: the normal path says why
        return False
    return state is CacheStatus.HIT or (state is CacheStatus.STALE and client.offline)
