"""Issue 35: two accounts (two services, one key each) on one ledger file, written by
two processes at once. A process is killed (kill -9) in the middle of a request that
the service charged; another request on the other account is charged and its answer
lost (a timeout); a third process sits on a request that is charged but not answered
yet; more calls follow. Checked after every step, per account:

- the ledger never records more than the service took, and what it took is covered
  by what the ledger recorded, what it holds as possibly charged, and the requests
  whose charge no ledger row can show yet (killed, or still on the wire);
- nothing is ever recorded as unexplained (no one else spends with these keys);
- once a live process's call on the account is answered with nothing of the
  account still on the wire, the account's ledger equals what its service charged,
  and nothing is left possibly charged: a killed process's row holds back only its
  own account, and only until it is seen dead; a lost answer settles on the next
  balance of the same account, never of the other.

A killed process is one whose exchange stops for good after the service charged: its
event loop is never run again and its in-flight row names a process that is gone.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import tempfile
import threading
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from client_fakes import InstantRetry
from creditscope.client import errors
from creditscope.client.account_id import account_fingerprint
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.client.session import SpendSession
from creditscope.sandbox import DEMO_KEY
from edge_support import ChargedThenHeld, Sandbox
from loopback_service import Answer, loopback_service

SEARCH = "restaurants/search"
PRICE = 2
CITIES = ("Lisbon", "Porto", "Madrid", "Paris", "Rome")
# Two services, one account each; the transports answer in-process, nothing is dialled.
SERVICES = {"A": "http://127.0.0.1:19401", "B": "http://127.0.0.1:19402"}
ACCOUNT_NAMES = tuple(SERVICES)
# Killed processes are never resumed nor collected (their frozen state would otherwise
# run its clean-up when garbage collected, which a killed process never does).
_KILLED: list[object] = []


def _dead_pid() -> int:
    """The id of a process that has ended (and was reaped)."""
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


@dataclass
class Process:
    """One creditscope process: its session, its connection to the ledger file, and a
    client per account."""

    ledger: CreditLedger
    clients: dict[str, DataClient]


class TwoAccountsMachine(RuleBasedStateMachine):
    """Two accounts, two live processes, killed and stalled ones, one ledger file."""

    @initialize()
    def start(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.services = {name: Sandbox(self.dir / name) for name in ACCOUNT_NAMES}
        for name in ACCOUNT_NAMES:
            (self.dir / name).mkdir()
        self.urls = {**SERVICES, **self.real_services()}
        self.accounts = {name: account_fingerprint(url, DEMO_KEY)
                         for name, url in self.urls.items()}
        self.processes = [self._process(), self._process()]
        self.killed = dict.fromkeys(ACCOUNT_NAMES, 0)  # credits charged to killed requests
        self.stalled: dict[str, tuple[ChargedThenHeld, asyncio.Task[Any], Process]] = {}
        self.settled = dict.fromkeys(ACCOUNT_NAMES, False)
        for name in ACCOUNT_NAMES:  # each account's first balance: where checks start
            self._answered(0, name, "Lisbon")

    def real_services(self) -> dict[str, str]:
        """Accounts whose service listens on a real socket (none here): name -> URL."""
        return {}

    def teardown(self) -> None:
        for held, task, process in self.stalled.values():
            held.gate.set()
            self.loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
            self._close(process)
        for process in self.processes:
            self._close(process)
        self.loop.close()
        self.tmp.cleanup()

    # --- processes -----------------------------------------------------------------------

    def _process(self, transports: dict[str, httpx.AsyncBaseTransport] | None = None,
                 pid: int | None = None) -> Process:
        ledger = CreditLedger(self.dir / "ledger.sqlite3", SpendSession())
        if pid is not None:
            ledger.pid = pid
        clients = {
            name: DataClient(
                self.urls[name], DEMO_KEY,
                transport=(transports or {}).get(name, self.services[name].transport),
                ledger=ledger, cache=ResponseCache(self.dir / "cache"),
                retry_policy=InstantRetry())
            for name in ACCOUNT_NAMES
        }
        return Process(ledger, clients)

    def _close(self, process: Process) -> None:
        for client in process.clients.values():
            self.loop.run_until_complete(client.aclose())

    def _answered(self, which: int, name: str, city: str) -> None:
        """A live process's search on account ``name``, answered."""
        client = self.processes[which].clients[name]
        self.loop.run_until_complete(client.call(SEARCH, {"location": city}, refresh=True))
        self.settled[name] = name not in self.stalled
        if self.settled[name]:  # the killed requests' charges are settled in the ledger
            self.killed[name] = 0

    # --- rules ----------------------------------------------------------------------------

    @rule(which=st.integers(0, 1), name=st.sampled_from(ACCOUNT_NAMES),
          city=st.sampled_from(CITIES))
    def call(self, which: int, name: str, city: str) -> None:
        self._answered(which, name, city)

    @rule(which=st.integers(0, 1), name=st.sampled_from(ACCOUNT_NAMES),
          charged=st.booleans(), city=st.sampled_from(CITIES))
    def timed_out(self, which: int, name: str, charged: bool, city: str) -> None:
        """The answer is lost after the request left (charged) or on its way (not): the
        client says possibly charged, and never sends it again."""
        faults = self.services[name].transport
        faults.lose_next, faults.drop_next = (1, 0) if charged else (0, 1)
        client = self.processes[which].clients[name]
        fall = self.services[name].fall
        try:
            self.loop.run_until_complete(client.call(SEARCH, {"location": city}, refresh=True))
        except errors.Timeout as lost:
            assert lost.possibly_charged == PRICE
        else:
            raise AssertionError("a lost answer came back")
        finally:
            faults.lose_next = faults.drop_next = 0
        assert self.services[name].fall == fall + (PRICE if charged else 0)  # sent once
        self.settled[name] = False

    @rule(name=st.sampled_from(ACCOUNT_NAMES), city=st.sampled_from(CITIES))
    def killed_mid_request(self, name: str, city: str) -> None:
        """kill -9 after the service charged and before the answer was recorded."""
        held = ChargedThenHeld(self.services[name].transport)
        doomed = self._process({name: held}, pid=_dead_pid())
        loop = asyncio.new_event_loop()
        task = loop.create_task(doomed.clients[name].call(SEARCH, {"location": city},
                                                          refresh=True))
        loop.run_until_complete(asyncio.wait_for(held.charged.wait(), 10))
        _KILLED.append((loop, task, doomed, held))  # never run again
        self.killed[name] += PRICE
        self.settled[name] = False

    @rule(name=st.sampled_from(ACCOUNT_NAMES), city=st.sampled_from(CITIES))
    def stalls(self, name: str, city: str) -> None:
        """A third, live process's request is charged and its answer is on its way."""
        if name in self.stalled:
            return
        held = ChargedThenHeld(self.services[name].transport)
        process = self._process({name: held})
        task = self.loop.create_task(process.clients[name].call(
            SEARCH, {"location": city}, refresh=True))
        self.loop.run_until_complete(asyncio.wait_for(held.charged.wait(), 10))
        self.stalled[name] = (held, task, process)
        self.settled[name] = False

    @rule(name=st.sampled_from(ACCOUNT_NAMES))
    def stalled_answer_arrives(self, name: str) -> None:
        if name not in self.stalled:
            return
        held, task, process = self.stalled.pop(name)
        held.gate.set()
        self.loop.run_until_complete(task)
        self._close(process)

    @rule(which=st.integers(0, 1))
    def process_restarts(self, which: int) -> None:
        """A process ends normally; another starts on the same file."""
        self._close(self.processes[which])
        self.processes[which] = self._process()

    # --- invariants -----------------------------------------------------------------------

    @invariant()
    def each_ledger_is_what_its_service_charged(self) -> None:
        ledger = self.processes[0].ledger
        for name in ACCOUNT_NAMES:
            totals = ledger.lifetime_totals(self.accounts[name])
            fall = self.services[name].fall
            unseen = self.killed[name] + (PRICE if name in self.stalled else 0)
            assert totals.unexplained == 0, (name, totals)
            assert totals.spent <= fall <= totals.spent + totals.possibly_charged + unseen, \
                (name, totals.spent, totals.possibly_charged, unseen, fall)
            if self.settled[name]:
                assert (totals.spent, totals.possibly_charged) == (fall, 0), \
                    (name, totals.spent, totals.possibly_charged, fall)


TwoAccountsMachine.TestCase.settings = settings(
    max_examples=80, stateful_step_count=15, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TestTwoAccountsTwoProcesses = TwoAccountsMachine.TestCase


class HeldOnTheWire:
    """Account A's service on a real socket, for a child process: a request arrives,
    the test charges it at the sandbox, and it is never answered."""

    def __init__(self) -> None:
        self.arrived = threading.Event()
        self.release = threading.Event()

    def answer(self, path: str) -> Answer | None:
        self.arrived.set()
        self.release.wait(30)  # until the child is killed and reaped (bounded)
        return None  # close without an answer: the child is gone anyway


class RealKillMachine(TwoAccountsMachine):
    """The same two accounts, where account A's calls may also come from a child
    process, a real ``creditscope call`` over a loopback socket, killed with SIGKILL
    after the service charged its request and before any answer."""

    def real_services(self) -> dict[str, str]:
        self.held = HeldOnTheWire()
        self.server = ExitStack()
        self.sigkilled = 0
        return {"A": self.server.enter_context(loopback_service(self.held.answer))}

    @initialize()
    def start(self) -> None:
        """Every example begins with a real kill on account A, after the first balances;
        the rules then run more calls (and maybe more kills) around it."""
        super().start()
        self.sigkilled_mid_request(CITIES[0])

    def teardown(self) -> None:
        self.held.release.set()
        self.server.close()
        super().teardown()

    @precondition(lambda self: self.sigkilled < 2)  # each child costs a second or so
    @rule(city=st.sampled_from(CITIES))
    def sigkilled_mid_request(self, city: str) -> None:
        self.held.arrived.clear()
        self.held.release.clear()
        env = {**os.environ, "CREDITSCOPE_BASE_URL": self.urls["A"],
               "CREDITSCOPE_API_KEY": DEMO_KEY, "CREDITSCOPE_DATA_DIR": str(self.dir),
               "CREDITSCOPE_CACHE_DIR": str(self.dir / "child-cache")}
        child = subprocess.Popen(
            [sys.executable, "-m", "creditscope", "call", SEARCH, "--location", city,
             "--refresh", "--json"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        try:
            assert self.held.arrived.wait(30), "the child's request never reached the service"
            self.services["A"].charge(PRICE)  # charged; the answer is still to come
        finally:
            os.kill(child.pid, signal.SIGKILL)
            child.wait(10)  # reaped: its in-flight row now names a process that is gone
            self.held.release.set()
        assert child.returncode == -signal.SIGKILL
        self.sigkilled += 1
        self.killed["A"] += PRICE
        self.settled["A"] = False


RealKillMachine.TestCase.settings = settings(
    max_examples=6, stateful_step_count=12, deadline=None, derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
TestTwoAccountsRealKill = RealKillMachine.TestCase
