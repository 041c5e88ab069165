"""One exception class per meaning, each carrying status, code, message and reason.

``error_for_status`` is the one place that maps an HTTP status and error code
to a class. Every class has a ``title`` (the heading of an error view) and a
``next_step`` (what the user can do about it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, Unpack

if TYPE_CHECKING:
    from creditscope.client.records import CallRecord


class ErrorDetails(TypedDict, total=False):
    """What the service (or the client) says about an error, beside its message."""

    status: int | None
    code: str | None
    reason: str | None
    request_id: str | None
    body: str | None


class CreditscopeError(Exception):
    """Base of every error the client raises."""

    title = "Request failed"
    next_step = "Try again."
    record: CallRecord | None = None  # the call that failed, when the client made one

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str | None = None,
        reason: str | None = None,
        request_id: str | None = None,
        body: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.reason = reason
        self.request_id = request_id
        self.body = body

    def __str__(self) -> str:
        head = f"[{self.code}] " if self.code else ""
        return f"{head}{self.message}"


class ApiError(CreditscopeError):
    """The service answered with an error."""


class InvalidApiKey(ApiError):
    title = "Invalid API key"
    next_step = "Open Settings and enter a valid key, or use the built-in sandbox."


class InsufficientCredits(ApiError):
    title = "Not enough credits"
    next_step = "Top up the account, or browse what is already cached (offline mode)."


class RateLimited(ApiError):
    title = "Rate limited"

    def __init__(
        self, message: str, *, retry_after: float | None = None, **details: Unpack[ErrorDetails]
    ) -> None:
        super().__init__(message, **details)
        self.retry_after = retry_after
        self.next_step = f"Retry in {retry_after:.0f} s." if retry_after else (
            "Wait a moment, then retry.")


class NotFound(ApiError):
    title = "Not found"
    next_step = "Check the id; it may be stale. Search again to get a fresh one."


class InvalidRequest(ApiError):
    """Refused locally before sending (no charge) or by the service (400/413/422)."""

    title = "Invalid request"
    next_step = "Correct the value and try again; nothing was charged."

    def __init__(
        self, message: str, *, field: str | None = None, **details: Unpack[ErrorDetails]
    ) -> None:
        super().__init__(message, **details)
        self.field = field


class ServerError(ApiError):
    title = "Service error"
    next_step = "The service failed; retry in a moment."


class ServiceUnavailable(ApiError):
    title = "Service unavailable"
    next_step = "The service is busy or down; retry shortly."


class UnexpectedResponse(ApiError):
    title = "Unexpected response"
    next_step = (
        "The service answered in a shape we do not understand; see Activity for the raw body."
    )


class TransportError(CreditscopeError):
    """The request did not complete: no answer from the service."""


class Timeout(TransportError):
    title = "Timed out"
    next_step = "The service did not answer in time; retry."


class ConnectionFailed(TransportError):
    title = "Cannot connect"
    next_step = "Check the network and the base URL in Settings, or go offline."


class OfflineMiss(CreditscopeError):
    title = "Not cached (offline)"
    next_step = "Go online to fetch it."


class BudgetExceeded(CreditscopeError):
    title = "Over session budget"
    next_step = "Confirm to spend past the budget, or raise it in Settings."

    def __init__(self, message: str, *, price: int = 0, spent: int = 0, budget: int = 0) -> None:
        super().__init__(message, code="budget_exceeded")
        self.price = price
        self.spent = spent
        self.budget = budget


_BY_CODE: dict[str, type[ApiError]] = {
    "invalid_api_key": InvalidApiKey,
    "insufficient_credits": InsufficientCredits,
    "rate_limited": RateLimited,
    "not_found": NotFound,
    "invalid_parameter": InvalidRequest,
    "invalid_request": InvalidRequest,
    "payload_too_large": InvalidRequest,
    "service_unavailable": ServiceUnavailable,
    "internal_error": ServerError,
}

_BY_STATUS: dict[int, type[ApiError]] = {
    400: InvalidRequest,
    401: InvalidApiKey,
    402: InsufficientCredits,
    403: InvalidApiKey,
    404: NotFound,
    413: InvalidRequest,
    422: InvalidRequest,
    429: RateLimited,
    502: ServiceUnavailable,
    503: ServiceUnavailable,
    504: ServiceUnavailable,
}


def error_class_for(status: int, code: str | None) -> type[ApiError]:
    """The exception class for an error answer: by code when known, else by status."""
    if code and code in _BY_CODE:
        return _BY_CODE[code]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return UnexpectedResponse
