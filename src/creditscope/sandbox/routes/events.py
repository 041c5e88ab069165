"""Events: ``GET /ticketing/discovery``, the event feed near a point (3 credits)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from creditscope.sandbox import clock
from creditscope.sandbox import events as event_feed
from creditscope.sandbox.charging import Metered
from creditscope.sandbox.openapi import KEYED_GET_ERRORS
from creditscope.sandbox.problems import invalid_parameter
from creditscope.sandbox.routes.endpoint import now, operation_route

router = APIRouter()


@operation_route(router, "ticketing/discovery", KEYED_GET_ERRORS)
async def discovery(
    request: Request,
    meter: Metered,
    lat: Annotated[float | None, Query(ge=-90, le=90)] = None,
    lng: Annotated[float | None, Query(ge=-180, le=180)] = None,
    limit: Annotated[int, Query(ge=1, le=50)] = 20,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
) -> JSONResponse:
    # Events near a point, or the world's feed when no point is given.
    if (lat is None) != (lng is None):
        missing = "lng" if lng is None else "lat"
        raise invalid_parameter(missing, "lat and lng must be given together (or both omitted)")
    anchor = clock.week_anchor(now(request))
    body = event_feed.feed(lat, lng, limit, cursor or None, anchor)
    return meter.answer("ticketing/discovery", body)
