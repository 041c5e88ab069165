"""``DataClient``: one typed async method per operation, and the money rules around them.

Every call goes: local validation -> cache -> budget -> single-flight ->
network (with retries) -> typed model, and yields a ``CallRecord`` that the
ledger keeps. The same code talks to the live service over HTTPS and to the
sandbox in-process (an ASGI transport). It never prints and never stores the key.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel, ValidationError

from creditscope import __version__, models, operations
from creditscope.client.cache import CachedEntry, ResponseCache, cache_key
from creditscope.client.curl import mask_headers, mask_key
from creditscope.client.errors import (
    BudgetExceeded,
    ConnectionFailed,
    CreditscopeError,
    InvalidApiKey,
    InvalidRequest,
    OfflineMiss,
    RateLimited,
    ServerError,
    ServiceUnavailable,
    Timeout,
    UnexpectedResponse,
    error_class_for,
)
from creditscope.client.ledger import CreditLedger
from creditscope.client.pricing import PriceTable
from creditscope.client.records import CacheStatus, CallRecord, Result
from creditscope.client.retry import RetryPolicy
from creditscope.client.validation import validate as validate_params

M = TypeVar("M", bound=BaseModel)

DEFAULT_TIMEOUT = httpx.Timeout(30.0, connect=5.0)  # a TUI should fail fast on a dead host
# Error statuses a proxy may answer without the service's JSON error shape.
_BARE_STATUS_ERRORS = {429: RateLimited, 502: ServiceUnavailable, 503: ServiceUnavailable,
                       504: ServiceUnavailable}


@dataclass
class PlannedRequest:
    """What a call would send and cost, without sending it (``--dry-run``, button labels)."""

    operation: str
    method: str
    url: str
    headers: dict[str, str]  # credentials masked
    body: dict[str, Any] | None
    price: int
    cache: CacheStatus

    @property
    def cost(self) -> int:
        """Credits the call would spend now: 0 when a fresh cached answer exists."""
        return 0 if self.cache in (CacheStatus.HIT, CacheStatus.STALE) else self.price


@dataclass
class _Answer:
    """A successful answer, shared with identical calls that waited on it."""

    data: BaseModel
    status: int
    body: str
    headers: dict[str, str]
    request_id: str | None
    joiners: list[str] = field(default_factory=list)


class DataClient:
    """The one correct way to call the data API. Use as ``async with DataClient(...)``."""

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
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self._api_key = api_key or None
        self.cache = cache
        self.ledger = ledger if ledger is not None else CreditLedger(None)
        self.offline = offline
        self.budget = budget
        self.retry_policy = retry_policy or RetryPolicy()
        self.prices = PriceTable()
        self.is_sandbox = is_sandbox
        self.ttls: dict[str, int] = {
            op.name: op.ttl for op in operations.OPERATIONS if op.ttl is not None
        }
        for name, seconds in (ttls or {}).items():
            op = operations.get(name)
            if op.ttl is not None:  # provider requests are never cached, whatever the config
                self.ttls[op.name] = int(seconds)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            transport=transport,
            timeout=timeout if timeout is not None else DEFAULT_TIMEOUT,
            headers={"User-Agent": f"creditscope/{__version__}", "Accept": "application/json"},
        )
        self._in_flight: dict[str, asyncio.Future[_Answer]] = {}

    def __repr__(self) -> str:
        return f"DataClient({self.base_url!r}, key={self.key_hint!r})"

    # --- lifecycle --------------------------------------------------------

    async def __aenter__(self) -> DataClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP connection pool."""
        await self._http.aclose()

    # --- the key ------------------------------------------------------------

    @property
    def key_hint(self) -> str:
        """The key as it may be shown: ``sk_…1234`` (empty when there is none)."""
        return mask_key(self._api_key)

    @property
    def storage_warnings(self) -> list[str]:
        """Problems with the cache or ledger files (set aside and rebuilt), to show the user."""
        found = list(self.ledger.warnings)
        if self.cache is not None:
            found += self.cache.warnings
        return found

    @property
    def has_key(self) -> bool:
        return self._api_key is not None

    def set_api_key(self, api_key: str | None) -> None:
        """Use another key from the next call on (e.g. after Settings)."""
        self._api_key = api_key or None

    # --- questions answered without sending ---------------------------------

    def validate(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Canonical params, or ``InvalidRequest(field=...)``; nothing is sent."""
        return validate_params(operation, params)

    def price_of(self, operation: str) -> int:
        """Credits one successful call costs (spec table, refreshed from the catalog)."""
        return self.prices.price_of(operation)

    def cache_state(self, operation: str, params: dict[str, Any]) -> CacheStatus:
        """HIT, STALE or MISS for this call right now (NONE if never cached); sends nothing."""
        op = operations.get(operation)
        if op.ttl is None or self.cache is None:
            return CacheStatus.NONE
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest:
            return CacheStatus.MISS
        entry = self.cache.get(cache_key(self.base_url, op.method, op.path, clean))
        if entry is None:
            return CacheStatus.MISS
        return CacheStatus.STALE if entry.is_stale else CacheStatus.HIT

    def plan(self, operation: str, params: dict[str, Any]) -> PlannedRequest:
        """The request a call would send (key masked) and its price; raises InvalidRequest."""
        op = operations.get(operation)
        clean = self.validate(op.name, params)
        return PlannedRequest(
            operation=op.name,
            method=op.method,
            url=self._url(op, clean),
            headers=mask_headers(self._headers(op)),
            body=clean if op.is_post else None,
            price=self.price_of(op.name),
            cache=self.cache_state(op.name, clean),
        )

    def recent(self, operation: str, limit: int = 20) -> list[dict[str, Any]]:
        """Params of recent cached calls to ``operation`` on this service, newest first."""
        if self.cache is None:
            return []
        op = operations.get(operation)
        prefix = f"{self.base_url} {op.method} {op.path} "
        return [entry.params for entry in self.cache.recent(op.name, limit=limit, prefix=prefix)]

    # --- the generic call -----------------------------------------------------

    async def call(
        self,
        operation: str,
        params: dict[str, Any],
        *,
        refresh: bool = False,
        confirm_over_budget: bool = False,
    ) -> Result[BaseModel]:
        """Call ``operation`` with ``params``; the typed methods are thin wrappers over this."""
        try:
            op = operations.get(operation)
        except KeyError as exc:
            raise InvalidRequest(
                str(exc.args[0]), field="operation", code="unknown_operation"
            ) from None
        started = time.perf_counter()
        try:
            clean = self.validate(op.name, params)
        except InvalidRequest as exc:
            given = {k: v for k, v in params.items() if v is not None}
            self._fail(exc, self._record(op, given, started, cache=CacheStatus.NONE))
            raise

        key = cache_key(self.base_url, op.method, op.path, clean)
        cacheable = op.ttl is not None and self.cache is not None
        price = self.price_of(op.name)
        if cacheable and (self.offline or not refresh):
            assert self.cache is not None
            entry = self.cache.get(key)
            if entry is not None and (self.offline or not entry.is_stale):
                return self._from_cache(op, clean, entry, price, started)
        if self.offline:
            miss = OfflineMiss(
                f"{op.title} with these parameters is not cached", code="offline_miss"
            )
            self._fail(miss, self._record(op, clean, started, cache=CacheStatus.MISS))
            raise miss
        if op.requires_key and self._api_key is None:
            missing = InvalidApiKey("No API key is configured", code="missing_api_key")
            self._fail(missing, self._record(op, clean, started, cache=CacheStatus.NONE))
            raise missing
        spent = self.ledger.session_spent()
        if (
            not confirm_over_budget
            and self.budget is not None
            and price > 0
            and spent + price > self.budget
        ):
            raise BudgetExceeded(
                f"{op.title} costs {price} credits; {spent} of the {self.budget}-credit"
                " session budget is spent",
                price=price, spent=spent, budget=self.budget,
            )

        if not cacheable:  # provider requests: each one is a separate submission
            answer, rec = await self._send(op, clean, price, refresh, started)
            self.ledger.record(rec)
            return Result(answer.data, rec)
        in_flight = self._in_flight.get(key)
        if in_flight is not None:
            return await self._join(op, clean, in_flight, price, started)
        future: asyncio.Future[_Answer] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            answer, rec = await self._send(op, clean, price, refresh, started)
        except asyncio.CancelledError:
            future.cancel()
            raise
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: nobody may be waiting
            raise
        else:
            future.set_result(answer)
        finally:
            del self._in_flight[key]
        self.ledger.record(rec)
        return Result(answer.data, rec)

    # --- typed operations -------------------------------------------------------

    async def discover_events(
        self, lat: float | None = None, lng: float | None = None, limit: int | None = None,
        cursor: str | None = None, *, refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.EventFeed]:
        """Events near a point (3 credits)."""
        params = {"lat": lat, "lng": lng, "limit": limit, "cursor": cursor}
        return _typed(await self.call("ticketing/discovery", params, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    async def find_company(
        self, name: str, website: str | None = None, *, refresh: bool = False,
        confirm_over_budget: bool = False,
    ) -> Result[models.CompanyLookup]:
        """A company's page on the professional network, graded (10 credits)."""
        params = {"name": name, "website": website}
        return _typed(await self.call("professional_network/find_company", params,
                                      refresh=refresh, confirm_over_budget=confirm_over_budget))

    async def search_restaurants(
        self, location: str, cuisine: str | None = None, limit: int | None = None, *,
        refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.RestaurantSearch]:
        """Restaurants near a location (2 credits)."""
        params = {"location": location, "cuisine": cuisine, "limit": limit}
        return _typed(await self.call("restaurants/search", params, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    async def restaurant_details(
        self, id: str, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.RestaurantDetails]:
        """Full listing of one restaurant (2 credits)."""
        return _typed(await self.call("restaurants/details", {"id": id}, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    async def restaurant_menu(
        self, id: str, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.Menu]:
        """Full current menu of one restaurant (5 credits)."""
        return _typed(await self.call("restaurants/menu", {"id": id}, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    async def restaurant_reviews(
        self, id: str, limit: int | None = None, *, refresh: bool = False,
        confirm_over_budget: bool = False,
    ) -> Result[models.Reviews]:
        """Recent reviews of one restaurant (3 credits)."""
        return _typed(await self.call("restaurants/reviews", {"id": id, "limit": limit},
                                      refresh=refresh, confirm_over_budget=confirm_over_budget))

    async def catalog(
        self, *, refresh: bool = False, confirm_over_budget: bool = False
    ) -> Result[models.Catalog]:
        """Every provider and endpoint with its price (public); also refreshes prices."""
        return _typed(await self.call("catalog", {}, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    async def request_provider(
        self, name: str, url: str | None = None, email: str | None = None, *,
        refresh: bool = False, confirm_over_budget: bool = False,
    ) -> Result[models.ProviderRequestCreated]:
        """Ask for coverage of a new app or site (public, never cached)."""
        params = {"name": name, "url": url, "email": email}
        return _typed(await self.call("provider-requests", params, refresh=refresh,
                                      confirm_over_budget=confirm_over_budget))

    # --- internals ------------------------------------------------------------

    def _url(self, op: operations.Operation, params: dict[str, Any]) -> str:
        if op.is_post or not params:
            return self.base_url + op.path
        return f"{self.base_url}{op.path}?{urlencode(_query(params))}"

    def _headers(self, op: operations.Operation) -> dict[str, str]:
        headers: dict[str, str] = {}
        if op.requires_key and self._api_key is not None:
            headers["X-API-Key"] = self._api_key  # public endpoints never see the key
        if op.is_post:
            headers["Content-Type"] = "application/json"
        return headers

    def _record(
        self, op: operations.Operation, params: dict[str, Any], started: float,
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
        )

    def _fail(self, exc: CreditscopeError, rec: CallRecord) -> None:
        rec.status = exc.status if rec.status is None else rec.status
        rec.error_code = exc.code or type(exc).__name__
        rec.error_message = exc.message
        exc.record = rec
        self.ledger.record(rec)

    def _from_cache(
        self, op: operations.Operation, clean: dict[str, Any], entry: CachedEntry, price: int,
        started: float,
    ) -> Result[BaseModel]:
        data = _parse_success(op, entry.body, entry.status, entry.headers.get("x-request-id"))
        if op.name == "catalog":
            self.prices.update_from_catalog(cast(models.Catalog, data))
        rec = self._record(op, clean, started,
                           cache=CacheStatus.STALE if entry.is_stale else CacheStatus.HIT)
        rec.status = entry.status
        rec.credits_saved = price
        rec.raw_body = entry.body
        rec.response_headers = dict(entry.headers)
        rec.request_id = entry.headers.get("x-request-id")
        self.ledger.record(rec)
        return Result(data, rec)

    async def _join(
        self, op: operations.Operation, clean: dict[str, Any], future: asyncio.Future[_Answer],
        price: int, started: float,
    ) -> Result[BaseModel]:
        # An identical call is already on the wire: wait for it, pay nothing.
        answer = await asyncio.shield(future)
        rec = self._record(op, clean, started, cache=CacheStatus.HIT)
        rec.status = answer.status
        rec.credits_saved = price
        rec.raw_body = answer.body
        rec.response_headers = dict(answer.headers)
        rec.request_id = answer.request_id
        self.ledger.record(rec)
        return Result(answer.data.model_copy(deep=True), rec)

    async def _send(
        self, op: operations.Operation, clean: dict[str, Any], price: int, refresh: bool,
        started: float,
    ) -> tuple[_Answer, CallRecord]:
        headers = self._headers(op)
        if op.is_post:
            # One key per logical POST, reused on its retries, so the service can de-duplicate.
            headers["Idempotency-Key"] = str(uuid.uuid4())
        rec = self._record(op, clean, started,
                           cache=CacheStatus.REFRESH if refresh else (
                               CacheStatus.MISS if op.ttl is not None else CacheStatus.NONE))
        rec.request_headers = mask_headers(headers)
        policy = self.retry_policy
        charged_on_retries = 0
        while True:
            rec.attempts += 1
            try:
                response = await self._http.request(
                    op.method, op.path,
                    params=None if op.is_post else _query(clean),
                    json=clean if op.is_post else None,
                    headers=headers,
                )
            except httpx.TransportError as exc:
                if rec.attempts <= policy.max_retries and policy.retries_exception(op.method, exc):
                    await policy.sleep(policy.backoff(rec.attempts - 1))
                    continue
                rec.latency_ms = (time.perf_counter() - started) * 1000
                rec.credits_charged = charged_on_retries
                error: CreditscopeError
                if isinstance(exc, httpx.TimeoutException):
                    error = Timeout(f"No answer from {self.base_url} in time", code="timeout")
                else:
                    error = ConnectionFailed(f"Cannot reach {self.base_url}: {exc}",
                                             code="connection_failed")
                self._fail(error, rec)
                raise error from exc
            status = response.status_code
            if status >= 400 and policy.retries_status(op.method, status):
                retry_after = policy.parse_retry_after(response.headers.get("Retry-After"))
                too_long = retry_after is not None and retry_after > policy.max_retry_after
                if not too_long and rec.attempts <= policy.max_retries:
                    charged_on_retries += _int_header(response, "X-Credits-Charged") or 0
                    delay = retry_after if retry_after is not None else policy.backoff(
                        rec.attempts - 1)
                    await policy.sleep(delay)
                    continue
            break

        body = response.text
        request_id = response.headers.get("X-Request-Id")
        reported = _int_header(response, "X-Credits-Charged")
        success = 200 <= status < 300
        charged = reported if reported is not None else (price if success else 0)
        rec.status = status
        rec.credits_charged = charged + charged_on_retries
        rec.remaining = _int_header(response, "X-Credits-Remaining")
        rec.request_id = request_id
        rec.raw_body = body
        rec.response_headers = dict(response.headers)
        rec.latency_ms = (time.perf_counter() - started) * 1000
        if not success:
            error = _error_from(response, body, request_id, policy)
            self._fail(error, rec)
            raise error
        try:
            data = _parse_success(op, body, status, request_id)
        except UnexpectedResponse as exc:
            if reported is None:
                # A failed call counts only what the service said it charged (issue 10).
                rec.credits_charged = charged_on_retries
            self._fail(exc, rec)
            raise
        if op.ttl is not None and self.cache is not None:
            self.cache.set(
                cache_key(self.base_url, op.method, op.path, clean),
                operation=op.name, params=clean, body=body, status=status,
                headers=dict(response.headers), ttl=self.ttls[op.name],
            )
        if op.name == "catalog":
            self.prices.update_from_catalog(cast(models.Catalog, data))
        answer = _Answer(data, status, body, dict(response.headers), request_id)
        return answer, rec


def _typed(result: Result[BaseModel]) -> Result[Any]:
    # The operation table guarantees the model class; this only narrows the type.
    return result


def _query(params: dict[str, Any]) -> dict[str, str]:
    """Query-string values as the service expects them (booleans lower-case)."""
    return {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in params.items()}


def _int_header(response: httpx.Response, name: str) -> int | None:
    value = response.headers.get(name)
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _parse_success(
    op: operations.Operation, body: str, status: int, request_id: str | None
) -> BaseModel:
    """The operation's model from a success body, or UnexpectedResponse with the raw body."""
    try:
        payload = json.loads(body)
    except ValueError:
        raise UnexpectedResponse(
            f"{op.title}: the answer is not JSON", status=status, code="unexpected_response",
            request_id=request_id, body=body,
        ) from None
    try:
        return op.response_model.model_validate(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        raise UnexpectedResponse(
            f"{op.title}: unexpected answer shape ({where}: {first['msg']})", status=status,
            code="unexpected_response", request_id=request_id, body=body,
        ) from None


def _error_from(
    response: httpx.Response, body: str, request_id: str | None, policy: RetryPolicy
) -> CreditscopeError:
    """The exception for an error answer; the status->class mapping lives in errors.py."""
    status = response.status_code
    retry_after = policy.parse_retry_after(response.headers.get("Retry-After"))
    try:
        detail = models.ErrorBody.model_validate_json(body).error
    except ValidationError:
        detail = None
    if detail is None:
        bare = _BARE_STATUS_ERRORS.get(status)
        if bare is None and status >= 500:
            bare = ServerError  # a proxy's HTML 500 page is still a service failure
        if bare is None:
            return UnexpectedResponse(
                f"HTTP {status} without the service's error body", status=status,
                code="unexpected_response", request_id=request_id, body=body,
            )
        cls: type[CreditscopeError] = bare
        message, code, reason = f"HTTP {status} {response.reason_phrase}".strip(), None, None
    else:
        cls = error_class_for(status, detail.code)
        message, code, reason = detail.message, detail.code, detail.reason
    common: dict[str, Any] = {
        "status": status, "code": code, "reason": reason, "request_id": request_id, "body": body,
    }
    if cls is RateLimited:
        return RateLimited(message, retry_after=retry_after, **common)
    return cls(message, **common)
