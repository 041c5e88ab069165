"""Issue 13: money is tested for invariants. Random sequences of concurrent calls,
cancellations, answers lost after the service charged, Retry presses, cache
expiries, injected 503s and client rebuilds, against the in-process sandbox; after
every step:

- the ledger's ``spent`` is the sandbox balance's fall, except for what is held
  as uncertain (lost answers not yet settled by a later balance), never more;
- the session never spends past its budget;
- no POST submission (one Idempotency-Key) is charged twice.

Bounded (a few dozen short runs) and deterministic: events, not sleeps, order
everything; the sandbox's fault generator is seeded.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from creditscope.client import errors
from creditscope.client.client import DataClient
from creditscope.client.session import SpendSession
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from edge_support import Sandbox

CITIES = ("Lisbon", "Porto", "Madrid", "Paris", "Rome")
SEARCH = "restaurants/search"
LOOKUP = "professional_network/find_company"
EXPECTED = (errors.BudgetExceeded, errors.Timeout, errors.ServiceUnavailable)


class MoneyMachine(RuleBasedStateMachine):
    """One explorer session against one sandbox."""

    @initialize(budget=st.integers(min_value=6, max_value=40))
    def start(self, budget: int) -> None:
        self.loop = asyncio.new_event_loop()
        self.tmp = tempfile.TemporaryDirectory()
        self.sandbox = Sandbox(Path(self.tmp.name))
        self.session = SpendSession()
        self.budget = budget
        self.client = self._new_client()
        self.submissions: list[str] = []  # Idempotency-Keys of lookups, in order
        self.failed_lookup: tuple[str, str] | None = None  # (key, company name) to retry
        # The session's first balance: the point reconciliation starts from.
        self._run(self.client.call("catalog", {}))
        self._run(self.client.call(SEARCH, {"location": "Lisbon"}))

    def teardown(self) -> None:
        self._run(self.client.aclose())
        self.loop.close()
        self.tmp.cleanup()

    def _new_client(self) -> DataClient:
        return self.sandbox.client(session=self.session, budget=self.budget)

    def _run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    async def _quietly(self, coroutine: Any) -> Any:
        try:
            return await coroutine
        except EXPECTED as error:
            return error

    # --- rules ------------------------------------------------------------------------

    @rule(cities=st.lists(st.sampled_from(CITIES), min_size=1, max_size=4),
          cancel=st.none() | st.integers(min_value=0, max_value=3))
    def concurrent_searches(self, cities: list[str], cancel: int | None) -> None:
        """Searches in flight together (repeats share one request); one may be cancelled."""

        async def scenario() -> None:
            transport = self.sandbox.transport
            transport.hold, transport.gate, transport.arrived = True, asyncio.Event(), \
                asyncio.Event()
            tasks = [asyncio.ensure_future(self._quietly(self.client.call(
                SEARCH, {"location": city}))) for city in cities]
            waiting = asyncio.ensure_future(transport.arrived.wait())
            await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
            if cancel is not None and cancel < len(tasks):
                tasks[cancel].cancel()  # a newer search in the same area cancels the old
            transport.hold = False
            transport.gate.set()
            waiting.cancel()
            await asyncio.gather(*tasks, waiting, return_exceptions=True)
            await self.client.drain()

        self._run(scenario())

    @rule(city=st.sampled_from(CITIES))
    def search_whose_answer_is_lost(self, city: str) -> None:
        """The service charges, the answer times out; the GET is not re-sent."""
        self.sandbox.transport.lose_next = 1
        self._run(self._quietly(self.client.call(SEARCH, {"location": city}, refresh=True)))
        self.sandbox.transport.lose_next = 0

    @rule(name=st.sampled_from(("Northwind", "Acme", "Globex")), lost=st.booleans())
    def company_lookup(self, name: str, lost: bool) -> None:
        """A new submission: its own Idempotency-Key (its answer may be lost)."""
        key = f"submission-{len(self.submissions)}"
        self.submissions.append(key)
        self.sandbox.transport.lose_next = int(lost)
        outcome = self._run(self._quietly(
            self.client.call(LOOKUP, {"name": name}, refresh=True, idempotency_key=key)))
        self.sandbox.transport.lose_next = 0
        self.failed_lookup = (key, name) if isinstance(outcome, Exception) else None

    @rule()
    def press_retry(self) -> None:
        """The error panel's Retry: the same submission, the same key."""
        if self.failed_lookup is None:
            return
        key, name = self.failed_lookup
        outcome = self._run(self._quietly(
            self.client.call(LOOKUP, {"name": name}, refresh=True, idempotency_key=key)))
        if not isinstance(outcome, Exception):
            self.failed_lookup = None

    @rule()
    def cache_expires(self) -> None:
        """Every cached answer passes its TTL."""
        cache = self.client.cache
        assert cache is not None
        for entry in cache.entries():
            cache.set(entry.key, operation=entry.operation, params=entry.params,
                      body=entry.body, status=entry.status, headers=entry.headers, ttl=0)

    @rule(rate=st.sampled_from((0.0, 0.5)))
    def service_flaky(self, rate: float) -> None:
        """Injected 503s (never charged) on a share of requests."""
        self.sandbox.app.state.faults.fail_rate = rate

    @rule()
    def rebuild_client(self) -> None:
        """Settings saved: a new client, the same session."""
        self._run(self.client.aclose())
        self.client = self._new_client()

    # --- invariants ----------------------------------------------------------------------

    @invariant()
    def spent_matches_the_balance_fall(self) -> None:
        spent = self.session.spent()
        fall = self.sandbox.fall
        assert spent <= fall <= spent + self.session.uncertain, (spent, fall)
        if self.session.uncertain == 0:
            assert spent == fall

    @invariant()
    def never_over_budget(self) -> None:
        assert self.session.spent() <= self.budget
        assert self.session.spent() + self.session.held <= self.budget

    @invariant()
    def no_submission_charged_twice(self) -> None:
        store = self.sandbox.app.state.store
        lookups = [c for op, c in store.charges_for(key_digest(DEMO_KEY)) if op == LOOKUP]
        # Each charge stores its submission's reply under its key: one row per key.
        replies = store._db.execute(
            "SELECT COUNT(*) FROM idempotent_replies WHERE scope LIKE '%:find_company'"
        ).fetchone()[0]
        assert len(lookups) == replies <= len(self.submissions)


MoneyMachine.TestCase.settings = settings(
    max_examples=60, stateful_step_count=15, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMoneyInvariants = MoneyMachine.TestCase


class SessionsMachine(RuleBasedStateMachine):
    """Issue 23: one account over many sessions (``creditscope call``s, explorer runs) on
    one ledger file. Answers are lost after the service charged, or requests are lost
    before it could; the key is used elsewhere; the user tops up. Whenever a balance
    was just reconciled, the ledger's spend (lost attempts settled as charged
    included) is the service's balance movement, and nothing is left possibly charged;
    in between, what is possibly charged or spent elsewhere covers the difference."""

    @initialize()
    def start(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.tmp = tempfile.TemporaryDirectory()
        self.sandbox = Sandbox(Path(self.tmp.name))
        self.topped_up = 0
        self.elsewhere = 0  # credits spent with the key outside any ledger
        self.client = self.sandbox.client()
        self.reconciled = False
        self._search()  # the account's first balance: where reconciliation starts

    def teardown(self) -> None:
        self._run(self.client.aclose())
        self.loop.close()
        self.tmp.cleanup()

    def _run(self, coroutine: Any) -> Any:
        return self.loop.run_until_complete(coroutine)

    def _search(self, city: str = "Lisbon") -> None:
        try:
            self._run(self.client.call(SEARCH, {"location": city}, refresh=True))
        except errors.Timeout:
            self.reconciled = False
        else:
            self.reconciled = True  # a balance was reported with nothing else in flight

    @property
    def movement(self) -> int:
        """Credits the service took from the account."""
        return self.sandbox.fall + self.topped_up

    @rule(city=st.sampled_from(CITIES))
    def search(self, city: str) -> None:
        self._search(city)

    @rule(lost=st.integers(min_value=1, max_value=3), charged=st.booleans(),
          city=st.sampled_from(CITIES))
    def search_with_lost_attempts(self, lost: int, charged: bool, city: str) -> None:
        """``lost`` attempts time out (3: the call fails), charged or not."""
        transport = self.sandbox.transport
        transport.lose_next, transport.drop_next = (lost, 0) if charged else (0, lost)
        self._search(city)
        transport.lose_next = transport.drop_next = 0

    @rule()
    def new_session(self) -> None:
        """The process ends; another starts on the same ledger file."""
        self._run(self.client.aclose())
        self.client = self.sandbox.client()
        self.reconciled = False

    @rule(credits=st.integers(min_value=1, max_value=9))
    def spent_elsewhere(self, credits: int) -> None:
        self.sandbox.spend_elsewhere(credits)
        self.elsewhere += credits
        self.reconciled = False

    @rule(credits=st.integers(min_value=10, max_value=500), city=st.sampled_from(CITIES))
    def top_up_then_search(self, credits: int, city: str) -> None:
        """A rise only moves the starting point. (A fall between the same two balances
        would hide under it, as it would for anyone: the top-up comes between two
        reconciled calls.)"""
        if not self.reconciled:
            return
        self.sandbox.top_up(credits)
        self.topped_up += credits
        self._search(city)

    @invariant()
    def spend_is_the_balance_movement(self) -> None:
        totals = self.client.ledger.lifetime_totals()
        if self.reconciled:
            assert totals.possibly_charged == 0
            assert totals.spent == self.movement, (totals.spent, self.movement)
            assert totals.unexplained <= self.elsewhere
        else:
            assert totals.spent <= self.movement
            assert self.movement <= totals.spent + totals.possibly_charged + self.elsewhere


SessionsMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=10, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TestMoneyAcrossSessions = SessionsMachine.TestCase
