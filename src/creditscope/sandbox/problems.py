"""The errors the sandbox answers with, always as ``{"error": {code, message, reason?}}``."""

from __future__ import annotations

from typing import Any


class ApiProblem(Exception):
    """An error answer: HTTP status, machine code, human message, optional reason."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        reason: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        """The JSON body in the spec's error shape."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            error["reason"] = self.reason
        return {"error": error}


def invalid_parameter(name: str, message: str, *, reason: str | None = None) -> ApiProblem:
    """400 ``invalid_parameter``; the message starts with the parameter's name."""
    return ApiProblem(400, "invalid_parameter", f"{name}: {message}", reason=reason)


def not_found(message: str) -> ApiProblem:
    """404 ``not_found``."""
    return ApiProblem(404, "not_found", message)
