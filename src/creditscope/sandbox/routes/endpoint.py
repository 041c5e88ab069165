"""How a sandbox route is declared: path, method, response model and price come
from the operations table, and every operation sits behind the fault gate.

Route handlers say what they do in a comment, not a docstring: FastAPI would
publish a docstring as the operation's description in the OpenAPI document."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from fastapi import APIRouter, Depends, Request

from creditscope import operations
from creditscope.sandbox import clock
from creditscope.sandbox.faults import Faults
from creditscope.wording import counted

F = TypeVar("F", bound=Callable[..., Any])


async def fault_gate(request: Request) -> None:
    """Injected latency and 503s, before anything else is looked at."""
    faults: Faults = request.app.state.faults
    await faults.before_answer()


def operation_route(
    router: APIRouter,
    name: str,
    responses: dict[int | str, dict[str, Any]],
    *,
    summary: str | None = None,
    **extra: Any,
) -> Callable[[F], F]:
    """Register the decorated function as operation ``name`` on ``router``; the summary
    defaults to "<title> (<price> credits)"."""
    op = operations.get(name)
    return router.api_route(
        op.path,
        methods=[op.method],
        response_model=op.response_model,
        responses=responses,
        dependencies=[Depends(fault_gate)],
        summary=summary or f"{op.title} ({counted(op.credits, 'credit')})",
        **extra,
    )


def now(request: Request) -> datetime:
    """The sandbox's clock: frozen when the config says so (deterministic data)."""
    return clock.now(request.app.state.config.frozen_time)
