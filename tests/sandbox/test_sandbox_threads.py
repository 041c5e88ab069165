"""The in-process sandbox answers on the caller's event loop and starts no threads.

A thread it left behind (FastAPI runs plain ``def`` dependencies on AnyIO's thread
pool, whose workers are not daemons) keeps Python from exiting once the loop that
started it is closed early: the explorer's in-process sandbox under any test
runner, or a script that stops its loop. The whole test run then never ends."""

from __future__ import annotations

import threading

import httpx
from sandbox_support import PATHS

from creditscope.sandbox import DEMO_KEY

WORKER_THREAD = "AnyIO worker thread"


def pool_workers() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if thread.name == WORKER_THREAD}


async def test_paid_and_refused_calls_run_without_a_thread_pool(client: httpx.AsyncClient) -> None:
    before = pool_workers()
    paid = await client.get(PATHS["search"], params={"location": "Lisbon", "limit": 2})
    refused = await client.get(
        PATHS["search"], params={"location": "Lisbon"}, headers={"X-API-Key": DEMO_KEY + "x"}
    )
    failed = await client.get(PATHS["details"], params={"id": ""})
    assert paid.status_code == 200, paid.text
    assert refused.status_code == 401
    assert failed.status_code == 400
    assert pool_workers() - before == set()
