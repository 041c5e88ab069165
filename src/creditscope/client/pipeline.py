"""The request pipeline every call goes through, in order: local validation ->
identity and cache lookup -> offline / key checks -> single-flight -> budget
reservation -> send (with retries) -> cache store -> ledger record -> reconcile.

``CallPipeline`` holds the client's state (HTTP pool, the store, prices, TTLs,
budget) and its one ``call``: given a typed operation (``operations.RESTAURANT_SEARCH``)
it returns ``Result[RestaurantSearch]``; given a name (the CLI, a batch, a replay) the
operation's model as a ``BaseModel``. Every read and write of the cache and the
ledger is awaited from the store (``store.py``), which runs it on its own thread: the
event loop a call runs on never touches SQLite or decompresses a body.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, overload
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel

from creditscope import __version__, operations
from creditscope.client.account_id import account_fingerprint
from creditscope.client.answer_store import answer_key, configured_ttls, lifetime, stored_entry
from creditscope.client.cache import CachedEntry, ResponseCache
from creditscope.client.curl import mask_headers
from creditscope.client.errors import (
    BudgetExceeded,
    CreditscopeError,
    InvalidApiKey,
    InvalidRequest,
    OfflineMiss,
)
from creditscope.client.ledger import CreditLedger
from creditscope.client.pricing import PriceTable
from creditscope.client.reconcile import Reconciler
from creditscope.client.records import CacheStatus, CallRecord, Result
from creditscope.client.responses import drop_rows_past_limit, parse_success, query_params
from creditscope.client.retry import RetryPolicy
from creditscope.client.sending import Answer, send_with_retries
from creditscope.client.session import BudgetRefused, Reservation
from creditscope.client.store import Store
from creditscope.client.validation import operation_named
from creditscope.client.validation import validate as validate_params
from creditscope.shown_url import shown_url

T = TypeVar("T", bound=BaseModel)

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)  # a TUI should fail fast on a dead host
# Past its longest possible run plus this, an in-flight row is a crashed process's.
ABANDON_MARGIN = 60.0
NO_TIMEOUT_ATTEMPT = 3600.0  # an attempt with no timeout set: assume an hour at most


class CallPipeline:
    """The money rules around every request; subclassed by ``DataClient``."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        cache: ResponseCache | None = None,
        ledger: CreditLedger | None = None,
        offline: bool = False,
        budget: int | None = None,
        ttls: dict[str, int] | None = None,
        timeout: httpx.Timeout | float | None = None,
        retry_policy: RetryPolicy | None = None,
        is_sandbox: bool = False,
        store: Store | None = None,
    ) -> None:
        # What every record, cache key, error and export holds: user info masked. The
        # requests still go to the URL as configured (httpx sends its user info as auth).
        self.base_url = shown_url(base_url).rstrip("/")
        self._api_key = api_key or None
        # The ledger names the account by a hash: the key itself never reaches the file.
        self.account = account_fingerprint(self.base_url, self._api_key)
        if store is None:  # the files given (or none): a store of their own around them
            store = Store(ledger if ledger is not None else CreditLedger(None), cache)
        self.store = store
        self.offline = offline
        self.budget = budget
        self.retry_policy = retry_policy or RetryPolicy()
        self.prices = PriceTable()
        self.is_sandbox = is_sandbox
        self.ttls = configured_ttls(ttls)
        self._http = httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            transport=transport,
            timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
            headers={"User-Agent": f"creditscope/{__version__}", "Accept": "application/json"},
        )
        self._in_flight: dict[str, asyncio.Task[tuple[Answer, CallRecord]]] = {}
        self._tasks: set[asyncio.Task[tuple[Answer, CallRecord]]] = set()

    # The sync implementations the store runs: use them on the store's thread
    # (``store.run``), or in tests and tools with no event loop of their own.
    @property
    def ledger(self) -> CreditLedger:
        """The store's ledger."""
        return self.store.ledger

    @ledger.setter
    def ledger(self, ledger: CreditLedger) -> None:
        self.store.ledger = ledger

    @property
    def cache(self) -> ResponseCache | None:
        """The store's answer cache (None: answers are not kept)."""
        return self.store.cache

    @property
    def reconciler(self) -> Reconciler:
        """The session's reconciler for this client's ledger (shared across rebuilds)."""
        return Reconciler.for_ledger(self.ledger, self.account)

    def validate(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Canonical params, or ``InvalidRequest(field=...)``; nothing is sent."""
        return validate_params(operation, params)

    def cache_key_of(self, op: operations.Operation[Any], clean: dict[str, Any]) -> str:
        """The request's key for the cache and single-flight (its identity)."""
        return answer_key(self.base_url, op, clean)

    def cached_entry(
        self, op: operations.Operation[Any], clean: dict[str, Any]
    ) -> CachedEntry | None:
        """The cache's entry for this request, stale or not (see ``answer_store``)."""
        return stored_entry(self.cache, self.base_url, op, clean)

    def price_of(self, operation: str) -> int:
        """Credits one successful call costs (spec table, refreshed from the catalog)."""
        return self.prices.price_of(operation)

    @overload
    async def call(
        self, operation: operations.Operation[T], params: dict[str, Any], *,
        refresh: bool = False, confirm_over_budget: bool = False,
        idempotency_key: str | None = None,
    ) -> Result[T]: ...

    @overload
    async def call(
        self, operation: str, params: dict[str, Any], *, refresh: bool = False,
        confirm_over_budget: bool = False, idempotency_key: str | None = None,
    ) -> Result[BaseModel]: ...

    async def call(
        self, operation: operations.Operation[Any] | str, params: dict[str, Any], *,
        refresh: bool = False, confirm_over_budget: bool = False,
        idempotency_key: str | None = None,
    ) -> Result[Any]:
        """Call ``operation`` (a typed ``operations`` constant, or a name) with ``params``.

        The answer is parsed with the operation's ``response_model``, so a typed
        operation's ``Result`` holds exactly the type it names.
        ``idempotency_key`` names the submission a POST belongs to: pass the same
        key for every retry of it (the error panel's Retry) so the service
        charges it once; without one, each call is a new submission.
        """
        op = operation_named(operation)
        started = time.perf_counter()
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest as exc:
            given = {k: v for k, v in params.items() if v is not None}
            await self._refused(exc, op, given, started, CacheStatus.NONE)
            raise

        key = self.cache_key_of(op, clean)
        cacheable = op.ttl is not None and self.cache is not None
        price = self.price_of(op.name)
        if cacheable and (self.offline or not refresh):
            served = await self._from_cache(op, clean, started)
            if served is not None:
                return served
        if self.offline:
            miss = OfflineMiss(
                f"{op.title} with these parameters is not cached", code="offline_miss",
                price=price,
            )
            raise await self._refused(miss, op, clean, started, CacheStatus.MISS)
        if op.requires_key and self._api_key is None:
            missing = InvalidApiKey("No API key is configured", code="missing_api_key")
            raise await self._refused(missing, op, clean, started, CacheStatus.NONE)

        leader = self._in_flight.get(key) if cacheable else None
        if leader is not None:
            # An identical call is already on the wire: wait for it, pay nothing. The
            # shield keeps this caller's cancellation from reaching the shared exchange.
            shared, first = await asyncio.shield(leader)
            rec = await self._served_free(op, clean, started, CacheStatus.HIT, price, shared.status,
                                    shared.body, shared.headers, shared.request_id,
                                    fetched_at=first.fetched_at)
            return Result(shared.data.model_copy(deep=True), rec)

        # A shared budget is another's limit: no confirmation passes it.
        confirmed = confirm_over_budget and not self.ledger.session.budget_is_shared
        reservation = self._reserve(op, price, confirmed)
        exchange = Exchange(op, clean, price, refresh, started, reservation,
                            (idempotency_key or str(uuid.uuid4())) if op.is_post else None)
        # The exchange runs in its own task: whatever happens to this caller, the
        # answer is cached and the call recorded, and waiters still get it.
        task = asyncio.get_running_loop().create_task(self._exchange(exchange))
        self._tasks.add(task)
        task.add_done_callback(self._exchange_done)
        if cacheable:
            self._in_flight[key] = task
            task.add_done_callback(
                lambda done: self._in_flight.pop(key) if self._in_flight.get(key) is done else None
            )
        answer, rec = await asyncio.shield(task)
        return Result(answer.data, rec)

    def _exchange_done(self, task: asyncio.Task[tuple[Answer, CallRecord]]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the caller may have gone, the failure is recorded

    def _reserve(self, op: operations.Operation[Any], price: int, confirmed: bool) -> Reservation:
        try:
            return self.ledger.session.reserve(price, self.budget, over_budget_ok=confirmed)
        except BudgetRefused as refused:
            shared = self.ledger.session.budget_is_shared
            lost = (f" ({refused.uncertain} of them for answers lost after the request left,"
                    " which may have been charged)" if refused.uncertain else "")
            raise BudgetExceeded(
                f"{op.title} costs {price} credits; {refused.committed} of the"
                f" {refused.budget}-credit {'shared' if shared else 'session'} budget is"
                f" spent or in flight{lost}",
                price=price, spent=refused.committed, budget=refused.budget, shared=shared,
            ) from None

    async def drain(self) -> None:
        """Wait for every exchange still on the wire to finish (and be recorded)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def abandon(self) -> None:
        """Stop waiting for the exchanges on the wire (a second Ctrl+C): each is recorded
        as cancelled and held as possibly charged, since its request may have arrived."""
        for task in list(self._tasks):
            task.cancel()

    async def cached(
        self, operation: operations.Operation[Any] | str, params: dict[str, Any]
    ) -> Result[BaseModel] | None:
        """What ``call(operation, params)`` would answer from the cache, now.

        Served and recorded exactly as ``call`` serves a cache hit (free, in the
        ledger); ``None`` when ``call`` would go further (no fresh entry, invalid
        params, not cacheable), so the caller then runs ``call`` as usual. The answer
        is returned as soon as it is read: its (free) record is written after it, in
        order, so a screen never waits on the ledger's lock to show a revisit.
        """
        op = operation_named(operation)
        if op.ttl is None or self.cache is None:
            return None
        started = time.perf_counter()
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest:
            return None  # ``call`` records the refusal
        return await self._from_cache(op, clean, started, record_first=False)

    async def _from_cache(
        self, op: operations.Operation[Any], clean: dict[str, Any], started: float,
        *, record_first: bool = True,
    ) -> Result[BaseModel] | None:
        """A usable cached answer (fresh, or any when offline), recorded as served free."""
        entry = await self.store.answer(self.base_url, op, clean)
        if entry is None or (entry.is_stale and not self.offline):
            return None
        data = parse_success(op, entry.body, entry.status, entry.headers.get("x-request-id"))
        note = drop_rows_past_limit(op, data, clean)
        self._learn_prices(op, data)
        rec = await self._served_free(
            op, clean, started, CacheStatus.STALE if entry.is_stale else CacheStatus.HIT,
            self.price_of(op.name), entry.status, entry.body, entry.headers,
            entry.headers.get("x-request-id"),
            fetched_at=datetime.fromtimestamp(entry.stored_at, UTC),  # not when it was read
            record_first=record_first,
        )
        rec.note = note
        return Result(data, rec)

    # --- the request as sent and recorded -----------------------------------------

    def _url(self, op: operations.Operation[Any], params: dict[str, Any]) -> str:
        if op.is_post or not params:
            return self.base_url + op.path
        return f"{self.base_url}{op.path}?{urlencode(query_params(params))}"

    def _headers(self, op: operations.Operation[Any]) -> dict[str, str]:
        headers: dict[str, str] = {}
        if op.requires_key and self._api_key is not None:
            headers["X-API-Key"] = self._api_key  # public endpoints never see the key
        if op.is_post:
            headers["Content-Type"] = "application/json"
        return headers

    def _record(
        self, op: operations.Operation[Any], params: dict[str, Any], started: float,
        *, cache: CacheStatus,
    ) -> CallRecord:
        return CallRecord(
            operation=op.name,
            method=op.method,
            url=self._url(op, params),
            params=dict(params),
            cache=cache,
            request_headers=mask_headers(self._headers(op)),
            latency_ms=(time.perf_counter() - started) * 1000,
            account=self.account,
        )

    async def _fail(
        self, exc: CreditscopeError, rec: CallRecord, reservation: Reservation | None = None
    ) -> None:
        rec.status = exc.status if rec.status is None else rec.status
        rec.error_code = exc.code or type(exc).__name__
        rec.error_message = exc.message
        exc.record = rec
        await self.store.record(rec, reservation)

    async def _refused(
        self, exc: CreditscopeError, op: operations.Operation[Any], params: dict[str, Any],
        started: float, cache: CacheStatus,
    ) -> CreditscopeError:
        """Record a call stopped before sending; returns ``exc`` for the caller to raise."""
        await self._fail(exc, self._record(op, params, started, cache=cache))
        return exc

    async def _served_free(
        self, op: operations.Operation[Any], clean: dict[str, Any], started: float,
        cache: CacheStatus, price: int, status: int, body: str, headers: dict[str, str],
        request_id: str | None, *, fetched_at: datetime | None, record_first: bool = True,
    ) -> CallRecord:
        """Record an answer that cost nothing (cached, or shared with an identical call);
        ``fetched_at`` is when the service produced it. Unless ``record_first``, the
        record is queued on the store and this returns before it is written."""
        rec = self._record(op, clean, started, cache=cache)
        rec.fetched_at = fetched_at
        rec.status = status
        rec.credits_saved = price
        rec.raw_body = body
        rec.response_headers = dict(headers)
        rec.request_id = request_id
        if record_first:
            await self.store.record(rec)
        else:
            self.store.record_soon(rec)
        return rec

    async def _exchange(self, ex: Exchange) -> tuple[Answer, CallRecord]:
        """Send, cache, record and reconcile one exchange; runs in its own task."""
        op = ex.op
        headers = self._headers(op)
        if ex.idempotency_key is not None:
            headers["Idempotency-Key"] = ex.idempotency_key
        rec = self._record(op, ex.clean, ex.started,
                           cache=CacheStatus.REFRESH if ex.refresh else (
                               CacheStatus.MISS if op.ttl is not None else CacheStatus.NONE))
        rec.request_headers = mask_headers(headers)
        session = self.ledger.session

        def lost_attempt() -> None:
            # The answer was lost after the request left: it may have been charged. The
            # ledger keeps it as possibly charged until a later balance settles it.
            session.hold_uncertain(ex.price)
            self.store.hold_possible(self.account, op.name, ex.price)

        reconciler = self.reconciler
        flight = await self.store.flight_started(reconciler, self._abandon_after(), op.name,
                                                 ex.price)
        recorded: CallRecord | None = None
        try:
            try:
                answer = await send_with_retries(
                    self._http, op, ex.clean, headers, rec, price=ex.price,
                    policy=self.retry_policy, base_url=self.base_url, started=ex.started,
                    on_lost=lost_attempt,
                )
            except CreditscopeError as exc:
                await self._fail(exc, rec, ex.reservation)
                recorded = rec
                raise
            except asyncio.CancelledError:
                # Only when the client itself shuts down mid-exchange: still recorded.
                lost_attempt()
                await self._fail(
                    CreditscopeError("Cancelled while in flight", code="cancelled"),
                    rec, ex.reservation)
                recorded = rec
                raise
            rec.fetched_at = datetime.now(UTC)
            await self._keep(op, ex.clean, answer)
            rec.match_grade = op.grade_of(answer.data)
            await self.store.record(rec, ex.reservation)
            recorded = rec
        finally:
            session.release(ex.reservation)
            # Reconciliation is a store job, queued once the balance is recorded.
            await self.store.flight_finished(reconciler, recorded, flight)
        return answer, rec

    def _abandon_after(self) -> float:
        """When another process may take this exchange's in-flight row for abandoned."""
        limits = self._http.timeout
        parts = (limits.connect, limits.write, limits.pool, limits.read)
        attempt = NO_TIMEOUT_ATTEMPT if None in parts else sum(p or 0.0 for p in parts)
        return self.retry_policy.longest_exchange(attempt) + ABANDON_MARGIN

    async def _keep(self, op: operations.Operation[Any], clean: dict[str, Any],
                    answer: Answer) -> None:
        if op.ttl is not None and self.cache is not None:
            await self.store.keep_answer(
                self.cache_key_of(op, clean),
                operation=op.name, params=clean, body=answer.body, status=answer.status,
                headers=dict(answer.headers), ttl=lifetime(self.ttls, op, answer.data),
            )
        self._learn_prices(op, answer.data)

    def _learn_prices(self, op: operations.Operation[Any], data: BaseModel) -> None:
        """An answer that is the price list (the operation's row says) re-prices the table."""
        catalog = op.prices_in(data)
        if catalog is not None:
            self.prices.update_from_catalog(catalog)


@dataclass(frozen=True)
class Exchange:
    """One request about to leave the client, and what it holds against the budget."""

    op: operations.Operation[Any]
    clean: dict[str, Any]
    price: int
    refresh: bool
    started: float
    reservation: Reservation
    idempotency_key: str | None
