"""An error shown where the user acted: title, code, message and the next step as buttons
(all from the explorer's remedy table, :mod:`creditscope.tui.remedies`)."""

from __future__ import annotations

import math

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Label, Static

from creditscope.client import errors
from creditscope.client.price_state import credits_text
from creditscope.tui.remedies import (
    GO_ONLINE,
    OPEN_SETTINGS,
    RETRY,
    NextStep,
    describe,
    remedy_for,
)
from creditscope.wording import possibly_charged

__all__ = ["GO_ONLINE", "OPEN_SETTINGS", "RETRY", "ErrorPanel", "NextStep", "describe",
           "next_steps"]


def next_steps(error: BaseException) -> list[NextStep]:
    """The actions that can fix ``error``, most useful first (from the remedy table)."""
    return list(remedy_for(error).buttons)


class ErrorPanel(Vertical):
    """Shows one error in place; its buttons post :class:`ErrorPanel.ActionChosen`."""

    class ActionChosen(Message):
        """The user picked a next step (``retry``, ``settings`` or ``online``)."""

        def __init__(self, panel: ErrorPanel, action: str) -> None:
            super().__init__()
            self.panel = panel
            self.action = action

        @property
        def control(self) -> ErrorPanel:
            """The panel the action came from."""
            return self.panel

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.error: BaseException | None = None
        self.price: int | None = None
        self._countdown: Timer | None = None
        self._wait_left = 0

    def compose(self) -> ComposeResult:
        """Nothing yet: the panel starts hidden in every result area, and its parts are
        mounted with the first error (composing and styling them cost every area's first
        frame, the explorer's included)."""
        yield from ()

    def _parts(self) -> list[Widget]:
        """Heading, code line, message, next step, and a row of buttons."""
        return [Label("", classes="error-title"), Label("", classes="error-code"),
                Static("", classes="error-message"), Static("", classes="error-next"),
                Horizontal(classes="error-actions")]

    def show(self, error: BaseException, *, price: int | None = None) -> None:
        """Display ``error`` and its next-step buttons; ``price`` is what sending the
        request again would cost, shown on every button that sends it (Retry, Go online)."""
        self.error = error
        self.price = price
        if not self.children:
            self.mount_all(self._parts())
        title, code, message, step = describe(error)
        self.query_one(".error-title", Label).update(f"✖ {title}")
        # The code and message are the service's words: plain text, never markup.
        self.query_one(".error-code", Label).update(Content(code))
        self.query_one(".error-message", Static).update(Content(message))
        self.query_one(".error-next", Static).update(step)
        actions = self.query_one(".error-actions", Horizontal)
        actions.remove_children()
        buttons = [
            Button(self._priced(step.label, step.action), variant=step.variant,  # type: ignore[arg-type]
                   name=step.action)
            for step in next_steps(error)
        ]
        actions.mount_all(buttons)
        self._stop_countdown()
        retry_after = getattr(error, "retry_after", None)
        if isinstance(error, errors.RateLimited) and retry_after:
            self._wait_left = math.ceil(retry_after)
            self._countdown = self.set_interval(1.0, self._tick)
            self.call_after_refresh(self._label_retry)
        self.display = True

    def _priced(self, label: str, action: str) -> str:
        """``Retry · N cr``, ``Go online · N cr``: a button that sends says what it costs,
        and a Retry after a lost answer that the earlier try may have been charged."""
        if action not in (RETRY, GO_ONLINE) or self.price is None:
            return label
        lost = getattr(self.error, "possibly_charged", 0)
        earlier = f" · earlier try {possibly_charged(lost)}" if action == RETRY and lost else ""
        return f"{label} · {credits_text(self.price)}{earlier}"

    def clear(self) -> None:
        """Hide the panel."""
        self._stop_countdown()
        self.error = None
        self.display = False

    def _stop_countdown(self) -> None:
        if self._countdown is not None:
            self._countdown.stop()
            self._countdown = None

    def _tick(self) -> None:
        self._wait_left -= 1
        if self._wait_left <= 0:
            self._stop_countdown()
        self._label_retry()

    def _label_retry(self) -> None:
        for button in self.query(Button):
            if button.name == RETRY:
                waiting = self._wait_left > 0
                button.label = f"Retry in {self._wait_left} s" if waiting else self._priced(
                    "Retry", RETRY)
                button.disabled = waiting

    @on(Button.Pressed)
    def _chosen(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.name:
            self.post_message(self.ActionChosen(self, event.button.name))
