"""Issue 23, A: reconciliation carries over from one session (a ``creditscope call``,
an explorer run) to the next on the same account, and an answer lost after the
request left is "possibly charged" until a later balance settles it. Each client
below is its own session on one shared ledger file, as separate processes are."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from client_fakes import InstantRetry
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.errors import Timeout
from creditscope.client.ledger import CreditLedger
from creditscope.client.reconcile import Reconciler
from creditscope.client.records import OVERSTATED, UNEXPLAINED, CallRecord
from creditscope.client.session import SpendSession
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from edge_support import ChargedThenHeld, Sandbox

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


async def test_a_balance_from_a_request_sent_before_a_lost_one_settles_nothing(
    sandbox: Sandbox,
) -> None:
    """A search is charged and its answer held; meanwhile a menu is charged and its
    answer lost. The held answer's balance was made before the menu's charge, so it
    cannot tell whether the menu was charged: the menu stays possibly charged (not
    released) until an answer to a later request shows it was."""
    session = SpendSession()
    held = ChargedThenHeld(sandbox.transport)
    slow = sandbox.client(session=session, transport=held)
    quick = sandbox.client(session=session)
    await quick.call(SEARCH, {"location": "Lisbon"})  # the starting point
    first = asyncio.create_task(slow.call(SEARCH, {"location": "Porto"}))
    await held.charged.wait()
    sandbox.transport.lose_next = 1
    with pytest.raises(Timeout):
        await quick.call(MENU, {"id": "rst_lisbon_pt_001"})
    held.gate.set()
    await first
    totals = quick.ledger.lifetime_totals()
    assert (totals.spent, totals.possibly_charged, sandbox.fall) == (4, 5, 9)
    await quick.call(SEARCH, {"location": "Madrid"})  # sent after the menu: it can tell
    totals = quick.ledger.lifetime_totals()
    assert (totals.spent, totals.possibly_charged, totals.unexplained) == (11, 0, 0)
    assert totals.spent == sandbox.fall and totals.by_operation[MENU].spent == 5
    for client in (slow, quick):
        await client.aclose()


async def test_an_attempt_lost_before_the_first_balance_stays_possibly_charged(
    sandbox: Sandbox,
) -> None:
    """No balance was ever seen for the account before the lost menu: none can tell
    whether it was charged, so it stays in sight, neither dropped nor counted."""
    client = sandbox.client()
    sandbox.transport.lose_next = 1
    with pytest.raises(Timeout):
        await client.call(MENU, {"id": "rst_lisbon_pt_001"})
    for city in ("Lisbon", "Porto"):
        await client.call(SEARCH, {"location": city})
    totals = client.ledger.lifetime_totals()
    assert (totals.spent, totals.possibly_charged, totals.unexplained) == (4, 5, 0)
    assert sandbox.fall == 9
    await client.aclose()


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


# --- the check, step by step (a Reconciler on a ledger file, no service) ---------------

ACCOUNT, OTHER = "account-a", "account-b"


class Session:
    """One process's reconciler on the shared ledger file, answering calls by hand."""

    def __init__(self, path: Path, account: str = ACCOUNT) -> None:
        self.ledger = CreditLedger(path)
        self.reconciler = Reconciler.for_ledger(self.ledger, account)
        self.heard: list[CallRecord | None] = []
        self.sent: dict[int | None, datetime] = {}  # when each call on the wire left
        self.ledger.subscribe(self.heard.append)

    def start(self, credits: int = 2) -> int | None:
        token = self.reconciler.started(60, SEARCH, credits)
        self.sent[token] = datetime.now(UTC)
        return token

    def answer(self, token: int | None, credits: int, remaining: int | None,
               operation: str = SEARCH) -> Any:
        """The call ``token`` was answered: charged ``credits``, the balance ``remaining``."""
        rec = CallRecord(operation, "GET", "u", {}, status=200, credits_charged=credits,
                         remaining=remaining, account=self.reconciler.account,
                         request_id=f"req_{operation}", started_at=self.sent.pop(token))
        self.ledger.record(rec)
        return self.reconciler.finished(rec, token)

    def call(self, credits: int, remaining: int | None) -> Any:
        return self.answer(self.start(credits), credits, remaining)


def _entries(ledger: CreditLedger, operation: str) -> list[int]:
    return [r.credits_charged for r in ledger.session_records if r.operation == operation]


def test_a_check_with_nothing_to_say_returns_nothing_and_a_shortfall_of_one_is_kept(
    tmp_path: Path,
) -> None:
    one = Session(tmp_path / "ledger.sqlite3")
    assert one.call(2, 998) is None  # the starting point
    assert one.call(2, 996) is None  # as recorded: nothing to report
    found = one.call(2, 993)  # 1 cr more than recorded
    assert found is not None and found.credits_charged == 1
    assert _entries(one.ledger, UNEXPLAINED) == [1]


def test_a_possible_charge_of_one_credit_is_settled_and_subscribers_hear_it(
    tmp_path: Path,
) -> None:
    one = Session(tmp_path / "ledger.sqlite3")
    one.call(2, 998)
    one.ledger.hold_possible(ACCOUNT, SEARCH, 1)  # an answer lost after it left
    one.heard.clear()
    one.call(2, 995)  # the balance shows the lost one was charged
    assert [(r.operation, r.credits_charged) for r in one.ledger.session_records
            if not r.method] == [(SEARCH, 1)]  # its operation's charge, nothing unexplained
    assert one.ledger.lifetime_totals(ACCOUNT).possibly_charged == 0
    assert None in one.heard  # the meter's "possibly charged" figure is told it changed


def test_another_accounts_charges_and_possible_charges_stay_out_of_the_check(
    tmp_path: Path,
) -> None:
    mine, theirs = Session(tmp_path / "ledger.sqlite3"), Session(
        tmp_path / "ledger.sqlite3", OTHER)
    mine.call(2, 998)
    theirs.call(5, 495)
    theirs.ledger.hold_possible(OTHER, SEARCH, 3)  # settled by their balance, never mine
    mine.call(2, 995)  # 1 cr more than mine recorded: theirs never explain it
    [entry] = [r for r in mine.ledger.session_records if r.operation == UNEXPLAINED]
    assert entry.credits_charged == 1 and "elsewhere" not in (entry.note or "")
    assert _entries(mine.ledger, OVERSTATED) == []
    assert mine.ledger.lifetime_totals(OTHER).possibly_charged == 3


def test_a_balance_another_session_recorded_lower_is_the_one_compared(
    tmp_path: Path,
) -> None:
    """This session's answer was made before another session's charge and arrived
    after it: the other session's lower balance is the newer one, so no difference is
    found in either direction."""
    path = tmp_path / "ledger.sqlite3"
    mine = Session(path)
    mine.call(2, 998)
    slow = mine.start()  # charged at once (996); its answer is late
    theirs = Session(path)
    theirs.call(5, 991)  # charged after mine; waits for mine, which is on the wire
    mine.answer(slow, 2, 996)
    assert _entries(mine.ledger, UNEXPLAINED) == _entries(mine.ledger, OVERSTATED) == []
    mine.call(2, 989)
    assert mine.ledger.lifetime_totals(ACCOUNT).spent == 11


def test_one_reconciler_per_ledger_file_account_and_session(tmp_path: Path) -> None:
    """A client rebuilt in the same session carries on the same checks; another file,
    account, session or in-memory ledger has checks of its own."""
    session = SpendSession()
    first = CreditLedger(tmp_path / "one.sqlite3", session)
    mine = Reconciler.for_ledger(first, ACCOUNT)
    assert Reconciler.for_ledger(CreditLedger(tmp_path / "one.sqlite3", session),
                                 ACCOUNT) is mine
    memory = CreditLedger(None, session)
    others = [Reconciler.for_ledger(first, OTHER),
              Reconciler.for_ledger(CreditLedger(tmp_path / "two.sqlite3", session), ACCOUNT),
              Reconciler.for_ledger(memory, ACCOUNT),
              Reconciler.for_ledger(CreditLedger(None, session), ACCOUNT),
              Reconciler.for_ledger(CreditLedger(tmp_path / "one.sqlite3"), ACCOUNT)]
    assert len({id(r) for r in [mine, *others]}) == 6
    assert Reconciler.for_ledger(memory, ACCOUNT) is others[2]


def test_another_sessions_call_on_the_wire_holds_the_check_back(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    mine, theirs = Session(path), Session(path)
    mine.call(2, 998)
    on_the_wire = theirs.start()  # charged (996), not recorded yet
    assert mine.call(2, 994) is None  # their charge may be in this balance: wait
    theirs.answer(on_the_wire, 2, 996)
    assert _entries(mine.ledger, UNEXPLAINED) == []
    assert mine.ledger.lifetime_totals(ACCOUNT).spent == 6


def test_the_latest_of_equal_balances_reveals_and_an_answer_without_one_is_fine(
    tmp_path: Path,
) -> None:
    """Three calls on the wire at once: two answers report the same, lowest balance (the
    later one names the difference), one reports none."""
    one = Session(tmp_path / "ledger.sqlite3")
    one.call(2, 998)
    tokens = [one.start(), one.start(), one.start()]
    one.answer(tokens[0], 2, 993)
    one.answer(tokens[1], 0, None, operation="catalog")
    found = one.answer(tokens[2], 0, 993, operation="catalog")
    assert found is not None and found.credits_charged == 3
    assert found.revealed_by == "catalog (req_catalog)"
    assert "Calls in between: catalog ×2, restaurants/search." in (found.note or "")


def test_subscribers_hear_of_a_release_once(tmp_path: Path) -> None:
    one = Session(tmp_path / "ledger.sqlite3")
    one.call(2, 998)
    assert [r is None for r in one.heard] == [False]  # nothing was released
    one.ledger.hold_possible(ACCOUNT, SEARCH, 5)
    one.call(2, 996)  # not charged: released, and the meter is told
    assert one.ledger.lifetime_totals(ACCOUNT).possibly_charged == 0
    one.heard.clear()
    one.call(2, 994)  # nothing released: only the call itself is heard of
    assert [r is None for r in one.heard] == [False]


def test_the_first_balance_of_an_account_is_the_lowest_any_session_recorded_meanwhile(
    tmp_path: Path,
) -> None:
    """The account's very first check: another session's answer, recorded while this
    call was on the wire, reported a lower balance; that one is the starting point."""
    path = tmp_path / "ledger.sqlite3"
    mine, theirs = Session(path), Session(path)
    theirs_other = Session(path, OTHER)
    theirs_other.call(5, 495)  # rows of another account before: not this one's
    on_the_wire = mine.start()  # charged first: 998
    theirs.call(5, 993)  # charged after; its check waits for mine
    mine.answer(on_the_wire, 2, 998)
    mine.call(2, 991)
    assert _entries(mine.ledger, UNEXPLAINED) == _entries(mine.ledger, OVERSTATED) == []
    assert mine.ledger.lifetime_totals(ACCOUNT).spent == 9


def test_another_accounts_lost_answer_never_holds_this_accounts_check_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ledger.sqlite3"
    mine, theirs = Session(path), Session(path, OTHER)
    mine.call(2, 998)
    on_the_wire = mine.start()
    theirs.ledger.hold_possible(OTHER, SEARCH, 3)  # lost after mine left: not mine
    found = mine.answer(on_the_wire, 2, 993)  # 3 cr more than recorded: found now
    assert found is not None and found.credits_charged == 3
    assert mine.ledger.lifetime_totals(OTHER).possibly_charged == 3


def test_a_ledger_that_cannot_be_written_still_lets_every_call_finish(tmp_path: Path) -> None:
    one = Session(tmp_path / "ledger.sqlite3")
    one.ledger._db.execute("PRAGMA query_only = ON")  # as a read-only file or a full disk
    for remaining in (998, 995):
        one.call(2, remaining)  # checked without the file's rows: it must not crash
    assert [r.remaining for r in one.ledger.session_records if r.method] == [998, 995]
    assert any("Could not write to the credit ledger" in w for w in one.ledger.warnings)


def test_a_first_check_starts_from_its_own_burst_not_an_older_unsettled_balance(
    tmp_path: Path,
) -> None:
    """An old answer of the account (900, never settled: a call was on the wire then),
    a top-up since: this session starts from its own answer, so a later 3 cr shortfall
    is found."""
    path = tmp_path / "ledger.sqlite3"
    old, holder = Session(path), Session(path)
    held = holder.start()
    old.call(2, 900)  # its check waits for the holder's call, which never ends well
    holder.reconciler.finished(None, held)
    mine = Session(path)
    mine.call(2, 998)
    assert mine.call(2, 993) is not None  # 3 cr more than recorded


def test_a_call_on_the_wire_holds_back_only_its_own_account(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    mine, theirs = Session(path), Session(path, OTHER)
    theirs.call(5, 495)
    mine.start()  # on the wire, on another account than theirs
    found = theirs.call(5, 488)  # 2 cr more than recorded: found now
    assert found is not None and found.credits_charged == 2


def test_a_dead_processs_call_becomes_a_possible_charge_of_its_price(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    dead, alive = Session(path), Session(path)
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    dead.ledger.pid = child.pid  # its calls name a process that has ended
    alive.call(2, 998)
    dead.start(5)  # killed mid-request: nothing more happens in it
    alive.ledger.settle_abandoned_flights()
    assert alive.ledger.lifetime_totals(ACCOUNT).possibly_charged == 5


def test_a_loss_after_the_first_balance_starts_from_the_lowest_any_session_saw(
    tmp_path: Path,
) -> None:
    """No starting point yet and an answer lost after this burst's balance was asked
    for: the starting point is that moment's lowest balance of the account, another
    session's (993) included and another account's (495) not, so the next balance
    settles the lost one as charged and finds no difference."""
    path = tmp_path / "ledger.sqlite3"
    mine, theirs = Session(path), Session(path)
    answered = mine.start()  # charged: 998
    Session(path, OTHER).call(5, 495)  # another account's balance: never this one's
    theirs.call(5, 993)  # charged after it; its check waits for mine on the wire
    lost = mine.start()  # sent after theirs, charged (991), its answer lost
    mine.answer(answered, 2, 998)  # a late answer: the balance when it was made
    mine.ledger.hold_possible(ACCOUNT, SEARCH, 2)  # the lost one may have been charged
    assert mine.reconciler.finished(None, lost) is None  # too old to tell: a start
    assert mine.call(2, 989) is None  # 993 - 2 - 2: the lost one was charged
    assert _entries(mine.ledger, UNEXPLAINED) == _entries(mine.ledger, OVERSTATED) == []
    totals = mine.ledger.lifetime_totals(ACCOUNT)
    assert (totals.spent, totals.possibly_charged) == (1000 - 989, 0)


def test_a_later_session_losing_an_answer_still_finds_a_fall_since_the_last_check(
    tmp_path: Path,
) -> None:
    """The account has a starting point (998, an earlier session's); 3 cr went elsewhere
    before this session's first answer (993), and one of its answers was lost. It waits,
    then checks from 998, not from its own 993: the whole fall is accounted for (the
    lost answer's 2 cr as charged, which the balance cannot tell apart, and 1 cr more)."""
    path = tmp_path / "ledger.sqlite3"
    earlier = Session(path)
    earlier.call(2, 998)
    mine = Session(path)
    answered, lost = mine.start(), mine.start()
    mine.answer(answered, 2, 993)
    mine.ledger.hold_possible(ACCOUNT, SEARCH, 2)
    assert mine.reconciler.finished(None, lost) is None  # too old to tell: wait
    mine.call(2, 991)
    assert _entries(mine.ledger, UNEXPLAINED) == [1]
    totals = mine.ledger.lifetime_totals(ACCOUNT)
    assert (totals.spent, totals.possibly_charged) == (1000 - 991, 0)
