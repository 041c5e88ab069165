"""Events: ``GET /ticketing/discovery``, the event feed near a point (3 credits)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from creditscope import models
from creditscope.sandbox import clock
from creditscope.sandbox import events as event_feed
from creditscope.sandbox.openapi import KEYED_GET_ERRORS
from creditscope.sandbox.routes.endpoint import now, query_operation

router = APIRouter()


def discovery(request: Request, query: models.EventFeedQuery) -> dict[str, Any]:
    """Events near a point, or the world's feed when no point is given."""
    anchor = clock.week_anchor(now(request))
    return event_feed.feed(query.lat, query.lng, query.limit, query.cursor or None, anchor)


query_operation(router, "ticketing/discovery", KEYED_GET_ERRORS, discovery)
