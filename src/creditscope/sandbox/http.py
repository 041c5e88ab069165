"""The HTTP edges of the sandbox: request ids, the body size limit, and turning
every failure into the spec's error shape (never FastAPI's 422, never a traceback)."""

from __future__ import annotations

import json
import logging
import secrets
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from creditscope.sandbox.control_chars import control_character_error
from creditscope.sandbox.problems import ApiProblem

MAX_BODY_BYTES = 64 * 1024
FIND_COMPANY_PATH = "/professional_network/find_company"
log = logging.getLogger("creditscope.sandbox")


def new_request_id() -> str:
    """``req_`` followed by 16 random hex digits."""
    return "req_" + secrets.token_hex(8)


def request_id_of(request: Request) -> str:
    """The id the guard middleware gave this request."""
    return str(request.scope.get("state", {}).get("request_id") or new_request_id())


def _json_message(status: int, body: dict[str, Any], request_id: str) -> tuple[Message, Message]:
    payload = json.dumps(body).encode()
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(payload)).encode()),
            (b"x-request-id", request_id.encode()),
        ],
    }
    return start, {"type": "http.response.body", "body": payload}


class RequestGuard:
    """Pure ASGI middleware: a request id on every answer, bodies capped at 64 KiB,
    and a last-resort 500 ``internal_error`` with no traceback."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_request_id()
        scope.setdefault("state", {})["request_id"] = request_id
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = [h for h in message.get("headers", []) if h[0].lower() != b"x-request-id"]
                message = {**message, "headers": [*headers, (b"x-request-id", request_id.encode())]}
            await send(message)

        too_large = _too_large_body(self.max_body)
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await _send_all(send, 413, too_large, request_id)
            return
        body, more = b"", True
        if scope["method"] in ("POST", "PUT", "PATCH"):
            # Read the whole (bounded) body first, so an oversized chunked body is refused too.
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > self.max_body:
                    await _send_all(send, 413, too_large, request_id)
                    return
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            downstream: Receive = replay
        else:
            downstream = receive
        if refused := control_character_error(scope.get("query_string", b""), body):
            await _send_all(send, 400, refused, request_id)
            return
        try:
            await self.app(scope, downstream, send_with_id)
        except Exception:
            log.exception("unexpected error answering %s %s", scope["method"], scope["path"])
            if not started:
                body_json = {
                    "error": {"code": "internal_error", "message": "Unexpected server error."}
                }
                await _send_all(send, 500, body_json, request_id)


def _too_large_body(limit: int) -> dict[str, Any]:
    return {
        "error": {
            "code": "payload_too_large",
            "message": f"body: request bodies are limited to {limit // 1024} KiB",
        }
    }


async def _send_all(send: Send, status: int, body: dict[str, Any], request_id: str) -> None:
    start, payload = _json_message(status, body, request_id)
    await send(start)
    await send(payload)


def _problem_response(request: Request, problem: ApiProblem) -> JSONResponse:
    if problem.reason is None and request.url.path == FIND_COMPANY_PATH:
        problem.reason = problem.code  # company lookup errors always carry a reason
    return JSONResponse(problem.body(), status_code=problem.status, headers=problem.headers)


def _validation_message(error: dict[str, Any]) -> tuple[str, str]:
    loc = [str(part) for part in error.get("loc", ()) if part not in ("query", "header", "path")]
    if error.get("type") == "json_invalid":
        return "body", "is not valid JSON"
    name = loc[-1] if loc else "body"
    if loc and loc[0] == "body" and len(loc) > 1:
        name = loc[1]
    message = str(error.get("msg", "is invalid")).removeprefix("Value error, ")
    if error.get("type") == "missing":
        message = "is required"
    elif error.get("type") == "literal_error" or error.get("type") == "enum":
        expected = error.get("ctx", {}).get("expected", "")
        message = f"must be one of {expected}"
    return name, message[:1].lower() + message[1:]


def install_error_handlers(app: FastAPI) -> None:
    """Every error leaves as ``{"error": {"code", "message", "reason"?}}``."""

    @app.exception_handler(ApiProblem)
    async def on_problem(request: Request, problem: ApiProblem) -> JSONResponse:
        return _problem_response(request, problem)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        name, message = _validation_message(dict(exc.errors()[0]) if exc.errors() else {})
        problem = ApiProblem(400, "invalid_parameter", f"{name}: {message}")
        return _problem_response(request, problem)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        if exc.status_code == 404:
            message = f"no endpoint at {request.url.path}; see /catalog"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        else:
            message = str(exc.detail)
        headers = dict(exc.headers or {})
        return _problem_response(
            request, ApiProblem(exc.status_code, code, message, headers=headers)
        )
