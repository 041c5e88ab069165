"""Helpers shared by the sandbox tests (constants, clients, error assertions)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import httpx
from fastapi import FastAPI

from creditscope.sandbox import DEMO_KEY

AppFactory = Callable[..., FastAPI]

# A fixed "now" (a Wednesday), so dates and open_now are the same on every run.
FROZEN = datetime(2026, 3, 4, 18, 30, tzinfo=UTC)
AUTH = {"X-API-Key": DEMO_KEY}
PATHS = {
    "discovery": "/ticketing/discovery",
    "find_company": "/professional_network/find_company",
    "search": "/restaurants/search",
    "details": "/restaurants/details",
    "menu": "/restaurants/menu",
    "reviews": "/restaurants/reviews",
}


def client_for(app: FastAPI) -> httpx.AsyncClient:
    """An async client talking to ``app`` in-process."""
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test")


async def first_restaurant_id(http: httpx.AsyncClient, location: str = "Lisbon") -> str:
    """The id of the nearest restaurant in ``location``."""
    answer = await http.get(PATHS["search"], params={"location": location, "limit": 1})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["results"][0]["id"])


def assert_error(answer: httpx.Response, status: int, code: str, names: str | None = None) -> None:
    """The answer is an error in the spec's shape, with this status and code."""
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"}, body
    assert set(body["error"]) <= {"code", "message", "reason"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if names is not None:
        assert body["error"]["message"].startswith(f"{names}:"), body["error"]["message"]
