"""Credit efficiency on a scripted journey: creditscope vs the minimum vs a naive client.

Run: ``.venv/bin/python benchmarks/credit_efficiency.py``

The journey (``JOURNEY`` below, one list in one place so the TUI benchmarks can
drive the same views through Pilot) searches 3 cities for restaurants, opens 5
restaurants with all three parts (details, menu, reviews), goes back to each
list and re-opens them, repeats two company lookups, pages the events feed
twice (first page + 2 cursors), then revisits everything.

It runs against the in-process sandbox (ASGI, no port) three ways:
- creditscope: a ``DataClient`` with a temp cache; spend read from its ledger;
- minimum: the sum of the prices of the journey's distinct requests, i.e. of
  its distinct (operation, canonical params) pairs;
- naive: raw httpx fetching on every view, summing ``X-Credits-Charged``.
The figure (creditscope / minimum, target exactly 1) is printed last.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import httpx
from _common import print_figure
from journey import (  # re-exported: the journey's one place is journey.py
    JOURNEY,
    EventsPage,
    LookupCompany,
    OpenRestaurant,
    SearchRestaurants,
    Step,
)

from creditscope import operations
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.validation import validate
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

# --- running it ------------------------------------------------------------------------


@dataclass
class Context:
    """What earlier views showed: result ids per city and the cursor after each page."""

    ids: dict[str, list[str]] = field(default_factory=dict)
    cursors: dict[int, str | None] = field(default_factory=dict)


def request_for(step: Step, ctx: Context) -> tuple[str, dict[str, Any]]:
    """The (operation, params) a view sends, resolved against what earlier views showed."""
    if isinstance(step, SearchRestaurants):
        return "restaurants/search", {"location": step.city}
    if isinstance(step, OpenRestaurant):
        return f"restaurants/{step.part}", {"id": ctx.ids[step.city][step.rank]}
    if isinstance(step, LookupCompany):
        return "professional_network/find_company", {"name": step.name, "website": step.website}
    cursor = ctx.cursors[step.page - 1] if step.page else None
    return "ticketing/discovery", {"lat": step.lat, "lng": step.lng, "cursor": cursor}


def remember(step: Step, ctx: Context, body: dict[str, Any]) -> None:
    """Keep what later steps need from this view's answer."""
    if isinstance(step, SearchRestaurants):
        ctx.ids[step.city] = [row["id"] for row in body["results"]]
    elif isinstance(step, EventsPage):
        ctx.cursors[step.page] = body.get("cursor")


class Runner(Protocol):
    """One way of showing a view: returns the JSON body the view would display."""

    async def show(self, operation: str, params: dict[str, Any]) -> dict[str, Any]: ...


async def walk(runner: Runner, journey: list[Step]) -> list[tuple[str, dict[str, Any]]]:
    """Show every step of ``journey``; the (operation, params) of each view, in order."""
    ctx = Context()
    sent = []
    for step in journey:
        operation, params = request_for(step, ctx)
        remember(step, ctx, await runner.show(operation, params))
        sent.append((operation, params))
    return sent


class CreditscopeRunner:
    """Views shown through ``DataClient`` (cache, single flight, ledger)."""

    def __init__(self, client: DataClient) -> None:
        self.client = client

    async def show(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Call through the client; its model dumped back to JSON."""
        result = await self.client.call(operation, params)
        return result.data.model_dump(mode="json", by_alias=True)


class NaiveRunner:
    """Views shown by a client that fetches on every view (raw httpx, no cache)."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self.charged = 0

    async def show(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send the request as-is and add up what the service says it charged."""
        op = operations.get(operation)
        clean = {k: v for k, v in params.items() if v is not None}
        headers = {"X-API-Key": DEMO_KEY}
        if op.is_post:
            response = await self.http.post(op.path, json=clean, headers=headers)
        else:
            response = await self.http.get(op.path, params=clean, headers=headers)
        response.raise_for_status()
        self.charged += int(response.headers.get("X-Credits-Charged", "0"))
        body: dict[str, Any] = response.json()
        return body


def minimum_credits(sent: list[tuple[str, dict[str, Any]]]) -> tuple[int, int]:
    """(price of the distinct requests, how many there are), by canonical params."""
    distinct = {
        (operation, tuple(sorted(validate(operation, params).items())))
        for operation, params in sent
    }
    return sum(operations.get(op).credits for op, _ in distinct), len(distinct)


async def run() -> dict[str, int]:
    """Walk the journey both ways on one in-process sandbox; the credit figures."""
    app = create_app(SandboxConfig(keys={DEMO_KEY: 10**9}))
    with tempfile.TemporaryDirectory(prefix="cs-credits-") as tmp:
        client = DataClient(
            SANDBOX_BASE_URL, DEMO_KEY, transport=httpx.ASGITransport(app=app),
            cache=ResponseCache(Path(tmp) / "cache"), ledger=CreditLedger(Path(tmp) / "l.db"),
            is_sandbox=True,
        )
        http = httpx.AsyncClient(base_url=SANDBOX_BASE_URL, transport=httpx.ASGITransport(app=app))
        async with client, http:
            sent = await walk(CreditscopeRunner(client), JOURNEY)
            totals = client.ledger.session_totals()
            naive = NaiveRunner(http)
            await walk(naive, JOURNEY)
        if client.cache is not None:
            client.cache.close()
        client.ledger.close()
    minimum, distinct = minimum_credits(sent)
    return {
        "views": len(sent), "distinct": distinct, "creditscope": totals.spent,
        "saved": totals.saved, "minimum": minimum, "naive": naive.charged,
    }


def main() -> None:
    """Print the three spends, then the figure (creditscope over the minimum)."""
    figures = asyncio.run(run())
    print(f"journey: {figures['views']} views, {figures['distinct']} distinct requests")
    print(f"  naive client (fetch on every view)  {figures['naive']:5d} credits")
    print(f"  minimum possible (distinct prices)  {figures['minimum']:5d} credits")
    print(f"  creditscope (ledger)                {figures['creditscope']:5d} credits"
          f"  ({figures['saved']} saved by the cache)")
    print(f"creditscope spends {figures['creditscope'] / figures['naive']:.0%} of the naive "
          f"client's credits")
    ratio = figures["creditscope"] / figures["minimum"]
    print_figure("credits_vs_minimum", ratio, "==", 1.0)


if __name__ == "__main__":
    main()
