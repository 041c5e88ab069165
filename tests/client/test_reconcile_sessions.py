"""Issue 23, A: reconciliation carries over from one session (a ``creditscope call``,
an explorer run) to the next on the same account, and an answer lost after the
request left is "possibly charged" until a later balance settles it. Each client
below is its own session on one shared ledger file, as separate processes are."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest

from client_fakes import InstantRetry
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.errors import Timeout
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import UNEXPLAINED, CallRecord
from creditscope.client.session import SpendSession
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from edge_support import Sandbox

SEARCH = "restaurants/search"
MENU = "restaurants/menu"
FIND = "professional_network/find_company"
OTHER_KEY = "sk_test_other_account_4242"


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


def _unexplained(client: DataClient) -> list[int]:
    return [r.credits_charged for r in client.ledger.session_records
            if r.operation == UNEXPLAINED]


def _lost_and_charged(client: DataClient) -> list[CallRecord]:
    """Entries for attempts whose answer was lost and the balance showed charged."""
    return [r for r in client.ledger.session_records
            if r.operation != UNEXPLAINED and not r.method]


async def _one_call(sandbox: Sandbox, city: str, **options: object) -> DataClient:
    """One short session: a search, then the client closes (the process ends)."""
    client = sandbox.client(**options)
    await client.call(SEARCH, {"location": city})
    await client.aclose()
    return client


async def test_the_lost_charge_of_a_menu_retried_by_hand_is_counted_once(
    sandbox: Sandbox,
) -> None:
    await _one_call(sandbox, "Lisbon")  # one ordinary call: 2 credits
    second = sandbox.client()  # then ``call restaurants/menu``: charged, stalled
    sandbox.transport.lose_next = 1
    with pytest.raises(Timeout):  # not re-sent by the client (issue 35)
        await second.call(MENU, {"id": "rst_lisbon_pt_001"})
    await second.call(MENU, {"id": "rst_lisbon_pt_001"})  # the user runs it again
    assert sandbox.fall == 12
    lifetime = second.ledger.lifetime_totals()
    assert lifetime.spent == 12 and lifetime.unexplained == 0
    assert lifetime.possibly_charged == 0
    assert [r.credits_charged for r in _lost_and_charged(second)] == [5]
    assert _lost_and_charged(second)[0].operation == MENU
    await second.aclose()


async def test_a_fall_between_two_sessions_becomes_unexplained(sandbox: Sandbox) -> None:
    await _one_call(sandbox, "Lisbon")
    sandbox.spend_elsewhere(3)  # the key used elsewhere while no creditscope ran
    second = await _one_call(sandbox, "Porto")
    assert _unexplained(second) == [3]
    note = second.ledger.session_records[-1].note or ""
    assert re.fullmatch(
        r"The service's balance fell 3 cr more than the calls recorded since \d\d:\d\d:\d\d"
        r" UTC \(the balance an earlier session settled\) explain\. Calls in between:"
        r" restaurants/search\. Likely a charge whose answer was lost \(a timeout\), or the"
        r" same key used by another machine\.", note)
    lifetime = second.ledger.lifetime_totals()
    assert lifetime.unexplained == 3 and lifetime.spent == sandbox.fall == 7


async def test_a_top_up_between_sessions_is_not_an_error(sandbox: Sandbox) -> None:
    await _one_call(sandbox, "Lisbon")
    sandbox.top_up(500)
    second = await _one_call(sandbox, "Porto")
    assert _unexplained(second) == []
    # The top-up moved the starting point: a real fall afterwards is still found.
    sandbox.spend_elsewhere(2)
    third = await _one_call(sandbox, "Madrid")
    assert _unexplained(third) == [2]
    assert third.ledger.lifetime_totals().spent == sandbox.fall + 500


async def test_an_attempt_that_timed_out_is_possibly_charged_until_a_balance_settles_it(
    sandbox: Sandbox,
) -> None:
    await _one_call(sandbox, "Lisbon")
    failing = sandbox.client()
    sandbox.transport.lose_next = 1  # charged, answer lost: sent once, never again
    with pytest.raises(Timeout):
        await failing.call(MENU, {"id": "rst_lisbon_pt_001"})
    assert failing.ledger.session_totals().possibly_charged == 5
    lifetime = failing.ledger.lifetime_totals()
    assert (lifetime.spent, lifetime.possibly_charged, sandbox.fall) == (2, 5, 7)
    await failing.aclose()
    later = await _one_call(sandbox, "Porto")  # the next session's balance settles it
    lifetime = later.ledger.lifetime_totals()
    assert (lifetime.spent, lifetime.possibly_charged, lifetime.unexplained) == (9, 0, 0)
    assert lifetime.spent == sandbox.fall
    assert lifetime.by_operation[MENU].spent == 5


async def test_an_attempt_that_was_not_charged_is_released(sandbox: Sandbox) -> None:
    await _one_call(sandbox, "Lisbon")
    failing = sandbox.client()
    sandbox.transport.drop_next = 1  # timed out before reaching the service
    with pytest.raises(Timeout):
        await failing.call(MENU, {"id": "rst_lisbon_pt_001"})
    assert failing.ledger.lifetime_totals().possibly_charged == 5
    await failing.aclose()
    later = await _one_call(sandbox, "Porto")
    lifetime = later.ledger.lifetime_totals()
    assert (lifetime.spent, lifetime.possibly_charged, lifetime.unexplained) == (4, 0, 0)
    assert lifetime.spent == sandbox.fall


# --- accounts never mix -----------------------------------------------------------------


def _client(tmp_path: Path, base_url: str, key: str,
            transport: httpx.AsyncBaseTransport) -> DataClient:
    return DataClient(base_url, key, transport=transport,
                      ledger=CreditLedger(tmp_path / "ledger.sqlite3"),
                      cache=ResponseCache(tmp_path / "cache"), retry_policy=InstantRetry())


async def test_two_keys_on_one_ledger_never_reconcile_against_each_other(
    tmp_path: Path,
) -> None:
    app = create_app(SandboxConfig(db_path=None, keys={DEMO_KEY: 10_000, OTHER_KEY: 500}))
    transport = httpx.ASGITransport(app=app)
    explorer = _client(tmp_path, SANDBOX_BASE_URL, DEMO_KEY, transport)  # stays open
    for city in ("Lisbon", "Porto", "Madrid"):
        await explorer.call(SEARCH, {"location": city})
        other = _client(tmp_path, SANDBOX_BASE_URL, OTHER_KEY, transport)  # a CLI call
        await other.call(SEARCH, {"location": city}, refresh=True)  # the cache is shared
        await other.aclose()
        assert _unexplained(other) == []
    later = _client(tmp_path, SANDBOX_BASE_URL, DEMO_KEY, transport)  # a new session
    await later.call(SEARCH, {"location": "Rome"})
    assert _unexplained(explorer) == [] and _unexplained(later) == []
    assert later.ledger.lifetime_totals().unexplained == 0
    store = app.state.store
    assert store.balance(key_digest(DEMO_KEY)) == 10_000 - 8
    assert store.balance(key_digest(OTHER_KEY)) == 500 - 6
    await explorer.aclose()
    await later.aclose()
    ledger_bytes = b"".join(path.read_bytes() for path in tmp_path.glob("ledger.sqlite3*"))
    assert OTHER_KEY.encode() not in ledger_bytes and DEMO_KEY.encode() not in ledger_bytes


async def test_two_services_with_one_key_never_reconcile_against_each_other(
    tmp_path: Path,
) -> None:
    here, there = Sandbox(tmp_path), Sandbox(tmp_path)
    there.spend_elsewhere(100)  # the other service's balance is far from this one's
    explorer = _client(tmp_path, SANDBOX_BASE_URL, DEMO_KEY, here.transport)  # stays open
    for city in ("Lisbon", "Porto"):
        await explorer.call(SEARCH, {"location": city})
        other = _client(tmp_path, "https://other.example.test", DEMO_KEY, there.transport)
        await other.call(SEARCH, {"location": city})
        await other.aclose()
        assert _unexplained(other) == []
    assert _unexplained(explorer) == []
    assert explorer.ledger.lifetime_totals().spent == here.fall + there.fall - 100
    await explorer.aclose()


class LostAfterTheOthers(httpx.AsyncBaseTransport):
    """Loses (never charges) the request for ``name`` once ``release`` is set; the rest
    reach the sandbox."""

    def __init__(self, inner: httpx.AsyncBaseTransport, name: str) -> None:
        self.inner, self.name, self.release = inner, name.encode(), asyncio.Event()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if self.name in request.content:
            await self.release.wait()
            raise httpx.ReadTimeout("lost on the way, never charged", request=request)
        return await self.inner.handle_async_request(request)


async def test_a_lost_attempt_before_any_quiet_balance_is_settled_by_a_later_session(
    tmp_path: Path,
) -> None:
    # A batch's requests all in flight at once, the first answered (a balance) and a later
    # one lost on the way, never charged: no quiet moment came before the loss, so that
    # session never had a starting balance. Before, each later session only set one of
    # its own, after the loss, and the attempt stayed "possibly charged" forever.
    sandbox = Sandbox(tmp_path)
    losing = LostAfterTheOthers(sandbox.transport, "Globex")
    first = sandbox.client(transport=losing)
    lost = asyncio.create_task(first.call(FIND, {"name": "Globex"}))
    await asyncio.sleep(0.05)  # on the wire
    await first.call(FIND, {"name": "Acme"})  # a balance, while the other is in flight
    losing.release.set()
    with pytest.raises(Timeout):
        await lost
    assert first.ledger.lifetime_totals().possibly_charged == 10
    await first.aclose()
    first.ledger.close()

    later = sandbox.client(session=SpendSession())
    await later.call(FIND, {"name": "Initech"})
    totals = later.ledger.lifetime_totals()
    assert totals.spent == sandbox.fall == 20  # the balance: the lost one was not charged
    assert totals.possibly_charged == 0 and totals.unexplained == 0
    await later.aclose()
