"""Issue 13, item 5 across processes: another session's call on the wire (charged by
the service, not yet recorded in the shared ledger) is never taken for a difference,
and a crashed process's in-flight row does not hold reconciliation back for ever."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from creditscope.client import ledger as ledger_module
from creditscope.client.records import UNEXPLAINED
from edge_support import ChargedThenHeld, Sandbox

SEARCH = "restaurants/search"
MENU = "restaurants/menu"


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


def _unexplained(client: object) -> list[int]:
    records = client.ledger.session_records  # type: ignore[attr-defined]
    return [r.credits_charged for r in records if r.operation == UNEXPLAINED]


async def test_another_sessions_charge_on_the_wire_is_not_a_difference(
    sandbox: Sandbox,
) -> None:
    explorer = sandbox.client()
    held = ChargedThenHeld(sandbox.transport)
    cli = sandbox.client(transport=held)  # another process: own session, same ledger file
    await explorer.call(SEARCH, {"location": "Madrid"})  # the starting point
    on_the_wire = asyncio.create_task(cli.call(MENU, {"id": "rst_lisbon_pt_001"}))
    await held.charged.wait()  # the service charged the menu; the ledger has no row yet
    await explorer.call(SEARCH, {"location": "Porto"})  # explorer quiet: would check now
    assert _unexplained(explorer) == []
    assert explorer.ledger.lifetime_totals().unexplained == 0
    held.gate.set()
    await on_the_wire  # the other session records its charge
    await explorer.call(SEARCH, {"location": "Paris"})  # the deferred check runs
    lifetime = explorer.ledger.lifetime_totals()
    assert lifetime.unexplained == 0 and _unexplained(cli) == []
    assert lifetime.spent == sandbox.fall and lifetime.calls == 4
    # The check did happen: a real loss afterwards is still found.
    sandbox.spend_elsewhere(2)
    await explorer.call(SEARCH, {"location": "Rome"})
    assert _unexplained(explorer) == [2]
    assert explorer.ledger.lifetime_totals().spent == sandbox.fall
    await explorer.aclose()
    await cli.aclose()


async def test_a_crashed_processs_in_flight_row_stops_holding_checks_back(
    sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    explorer = sandbox.client()
    crashed = sandbox.client()  # its exchange started, then the process died
    await explorer.call(SEARCH, {"location": "Madrid"})
    # A 5 cr menu on the wire; the 2 cr fall below is not it (it would have cost 5).
    crashed.ledger.flight_started(600.0, crashed.account, "restaurants/menu", 5)
    sandbox.spend_elsewhere(2)  # the same key, on a machine no ledger here sees
    await explorer.call(SEARCH, {"location": "Lisbon"})
    assert _unexplained(explorer) == []  # the row is young: it might be a real call
    later = ledger_module.time.time() + 601.0
    monkeypatch.setattr(ledger_module.time, "time", lambda: later)
    await explorer.call(SEARCH, {"location": "Porto"})
    assert _unexplained(explorer) == [2]  # past its limit the row no longer blocks
    assert explorer.ledger.others_in_flight(explorer.account) == 0  # it was cleared away
    assert explorer.ledger.lifetime_totals().possibly_charged == 0  # its 5 cr: not charged
    assert explorer.ledger.lifetime_totals().spent == sandbox.fall
    await explorer.aclose()
    await crashed.aclose()
