"""The command line's one remedy table: for each client exception, its heading, the next
step in command-line terms (a flag, an environment variable, a command) and the exit code.

The exceptions carry data only (``creditscope.client.errors``); the explorer has its own
table in ``creditscope.tui.remedies``; ``commands.error_output`` prints them (words on
stderr, or JSON with ``--json``). Exit codes (README, "Exit codes"): 0 ok, 2 usage or
validation (nothing sent, nothing spent), 3 API error, 4 transport error or not cached
while ``--offline``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from creditscope.client import errors

EXIT_USAGE = 2
EXIT_API = 3
EXIT_TRANSPORT = 4
EXIT_INTERRUPTED = 130  # as a shell reports a command ended by Ctrl+C (128 + SIGINT)


@dataclass(frozen=True)
class Remedy:
    """What the command line says, and exits with, for one kind of error."""

    title: str
    step: str | Callable[[Any], str]  # text, or text from the exception's data
    exit_code: int | Callable[[Any], int]

    def step_for(self, error: errors.CreditscopeError) -> str:
        """The next step's text for ``error``."""
        return self.step if isinstance(self.step, str) else self.step(error)

    def exit_code_for(self, error: errors.CreditscopeError) -> int:
        """The exit code for ``error``."""
        code = self.exit_code
        return code if isinstance(code, int) else code(error)


def _rate_limited(error: errors.RateLimited) -> str:
    if error.retry_after:
        return f"Retry in {error.retry_after:.0f} s."
    return "Wait a moment, then retry."


def _offline_miss(error: errors.OfflineMiss) -> str:
    cost = "" if error.price is None else f": {error.price} credits"
    return f"Drop --offline (or set CREDITSCOPE_OFFLINE=0) to fetch it{cost}."


def _over_budget(error: errors.BudgetExceeded) -> str:
    return (f"It costs {error.price} credits and {error.spent} of the {error.budget}-credit "
            "budget are spent: raise CREDITSCOPE_BUDGET (or `budget` in the settings file).")


def _invalid_request_exit(error: errors.InvalidRequest) -> int:
    return EXIT_USAGE if error.status is None else EXIT_API  # refused locally: nothing sent


REMEDIES: dict[type[errors.CreditscopeError], Remedy] = {
    errors.CreditscopeError: Remedy("Request failed", "Try again.", EXIT_TRANSPORT),
    errors.ApiError: Remedy("Request failed", "Try again.", EXIT_API),
    errors.InvalidApiKey: Remedy(
        "Invalid API key",
        "Set CREDITSCOPE_API_KEY (or `api_key` in the settings file) to a valid key, or "
        "unset CREDITSCOPE_BASE_URL to use the built-in sandbox.", EXIT_API),
    errors.InsufficientCredits: Remedy(
        "Not enough credits",
        "Top up the account, or answer from the cache with --offline.", EXIT_API),
    errors.RateLimited: Remedy("Rate limited", _rate_limited, EXIT_API),
    errors.NotFound: Remedy(
        "Not found",
        "Check the id; it may be stale. Run the search again to get a fresh one.", EXIT_API),
    errors.InvalidRequest: Remedy(
        "Invalid request", "Correct the value and run the command again; nothing was charged.",
        _invalid_request_exit),
    errors.ServerError: Remedy("Service error", "The service failed; retry in a moment.",
                               EXIT_API),
    errors.ServiceUnavailable: Remedy(
        "Service unavailable", "The service is busy or down; retry shortly.", EXIT_API),
    errors.UnexpectedResponse: Remedy(
        "Unexpected response",
        "The service answered in a shape we do not understand; `creditscope check-service` "
        "shows where the service differs from its contract.", EXIT_API),
    errors.TransportError: Remedy("Request failed", "Try again.", EXIT_TRANSPORT),
    errors.Timeout: Remedy(
        "Timed out",
        "The service did not answer in time; retry, or raise CREDITSCOPE_TIMEOUT.",
        EXIT_TRANSPORT),
    errors.ConnectionFailed: Remedy(
        "Cannot connect",
        "Check the network and CREDITSCOPE_BASE_URL (`creditscope doctor` checks both), or "
        "answer from the cache with --offline.", EXIT_TRANSPORT),
    errors.OfflineMiss: Remedy("Not cached (offline)", _offline_miss, EXIT_TRANSPORT),
    errors.BudgetExceeded: Remedy("Over session budget", _over_budget, EXIT_USAGE),
    errors.ClientUnavailable: Remedy(
        "Could not start the data client",
        "Check CREDITSCOPE_BASE_URL and the settings file (`creditscope doctor`), or unset "
        "CREDITSCOPE_BASE_URL to use the built-in sandbox.", EXIT_TRANSPORT),
}


def remedy_for(error: errors.CreditscopeError) -> Remedy:
    """The entry for ``error``'s class, or its nearest listed base class."""
    for cls in type(error).__mro__:
        if cls in REMEDIES:
            return REMEDIES[cls]
    return REMEDIES[errors.CreditscopeError]
