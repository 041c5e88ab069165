"""Issue 13, items 1-3: the budget is a reservation, the session outlives a rebuilt
client, a request that left is always recorded, and one submission is charged once."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from creditscope.client import errors
from creditscope.client.records import CacheStatus
from creditscope.client.session import SpendSession
from creditscope.settings import Settings
from creditscope.wiring import build_client
from edge_support import Sandbox

SEARCH = "restaurants/search"
LOOKUP = "professional_network/find_company"


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


async def test_concurrent_calls_never_pass_the_budget_together(sandbox: Sandbox) -> None:
    client = sandbox.client(budget=4)
    sandbox.transport.hold = True  # every admitted call stays on the wire until all started

    async def open_gate_when_in_flight() -> None:
        await sandbox.transport.arrived.wait()
        sandbox.transport.gate.set()

    cities = ["Lisbon", "Porto", "Madrid", "Paris"]
    outcomes = await asyncio.gather(
        *(client.call(SEARCH, {"location": city}) for city in cities),
        open_gate_when_in_flight(), return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, errors.BudgetExceeded)]
    assert len(refused) == 2
    assert client.ledger.session_spent() == 4 == sandbox.fall
    assert refused[0].spent == 4 and refused[0].budget == 4  # what is spent or in flight
    await client.aclose()


async def test_a_refused_or_failed_call_releases_its_reservation(sandbox: Sandbox) -> None:
    client = sandbox.client(budget=12)
    await client.call(SEARCH, {"location": "Madrid"})  # the session's first balance
    with pytest.raises(errors.InvalidRequest):
        await client.call(SEARCH, {"location": ""})
    assert client.ledger.session.held == 0
    sandbox.transport.lose_next = 1  # charged, answer lost: the call fails, not re-sent
    with pytest.raises(errors.Timeout):
        await client.call(SEARCH, {"location": "Porto"})
    # The lost attempt may have been charged: it stays held against the budget
    # until an answer's balance says what happened.
    assert client.ledger.session.held == 2
    await client.call(SEARCH, {"location": "Lisbon"})
    assert client.ledger.session.held == 0
    assert client.ledger.session_spent() == sandbox.fall == 2 + 2 + 2
    await client.aclose()


async def test_lost_answers_hold_the_budget_instead_of_overrunning_it(sandbox: Sandbox) -> None:
    client = sandbox.client(budget=3)
    sandbox.transport.lose_next = 3
    with pytest.raises(errors.Timeout):
        await client.call(SEARCH, {"location": "Porto"})
    assert sandbox.fall == 2  # sent once: a lost answer is never re-sent
    with pytest.raises(errors.BudgetExceeded, match="lost after the request left"):
        await client.call(SEARCH, {"location": "Lisbon"})
    await client.aclose()


async def test_the_session_outlives_a_rebuilt_client(sandbox: Sandbox) -> None:
    session = SpendSession()
    first = sandbox.client(session=session, budget=5)
    await first.call("ticketing/discovery", {"lat": 38.7, "lng": -9.1})
    await first.aclose()
    second = sandbox.client(session=session, budget=5)  # e.g. Settings saved
    with pytest.raises(errors.BudgetExceeded):
        await second.call("ticketing/discovery", {"lat": 41.1, "lng": -8.6})
    assert [r.operation for r in second.ledger.session_records] == ["ticketing/discovery"]
    assert second.ledger.session_spent() == 3
    await second.aclose()


def test_build_client_hands_the_session_on(tmp_path: Path) -> None:
    session = SpendSession()
    settings = Settings(cache_dir=tmp_path / "c", data_dir=tmp_path / "d")
    assert build_client(settings, session=session).ledger.session is session


async def test_a_cancelled_leader_is_recorded_and_its_waiter_still_served(
    sandbox: Sandbox,
) -> None:
    client = sandbox.client()
    sandbox.transport.hold = True
    leader = asyncio.create_task(client.call(SEARCH, {"location": "Lisbon"}))
    waiter = asyncio.create_task(client.call(SEARCH, {"location": "Lisbon"}))
    await sandbox.transport.arrived.wait()  # the request has left the client
    leader.cancel()  # e.g. a new search in the same area cancels the old worker
    sandbox.transport.gate.set()
    served = await waiter
    with pytest.raises(asyncio.CancelledError):
        await leader
    await client.drain()
    assert served.record.cache is CacheStatus.HIT and served.record.credits_charged == 0
    charged = [r for r in client.ledger.session_records if r.credits_charged]
    assert [(r.operation, r.credits_charged) for r in charged] == [(SEARCH, 2)]
    assert client.cache_state(SEARCH, {"location": "Lisbon"}) is CacheStatus.HIT
    assert sandbox.fall == 2 and len(sandbox.transport.requests) == 1
    await client.aclose()


async def test_a_waiter_cancelled_does_not_cancel_the_exchange(sandbox: Sandbox) -> None:
    client = sandbox.client()
    sandbox.transport.hold = True
    leader = asyncio.create_task(client.call(SEARCH, {"location": "Porto"}))
    waiter = asyncio.create_task(client.call(SEARCH, {"location": "Porto"}))
    await sandbox.transport.arrived.wait()
    waiter.cancel()
    sandbox.transport.gate.set()
    assert (await leader).record.credits_charged == 2
    with pytest.raises(asyncio.CancelledError):
        await waiter
    await client.aclose()


async def test_a_retried_lookup_reuses_its_idempotency_key_and_is_charged_once(
    sandbox: Sandbox,
) -> None:
    client = sandbox.client()
    body = {"name": "Northwind Labs", "website": "northwind-labs.co.uk"}
    sandbox.transport.lose_next = 1  # the service charges, the answer times out
    with pytest.raises(errors.Timeout):
        await client.call(LOOKUP, body, idempotency_key="submission-1")
    again = await client.call(LOOKUP, body, idempotency_key="submission-1", refresh=True)
    keys = {r.headers["Idempotency-Key"] for r in sandbox.transport.requests}
    assert keys == {"submission-1"}
    assert again.record.credits_charged == 0  # the service replayed its first answer
    assert sandbox.fall == 10


async def test_each_submission_without_a_key_is_its_own(sandbox: Sandbox) -> None:
    client = sandbox.client()
    await client.call("provider-requests", {"name": "Acme"})
    await client.call("provider-requests", {"name": "Acme"})
    keys = [r.headers["Idempotency-Key"] for r in sandbox.transport.requests]
    assert len(set(keys)) == 2
    await client.aclose()
