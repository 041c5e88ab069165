"""How a sandbox route is declared: path, method, response model and price come
from the operations table, and every operation sits behind the fault gate. A GET
operation's whole route comes from the table (``query_operation``): its query
parameters are checked with the operation's request model, and the route only
says where the data comes from.

Route handlers say what they do in a comment, not a docstring: FastAPI would
publish a docstring as the operation's description in the OpenAPI document."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from creditscope import models, operations
from creditscope.sandbox import clock
from creditscope.sandbox.charging import Meter, Metered
from creditscope.sandbox.faults import Faults
from creditscope.sandbox.problems import invalid_parameter
from creditscope.wording import counted

F = TypeVar("F", bound=Callable[..., Any])
# Where a GET operation's answer comes from: (request, its checked query) -> the body.
DataSource = Callable[[Request, Any], dict[str, Any]]


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


def query_operation(
    router: APIRouter, name: str, responses: dict[int | str, dict[str, Any]], data: DataSource,
) -> None:
    """Register GET operation ``name`` on ``router``: its query parameters checked against
    ``Operation.request_model`` (400 ``invalid_parameter`` naming the parameter, uncharged),
    its answer from ``data(request, query)``, charged through ``Meter.answer``."""
    op = operations.get(name)
    model = op.request_model

    async def endpoint(request: Request, meter: Meter, query: models.RequestModel) -> JSONResponse:
        half = models.unpaired(model, query)
        if half is not None:
            missing, given = half
            raise invalid_parameter(missing, f"{given} and {missing} must be given together "
                                             "(or both omitted)")
        return meter.answer(op.name, data(request, query))

    # FastAPI reads the parameters from the signature: the query is the table's model.
    positional = inspect.Parameter.POSITIONAL_OR_KEYWORD
    endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]  # read by FastAPI
        [
            inspect.Parameter("request", positional, annotation=Request),
            inspect.Parameter("meter", positional, annotation=Metered),
            inspect.Parameter("query", positional, annotation=Annotated[model, Query()]),
        ],
        return_annotation=JSONResponse,
    )
    endpoint.__name__ = getattr(data, "__name__", op.ttl_setting)  # the OpenAPI operation id
    operation_route(router, name, responses)(endpoint)


def now(request: Request) -> datetime:
    """The sandbox's clock: frozen when the config says so (deterministic data)."""
    return clock.now(request.app.state.config.frozen_time)
