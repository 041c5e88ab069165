"""The explorer's one remedy table: for each client exception, the heading of its error
view, the next step in the explorer's words, and the buttons that take it.

The exceptions carry data only (``creditscope.client.errors``); the command line has its
own table in ``creditscope.commands.remedies``. The error panel and the worker-failure
notices read this one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from creditscope.client import errors
from creditscope.wording import lost_answer_sentence

RETRY = "retry"
OPEN_SETTINGS = "settings"
GO_ONLINE = "online"


@dataclass(frozen=True)
class NextStep:
    """A button the panel offers: what it says and the action it asks for."""

    label: str
    action: str
    variant: str = "primary"


@dataclass(frozen=True)
class Remedy:
    """What the explorer shows for one kind of error."""

    title: str
    step: str | Callable[[Any], str]  # text, or text from the exception's data
    buttons: tuple[NextStep, ...] = ()

    def step_for(self, error: BaseException) -> str:
        """The next step's text for ``error``."""
        return self.step if isinstance(self.step, str) else self.step(error)


_RETRY = (NextStep("Retry", RETRY),)
_SETTINGS = (NextStep("Open settings", OPEN_SETTINGS),)


def _rate_limited(error: errors.RateLimited) -> str:
    if error.retry_after:
        return f"Retry in {error.retry_after:.0f} s."
    return "Wait a moment, then retry."


REMEDIES: dict[type[errors.CreditscopeError], Remedy] = {
    errors.CreditscopeError: Remedy("Request failed", "Try again.", _RETRY),
    errors.ApiError: Remedy("Request failed", "Try again.", _RETRY),
    errors.InvalidApiKey: Remedy(
        "Invalid API key", "Open Settings and enter a valid key, or use the built-in sandbox.",
        _SETTINGS),
    errors.InsufficientCredits: Remedy(
        "Not enough credits",
        "Top up the account, or browse what is already cached (offline mode).",
        (NextStep("Open settings", OPEN_SETTINGS, "default"), NextStep("Retry", RETRY))),
    errors.RateLimited: Remedy("Rate limited", _rate_limited, _RETRY),
    errors.NotFound: Remedy(
        "Not found", "Check the id; it may be stale. Search again to get a fresh one."),
    errors.InvalidRequest: Remedy(
        "Invalid request", "Correct the value and try again; nothing was charged."),
    errors.ServerError: Remedy("Service error", "The service failed; retry in a moment.",
                               _RETRY),
    errors.ServiceUnavailable: Remedy(
        "Service unavailable", "The service is busy or down; retry shortly.", _RETRY),
    errors.UnexpectedResponse: Remedy(
        "Unexpected response",
        "The service answered in a shape we do not understand; see Activity for the raw body.",
        _RETRY),
    errors.TransportError: Remedy("Request failed", "Try again.", _RETRY),
    errors.Timeout: Remedy("Timed out", "The service did not answer in time; retry.", _RETRY),
    errors.ConnectionFailed: Remedy(
        "Cannot connect", "Check the network and the base URL in Settings, or go offline.",
        _RETRY),
    errors.OfflineMiss: Remedy("Not cached (offline)", "Go online to fetch it.",
                               (NextStep("Go online", GO_ONLINE),)),
    errors.BudgetExceeded: Remedy(
        "Over session budget", "Confirm to spend past the budget, or raise it in Settings.",
        _RETRY),
    errors.ClientUnavailable: Remedy(
        "Could not start the data client",
        "Check the base URL in Settings, or use the built-in sandbox.", _RETRY),
}

UNEXPECTED = Remedy("Unexpected error", "Retry; if it persists, report it.", _RETRY)


def remedy_for(error: BaseException) -> Remedy:
    """The entry for ``error``'s class, or its nearest listed base class."""
    for cls in type(error).__mro__:
        if cls in REMEDIES:
            return REMEDIES[cls]
    return UNEXPECTED


def describe(error: BaseException) -> tuple[str, str, str, str]:
    """(title, code line, message, next step) for any exception, ours or not."""
    remedy = remedy_for(error)
    if isinstance(error, errors.CreditscopeError):
        code = " · ".join(
            part
            for part in (
                error.code or "",
                f"HTTP {error.status}" if error.status else "",
                f"reason: {error.reason}" if error.reason else "",
            )
            if part
        )
        step = remedy.step_for(error)
        if error.possibly_charged:  # the answer was lost after the request left
            step = f"{lost_answer_sentence(error.possibly_charged)} {step}"
        return remedy.title, code, error.message, step
    return remedy.title, type(error).__name__, str(error), remedy.step_for(error)
