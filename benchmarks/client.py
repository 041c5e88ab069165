"""How fast is the client? Cache hits vs round trips, and overhead vs raw httpx.

Run: ``.venv/bin/python benchmarks/client.py [--iterations N]``

Both figures use the in-process sandbox (ASGI transport, no port), medians of
N calls each:
- cache-hit latency vs a sandbox round trip through the client (refresh=True);
- the client's own overhead per call (validation, records, ledger, parsing)
  vs raw httpx sending the same request to the same app and parsing the JSON.
The ratios are printed last.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import httpx

from creditscope import operations
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

PARAMS = {"location": "Lisbon", "cuisine": "thai"}


async def _median_ms(action: object, iterations: int) -> float:
    samples = []
    for _ in range(iterations):
        started = time.perf_counter()
        await action()  # type: ignore[operator]
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def run(iterations: int) -> dict[str, float]:
    """Median milliseconds of each way of calling, keyed by name."""
    app = create_app(SandboxConfig(keys={DEMO_KEY: 10**9}))
    with tempfile.TemporaryDirectory() as tmp:
        client = DataClient(
            SANDBOX_BASE_URL, DEMO_KEY, transport=httpx.ASGITransport(app=app),
            cache=ResponseCache(Path(tmp) / "cache"), ledger=CreditLedger(Path(tmp) / "l.db"),
        )
        raw = httpx.AsyncClient(base_url=SANDBOX_BASE_URL, transport=httpx.ASGITransport(app=app))
        async with client, raw:

            async def through_client() -> None:
                await client.call(operations.RESTAURANT_SEARCH, PARAMS, refresh=True)

            async def cache_hit() -> None:
                await client.call(operations.RESTAURANT_SEARCH, PARAMS)

            async def raw_httpx() -> None:
                response = await raw.get(
                    "/restaurants/search", params={**PARAMS, "limit": 10},
                    headers={"X-API-Key": DEMO_KEY},
                )
                response.raise_for_status()
                response.json()

            for warm in (through_client, raw_httpx):  # first calls pay for imports and warm-up
                await warm()
            return {
                "round trip (client)": await _median_ms(through_client, iterations),
                "round trip (raw httpx)": await _median_ms(raw_httpx, iterations),
                "cache hit": await _median_ms(cache_hit, iterations),
            }


def main() -> None:
    """Print the medians, then the two ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    medians = asyncio.run(run(args.iterations))
    for name, value in medians.items():
        print(f"{name:<24} {value:8.3f} ms (median of {args.iterations})")
    speedup = medians["round trip (client)"] / medians["cache hit"]
    overhead = medians["round trip (client)"] / medians["round trip (raw httpx)"]
    print(f"cache hit is {speedup:.1f}x faster than an in-process sandbox round trip; "
          f"client call costs {overhead:.2f}x raw httpx on the same app")


if __name__ == "__main__":
    main()
