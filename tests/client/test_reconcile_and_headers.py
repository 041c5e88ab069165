"""Issue 13, items 4-8: stale is paid, reconciliation with X-Credits-Remaining, the
timeout setting, hostile header values, and unloaded lookups cached briefly."""

from __future__ import annotations

import asyncio
import json
import math
import re
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from click.testing import CliRunner

from client_fakes import BODIES, FakeService
from creditscope.cli import main
from creditscope.client import errors
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import OVERSTATED, UNEXPLAINED, CacheStatus, CallRecord
from creditscope.client.retry import RetryPolicy
from creditscope.settings import Settings, SettingsError, load_settings
from edge_support import Sandbox
from loopback_service import Answer, loopback_service

SEARCH = "restaurants/search"


@pytest.fixture
def sandbox(tmp_path: Path) -> Sandbox:
    return Sandbox(tmp_path)


# --- 4. stale is paid -------------------------------------------------------------------


async def test_an_expired_copy_is_priced_online_and_free_but_stale_offline(
    sandbox: Sandbox,
) -> None:
    online = sandbox.client(ttls={SEARCH: 0})
    await online.call(SEARCH, {"location": "Lisbon"})
    plan = online.plan(SEARCH, {"location": "Lisbon"})
    assert plan.cache is CacheStatus.STALE
    assert plan.cost == 2 and plan.words.long == "2 cr · expired"
    again = await online.call(SEARCH, {"location": "Lisbon"})
    assert again.record.credits_charged == 2
    offline = sandbox.client(offline=True)
    offline_plan = offline.plan(SEARCH, {"location": "Lisbon"})
    assert offline_plan.cost == 0 and offline_plan.words.long == "stale · free"
    await online.aclose()
    await offline.aclose()


# --- 5. reconciliation ---------------------------------------------------------------


async def test_a_lost_answer_is_settled_as_its_calls_charge_by_the_next_balance(
    sandbox: Sandbox,
) -> None:
    client = sandbox.client()
    await client.call(SEARCH, {"location": "Madrid"})  # the first balance: the starting point
    sandbox.transport.lose_next = 1  # charged, answer lost: not re-sent (issue 35)
    with pytest.raises(errors.Timeout) as lost:
        await client.call(SEARCH, {"location": "Lisbon"})
    assert lost.value.possibly_charged == 2
    assert client.ledger.session_totals().possibly_charged == 2
    result = await client.call(SEARCH, {"location": "Lisbon"})  # the user's own retry
    assert result.record.credits_charged == 2
    # Issue 23: the lost attempt was possibly charged; the balance says it was: explained.
    assert not [r for r in client.ledger.session_records if r.operation == UNEXPLAINED]
    settled = [r for r in client.ledger.session_records if r.operation == SEARCH
               and not r.method]
    assert [r.credits_charged for r in settled] == [2]
    assert settled[0].revealed_by is not None and SEARCH in settled[0].revealed_by
    assert re.fullmatch(
        r"Charged for an attempt at \d\d:\d\d:\d\d UTC whose answer was lost after the"
        r" request left \(a timeout or a dropped connection\): the service's balance shows it"
        r" was charged\.", settled[0].note or "")
    assert (settled[0].url, settled[0].params, settled[0].remaining) == ("", {}, None)
    assert settled[0].cache is CacheStatus.NONE  # no cache was involved: not a miss
    assert settled[0].account == result.record.account
    totals = client.ledger.session_totals()
    assert totals.spent == sandbox.fall == 6 and totals.unexplained == 0
    assert totals.possibly_charged == 0
    await client.aclose()


async def test_a_fall_no_call_explains_becomes_unexplained(sandbox: Sandbox) -> None:
    client = sandbox.client()
    await client.call(SEARCH, {"location": "Madrid"})  # the first balance: the starting point
    sandbox.spend_elsewhere(2)  # the same key used by another machine
    await client.call(SEARCH, {"location": "Lisbon"})
    unexplained = [r for r in client.ledger.session_records if r.operation == UNEXPLAINED]
    assert [r.credits_charged for r in unexplained] == [2]
    assert unexplained[0].revealed_by is not None and SEARCH in unexplained[0].revealed_by
    assert re.fullmatch(
        r"The service's balance fell 2 cr more than the calls recorded since \d\d:\d\d:\d\d"
        r" UTC explain\. Calls in between: restaurants/search\. Likely a charge whose answer"
        r" was lost \(a timeout\), or the same key used by another machine\.",
        unexplained[0].note or "")
    assert (unexplained[0].method, unexplained[0].url, unexplained[0].params) == ("", "", {})
    assert unexplained[0].remaining is None and unexplained[0].cache == "none"
    assert unexplained[0].account is not None
    assert unexplained[0].account == client.ledger.session_records[-1].account
    totals = client.ledger.session_totals()
    assert totals.spent == sandbox.fall == 6 and totals.unexplained == 2
    await client.aclose()


class OutOfOrder(httpx.AsyncBaseTransport):
    """Every request is charged at once, but the answers come back newest first."""

    def __init__(self, inner: httpx.AsyncBaseTransport, expected: int) -> None:
        self.inner = inner
        self.expected = expected
        self.answered: list[asyncio.Event] = []
        self.all_charged = asyncio.Event()
        self.armed = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        await response.aread()
        if not self.armed:
            return response
        mine = asyncio.Event()
        self.answered.append(mine)
        if len(self.answered) == self.expected:
            self.all_charged.set()
            self._release_next()
        await mine.wait()
        return response

    def _release_next(self) -> None:
        pending = [event for event in self.answered if not event.is_set()]
        if pending:
            pending[-1].set()

    def answered_one(self) -> None:
        self._release_next()


async def test_answers_out_of_order_never_look_like_a_difference(sandbox: Sandbox) -> None:
    transport = OutOfOrder(sandbox.transport, expected=4)
    client = sandbox.client(transport=transport)
    await client.call(SEARCH, {"location": "Madrid"})
    transport.armed = True

    async def one(city: str) -> None:
        await client.call(SEARCH, {"location": city})
        transport.answered_one()

    await asyncio.gather(*(one(c) for c in ["Lisbon", "Porto", "Paris", "Rome"]))
    remainings = [r.remaining for r in client.ledger.session_records[1:]]
    assert remainings == sorted(remainings)  # recorded out of order: lowest first
    assert client.ledger.session_totals().unexplained == 0
    assert client.ledger.session_spent() == sandbox.fall == 10
    await client.aclose()


async def test_spend_from_another_session_on_the_ledger_is_not_unexplained(
    sandbox: Sandbox,
) -> None:
    explorer = sandbox.client()
    cli = sandbox.client()  # another process: its own session, the same ledger file
    assert explorer.ledger.session_id != cli.ledger.session_id
    await explorer.call(SEARCH, {"location": "Madrid"})
    await cli.call("restaurants/menu", {"id": "rst_lisbon_pt_001"})
    await explorer.call(SEARCH, {"location": "Porto"})
    assert explorer.ledger.lifetime_totals().unexplained == 0
    assert explorer.ledger.lifetime_totals().spent == sandbox.fall
    await explorer.aclose()
    await cli.aclose()


def test_credits_json_reports_unexplained_next_to_spent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.client.records import CallRecord

    monkeypatch.setenv("CREDITSCOPE_DATA_DIR", str(tmp_path))
    ledger = CreditLedger(tmp_path / "sandbox-ledger.sqlite3")
    ledger.record(CallRecord(SEARCH, "GET", "u", {}, credits_charged=2, remaining=98))
    ledger.record(CallRecord(UNEXPLAINED, "", "", {}, credits_charged=3))
    ledger.close()
    out = CliRunner().invoke(main, ["credits", "--json"], catch_exceptions=False).output
    lifetime = json.loads(out)["lifetime"]
    assert list(lifetime)[:2] == ["spent", "unexplained"]
    assert lifetime["spent"] == 5 and lifetime["unexplained"] == 3
    text = CliRunner().invoke(main, ["credits"], catch_exceptions=False).output
    assert "Unexplained: 3" in text


# --- 5b. a balance that fell less than the charge headers said -------------------------

MENU = "restaurants/menu"


class LyingService:
    """Takes ``taken`` credits a call and says ``said`` in X-Credits-Charged; takes
    ``extra`` more, silently, with the next answer, and a top-up of ``added`` lands
    before it. ``request_ids``: whether answers carry an X-Request-Id."""

    def __init__(self, taken: int, said: int, *, request_ids: bool = True) -> None:
        self.balance = 1_000
        self.taken, self.said = taken, said
        self.added = self.extra = 0
        self.request_ids = request_ids
        self.lock = threading.Lock()  # the server answers each request in a thread
        self.together: threading.Barrier | None = None  # answer only once all arrived

    def answer(self, path: str) -> Answer:
        if self.together is not None:
            self.together.wait(30)
        with self.lock:
            self.balance += self.added - self.taken - self.extra
            self.added = self.extra = 0
            balance = self.balance
        headers = {"X-Credits-Charged": str(self.said), "X-Credits-Remaining": str(balance)}
        if self.request_ids:
            headers["X-Request-Id"] = f"req_{balance}"
        return Answer(200, BODIES[urlsplit(path).path], headers)


def _overstated(client: DataClient) -> list[CallRecord]:
    return [r for r in client.ledger.session_records if r.operation == OVERSTATED]


async def test_a_balance_that_fell_less_than_the_headers_said_is_shown_not_absorbed(
    tmp_path: Path,
) -> None:
    """An attacker's round found 15 cr recorded while the balance moved 9: the service's
    headers said more than it took. The difference is an entry of its own, and spent is
    what the balance shows from the first balance on."""
    service = LyingService(taken=3, said=5)
    with loopback_service(service.answer) as url:
        client = DataClient(url, "sk_live_lying_service_1", ledger=CreditLedger(
            tmp_path / "ledger.sqlite3"), cache=ResponseCache(tmp_path / "cache"))
        for n in range(3):
            await client.call(MENU, {"id": f"r{n}"})
        await client.aclose()
    entries = _overstated(client)
    assert [r.credits_charged for r in entries] == [-2, -2]
    assert re.fullmatch(
        r"The service charged 2 cr less than its charge headers said: its balance fell 2 cr"
        r" less than the X-Credits-Charged of the calls recorded since \d\d:\d\d:\d\d UTC\."
        r" Calls in between: restaurants/menu\. Spent counts what the balance shows\. Either"
        r" the service reports charges it does not take, or credits were refunded or added in"
        r" between: ask its support which is right\.", entries[0].note or "")
    assert entries[0].revealed_by == f"{MENU} (req_{1_000 - 6})"
    assert (entries[0].method, entries[0].url, entries[0].remaining) == ("", "", None)
    assert entries[0].account == client.ledger.session_records[0].account
    assert (entries[0].params, entries[0].cache) == ({}, CacheStatus.NONE)
    totals = client.ledger.lifetime_totals(entries[0].account)
    # 15 cr said; the balance fell 6 after the first answer (3 more before it).
    assert (totals.spent, totals.overstated, totals.unexplained) == (11, 4, 0)
    with loopback_service(service.answer) as url:  # the next run, on the same file
        later = DataClient(url, "sk_live_lying_service_1", ledger=CreditLedger(
            tmp_path / "ledger.sqlite3"), cache=ResponseCache(tmp_path / "cache"))
        await later.call(MENU, {"id": "r9"})
        await later.aclose()
    [entry] = _overstated(later)
    assert "since" in (entry.note or "") and (
        " UTC (the balance an earlier session settled). Calls in between:" in (entry.note or ""))


async def test_a_balance_that_rose_or_stood_still_is_a_new_starting_point(
    tmp_path: Path,
) -> None:
    """A top-up, or a refund or reset as large as the charges, is no difference; a fall
    of 1 cr where 5 were said is one of 4."""
    service = LyingService(taken=5, said=5)
    with loopback_service(service.answer) as url:
        client = DataClient(url, "sk_live_honest_service_1", ledger=CreditLedger(
            tmp_path / "ledger.sqlite3"), cache=ResponseCache(tmp_path / "cache"))
        await client.call(MENU, {"id": "r1"})
        service.added = 50  # the user buys credits: the balance rises past the last one
        await client.call(MENU, {"id": "r2"})
        service.added = 5  # this call's charge refunded: the balance stands still
        await client.call(MENU, {"id": "r3"})
        service.taken = 1  # said 5, took 1
        await client.call(MENU, {"id": "r4"})
        await client.aclose()
    assert [r.credits_charged for r in _overstated(client)] == [-4]
    assert client.ledger.lifetime_totals().unexplained == 0


def test_credits_says_the_service_charged_less_than_its_headers_said(
    isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three `creditscope call`s (three sessions, one ledger) on a service whose
    headers say 5 cr and whose balance moves 3: `credits` says so, plain and JSON."""
    service = LyingService(taken=3, said=5)
    monkeypatch.setenv("CREDITSCOPE_API_KEY", "sk_live_lying_service_2")
    with loopback_service(service.answer) as url:
        monkeypatch.setenv("CREDITSCOPE_BASE_URL", url)
        for n in range(3):
            called = CliRunner().invoke(main, ["call", MENU, "--id", f"r{n}"])
            assert called.exit_code == 0, called.output
    out = CliRunner().invoke(main, ["credits", "--json"], catch_exceptions=False).output
    lifetime = json.loads(out)["lifetime"]
    assert list(lifetime)[:3] == ["spent", "unexplained", "overstated"]
    assert (lifetime["spent"], lifetime["overstated"]) == (11, 4)
    text = " ".join(CliRunner().invoke(main, ["credits"], catch_exceptions=False)
                    .output.split())
    assert ("Charged less than said: the service charged 4 cr less than its charge headers"
            " said") in text
    assert "overstated 2 -4 0 0" in text  # its row: 2 entries, -4 cr spent, no errors


async def test_a_shortfall_names_the_calls_around_it_and_the_spend_from_elsewhere(
    tmp_path: Path,
) -> None:
    """Three calls of this session in flight at once, another session's menu before them,
    and 3 cr the service took silently: the entry says all of it, in a support
    engineer's words, and names the answer that showed it (one without a request id)."""
    service = LyingService(taken=2, said=2, request_ids=False)

    def session() -> DataClient:
        return DataClient(url, "sk_live_shortfall_1", ledger=CreditLedger(
            tmp_path / "ledger.sqlite3"), cache=ResponseCache(tmp_path / "cache"))

    with loopback_service(service.answer) as url:
        explorer, cli = session(), session()
        await explorer.call(SEARCH, {"location": "Lisbon"})  # the starting point
        await cli.call(MENU, {"id": "r1"})  # spend from elsewhere: 2 cr, recorded
        service.extra = 3
        service.together = threading.Barrier(3)  # all three on the wire at once
        await asyncio.gather(explorer.call(SEARCH, {"location": "Porto"}),
                             explorer.call(MENU, {"id": "r2"}),
                             explorer.call(SEARCH, {"location": "Madrid"}))
        for client in (explorer, cli):
            await client.aclose()
    [entry] = [r for r in explorer.ledger.session_records if r.operation == UNEXPLAINED]
    assert entry.credits_charged == 3  # revealed by whichever answer came back lowest:
    assert re.fullmatch(r"restaurants/(search|menu) \(no request id\)", entry.revealed_by or "")
    assert re.fullmatch(
        r"The service's balance fell 3 cr more than the calls recorded since"
        r" \d\d:\d\d:\d\d UTC explain\. Calls in between: restaurants/menu,"
        r" restaurants/search ×2\. 2 cr"
        r" spent from elsewhere \(other creditscope sessions on this ledger\) were accounted"
        r" for\. Likely a charge whose answer was lost \(a timeout\), or the same key used by"
        r" another machine\.", entry.note or "")
    assert (entry.cache, entry.remaining) == (CacheStatus.NONE, None)
    assert explorer.ledger.lifetime_totals().spent == 1_000 - service.balance


# --- 6. the timeout setting -------------------------------------------------------------


def test_creditscope_timeout_reaches_the_client(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.wiring import build_client

    monkeypatch.setenv("CREDITSCOPE_TIMEOUT", "7.5")
    settings, _ = load_settings()
    assert settings.timeout == 7.5
    client = build_client(settings.model_copy(update={"cache_dir": tmp_path / "c",
                                                      "data_dir": tmp_path / "d"}))
    assert client._http.timeout.read == 7.5
    for bad in ("0", "-1", "inf", "nan", "soon"):
        monkeypatch.setenv("CREDITSCOPE_TIMEOUT", bad)
        with pytest.raises(SettingsError):
            load_settings()


# --- 7. hostile values ----------------------------------------------------------------------


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "-5", "1e309", "99999999"])
def test_insane_retry_after_falls_back_to_the_normal_backoff(value: str) -> None:
    assert RetryPolicy().parse_retry_after(value) is None


async def test_a_429_with_infinite_retry_after_is_retried_with_backoff(
    make_client: Any, service: FakeService, retry: Any
) -> None:
    service.script = [httpx.Response(429, json={"error": {"code": "rate_limited",
                                                          "message": "slow"}},
                                     headers={"Retry-After": "inf"})]
    result = await make_client().call(SEARCH, {"location": "Lisbon"})
    assert result.record.attempts == 2
    assert retry.delays and all(math.isfinite(d) and d <= 10 for d in retry.delays)


@pytest.mark.parametrize("charged", ["-5", "2.5", "lots", "9223372036854775807",
                                     "99999999999999999999999", "1000000001", "1_000",
                                     "+7", " 7 7"])
async def test_a_hostile_credits_charged_header_is_not_trusted(
    make_client: Any, service: FakeService, charged: str
) -> None:
    service.script = [httpx.Response(200, json=BODIES["/restaurants/search"],
                                     headers={"X-Credits-Charged": charged,
                                              "X-Credits-Remaining": "-3"})]
    client = make_client()
    result = await client.call(SEARCH, {"location": "Lisbon"})
    assert result.record.credits_charged == 2  # the price, not what the header claimed
    assert result.record.remaining is None
    # The ledger's totals still add up (a huge value once overflowed SQLite's integers).
    assert client.ledger.lifetime_totals().spent == 2


# --- 8. unloaded lookups ------------------------------------------------------------------------


async def test_a_lookup_with_no_company_loaded_is_cached_for_minutes(
    make_client: Any, service: FakeService
) -> None:
    unloaded = dict(BODIES["/professional_network/find_company"])
    unloaded["matches"] = [{"company_url": "https://net.example/company/a", "company": None}]
    loaded = dict(unloaded, matches=[{"company_url": "https://net.example/company/b",
                                      "company": {"name": "Acme Two"}}])
    service.script = [httpx.Response(200, json=unloaded), httpx.Response(200, json=loaded)]
    client: DataClient = make_client()
    await client.call("professional_network/find_company", {"name": "Acme"})
    await client.call("professional_network/find_company", {"name": "Acme Two"})
    assert client.cache is not None
    lifetimes = sorted(
        entry.expires_at - entry.stored_at for entry in client.cache.entries()
    )
    assert lifetimes[0] <= 300 < lifetimes[1]


def test_settings_refuse_a_timeout_out_of_range() -> None:
    with pytest.raises(ValueError):
        Settings(timeout=0)


def test_dry_run_says_an_expired_copy_is_charged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDITSCOPE_TTL__RESTAURANTS_SEARCH", "0")  # expires at once
    runner = CliRunner()
    args = ["call", SEARCH, "--location", "Lisbon"]
    assert runner.invoke(main, args, catch_exceptions=False).exit_code == 0
    plan = runner.invoke(main, [*args, "--dry-run"], catch_exceptions=False).output
    assert "price: 2 credits (the cached copy expired, so this call is charged)" in plan
