"""A scriptable stand-in for the data API, for tests that need exact control of answers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx

from creditscope.client import errors
from creditscope.client.retry import RetryPolicy

BODIES: dict[str, dict[str, Any]] = {
    "/ticketing/discovery": {
        "location": {"lat": 38.72, "lng": -9.14, "nearest_city": "Lisbon"},
        "count": 1,
        "cursor": "c2",
        "events": [{"id": "ev1", "name": "Fado Night", "status": "on-sale", "lineup": ["Ana"]}],
    },
    "/professional_network/find_company": {
        "query": "Acme",
        "queries": ["site:example acme"],
        "count": 1,
        "matches": [{"company_url": "https://net.example/company/acme", "confidence": "high"}],
    },
    "/restaurants/search": {
        "location": "Lisbon",
        "total": 1,
        "results": [{"id": "r1", "name": "Tasca", "cuisine": "thai", "rating": 4.5}],
    },
    "/restaurants/details": {"id": "r1", "name": "Tasca", "hours": {"mon": "12:00-22:00"}},
    "/restaurants/menu": {"restaurant_id": "r1", "currency": "EUR", "sections": []},
    "/restaurants/reviews": {"restaurant_id": "r1", "total": 0, "reviews": []},
    "/catalog": {
        "providers": [
            {
                "id": "restaurants",
                "name": "Restaurants",
                "endpoints": [
                    {"name": "search", "method": "GET", "path": "/restaurants/search",
                     "credits": 4},
                ],
            }
        ],
        "totalEndpoints": 1,
    },
    "/provider-requests": {"ok": True, "id": "preq_1"},
}
PRICES = {"/ticketing/discovery": 3, "/professional_network/find_company": 10,
          "/restaurants/search": 2, "/restaurants/details": 2, "/restaurants/menu": 5,
          "/restaurants/reviews": 3}

Scripted = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


def error_response(status: int, code: str, message: str = "no", **headers: str) -> httpx.Response:
    """An answer in the service's error shape."""
    return httpx.Response(
        status, json={"error": {"code": code, "message": message}}, headers=headers
    )


class FakeService:
    """Answers every operation with a valid body; ``script`` overrides the next answers."""

    def __init__(self, delay: float = 0.0) -> None:
        self.requests: list[httpx.Request] = []
        self.script: list[Scripted] = []
        self.delay = delay
        self.balance = 10_000

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self.handle)

    async def handle(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.script:
            item = self.script.pop(0)
            if isinstance(item, Exception):
                raise item
            return item if isinstance(item, httpx.Response) else item(request)
        price = PRICES.get(request.url.path, 0)
        self.balance -= price
        return httpx.Response(
            200,
            content=json.dumps(BODIES[request.url.path]).encode(),
            headers={
                "Content-Type": "application/json",
                "X-Credits-Charged": str(price),
                "X-Credits-Remaining": str(self.balance),
                "X-Request-Id": f"req_{len(self.requests)}",
            },
        )


class InstantRetry(RetryPolicy):
    """Retries without waiting; remembers the delays it was asked to wait."""

    def __init__(self) -> None:
        super().__init__()
        self.delays: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.delays.append(seconds)


def exception_classes() -> list[type[errors.CreditscopeError]]:
    """Every exception class the client defines: each needs a remedy in both interfaces."""
    import inspect

    return [cls for _, cls in inspect.getmembers(errors, inspect.isclass)
            if issubclass(cls, errors.CreditscopeError) and cls.__module__ == errors.__name__]


class CountingTransport(httpx.AsyncBaseTransport):
    """Wraps a transport and counts the requests that reach it."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.count = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.count += 1
        return await self.inner.handle_async_request(request)


def commands_talk_to(service: FakeService, monkeypatch: Any, key: str) -> None:
    """Every client the CLI builds (``wiring.build_client``) talks to ``service``, as a
    configured live service with ``key``, retrying without waiting."""
    from creditscope import wiring

    original = wiring.build_client
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.example.test")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", key)

    def build(settings: Any, **_: Any) -> Any:
        client = original(settings, transport=service.transport)
        client.retry_policy = InstantRetry()
        return client

    monkeypatch.setattr(wiring, "build_client", build)
