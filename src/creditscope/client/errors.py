"""One exception class per meaning, each carrying data only: status, code, message,
reason, request id, body, and the class's own facts (field, retry_after, price...).

What a user can do about an error is the interface's business: the explorer's remedy
table is ``creditscope.tui.remedies``, the command line's ``creditscope.commands.remedies``.
:func:`error_class_for` and :func:`bare_error_class_for` are the one place that maps an
HTTP status (and error code) to a class.
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

    record: CallRecord | None = None  # the call that failed, when the client made one
    # Credits the failed call may have cost: its answer was lost after the request left
    # (a timeout, a reset); the account's next balance settles it. Never re-sent by itself.
    possibly_charged: int = 0

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
    """The key is missing, unknown or revoked (401/403)."""


class InsufficientCredits(ApiError):
    """The account has too few credits for the call (402)."""


class RateLimited(ApiError):
    """Too many requests (429); ``retry_after`` is the wait in seconds, when given."""

    def __init__(
        self, message: str, *, retry_after: float | None = None, **details: Unpack[ErrorDetails]
    ) -> None:
        super().__init__(message, **details)
        self.retry_after = retry_after


class NotFound(ApiError):
    """The id names nothing (404); it may be stale."""


class InvalidRequest(ApiError):
    """Refused locally before sending (no charge) or by the service (400/413/422)."""

    def __init__(
        self, message: str, *, field: str | None = None, **details: Unpack[ErrorDetails]
    ) -> None:
        super().__init__(message, **details)
        self.field = field


class ServerError(ApiError):
    """The service failed (500 and other 5xx)."""


class ServiceUnavailable(ApiError):
    """The service is busy or down (502/503/504)."""


class UnexpectedResponse(ApiError):
    """An answer in a shape the client does not understand; ``body`` holds it."""


class TransportError(CreditscopeError):
    """The request did not complete: no answer from the service."""


class Timeout(TransportError):
    """The service did not answer in time."""


class ConnectionFailed(TransportError):
    """No connection to the service (network, DNS, base URL)."""


class OfflineMiss(CreditscopeError):
    """Offline, and the answer is not in the cache; ``price`` is what fetching it costs."""

    def __init__(
        self, message: str, *, price: int | None = None, **details: Unpack[ErrorDetails]
    ) -> None:
        super().__init__(message, **details)
        self.price = price


class BudgetExceeded(CreditscopeError):
    """The call would take the session past its budget: ``price``, ``spent``, ``budget``.

    ``shared``: the budget is another's limit shared by several processes (the tabs of a
    ``creditscope web`` run), which no confirmation passes."""

    def __init__(self, message: str, *, price: int = 0, spent: int = 0, budget: int = 0,
                 shared: bool = False) -> None:
        super().__init__(message, code="budget_exceeded")
        self.price = price
        self.spent = spent
        self.budget = budget
        self.shared = shared


class ClientUnavailable(CreditscopeError):
    """The data client could not be built (bad settings, unusable base URL)."""


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


# Error statuses a proxy may answer without the service's JSON error shape.
_BARE_STATUSES = frozenset({429, 502, 503, 504})


def codes_of(cls: type[ApiError]) -> tuple[str, ...]:
    """The error codes the client reads as ``cls`` (what a check of the service expects)."""
    return tuple(code for code, known in _BY_CODE.items() if known is cls)


def error_class_for(status: int, code: str | None) -> type[ApiError]:
    """The exception class for an error answer: by code when known, else by status."""
    if code and code in _BY_CODE:
        return _BY_CODE[code]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return UnexpectedResponse


def bare_error_class_for(status: int) -> type[ApiError]:
    """The exception class for an error answer without the service's error body (a
    proxy's page): 429 and 502-504 keep their meaning, any other 5xx is a service failure,
    anything else is UnexpectedResponse."""
    if status in _BARE_STATUSES:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return UnexpectedResponse
