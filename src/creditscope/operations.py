"""The service's operations in one table, each whole: path, method, price, auth,
cache lifetime, request model (parameters, types, limits, defaults, what is
required), response model, the key fields a batch writes, which requests are
the same request (``folds``: see ``request_identity``), and the rules special to
one operation (an answer's lifetime, its match grade, whether it is the price list).

Everything reads it from here: the client's validation, pricing and cache TTLs,
the sandbox's query checks, catalog and charging, the TTL settings, the batch
columns and the CLI's operation names; the cache key, single-flight, batch
dedupe, Compare and the explorer's spend guard all read a request's identity
(``Operation.identity``). A new operation is a new row (and its models); see
ARCHITECTURE.md, "A new operation".

Each row is also a typed constant (``RESTAURANT_SEARCH: Operation[RestaurantSearch]``):
``DataClient.call(RESTAURANT_SEARCH, ...)`` returns ``Result[RestaurantSearch]``, so mypy
checks what a caller reads from the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from creditscope import models, request_identity
from creditscope.request_identity import Fold

# The model an operation answers with (``Operation[models.Menu]``).
ResponseT = TypeVar("ResponseT", bound=BaseModel)

# What a batch writes from one answer: key column -> value; the params are the request's.
KeyReader = Callable[[ResponseT, Mapping[str, Any]], dict[str, Any]]

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


@dataclass(frozen=True)
class Operation(Generic[ResponseT]):
    """One endpoint of the data API, typed by the model it answers with."""

    name: str  # the path without its leading slash, e.g. "restaurants/search"
    method: str
    credits: int  # price per successful request; 0 for the public endpoints
    requires_key: bool
    ttl: int | None  # default cache lifetime in seconds; None = never cached
    response_model: type[ResponseT]
    request_model: type[models.RequestModel]  # query parameters (GET) or body (POST)
    title: str  # what a user calls it
    description: str
    # The columns `creditscope batch` writes from an answer, and how it reads them
    # (None: each column is the answer's attribute of that name).
    key_fields: tuple[str, ...] = ()
    read_keys: KeyReader[ResponseT] | None = None
    # How a parameter's value folds into the request's identity (values the service
    # answers alike fold equal); a parameter not named here: ``same_text``.
    folds: Mapping[str, Fold] = field(default_factory=dict, hash=False)
    # The answer's list that the ``limit`` parameter bounds: rows past it are dropped.
    rows: str | None = None
    # Rules special to one operation, each None when the generic rule holds:
    # how long an answer stays fresh, given the configured TTL (default: the TTL);
    fresh_for: Callable[[ResponseT, int], int] | None = None
    # the grade Usage counts for an answer: what counts as a match (default: none);
    grade: Callable[[ResponseT], str | None] | None = None
    # the price list an answer is (the client re-prices every operation from it).
    price_list: Callable[[ResponseT], models.Catalog] | None = None

    @property
    def path(self) -> str:
        return "/" + self.name

    @property
    def is_post(self) -> bool:
        return self.method == "POST"

    @property
    def ttl_setting(self) -> str:
        """The settings field that overrides this operation's TTL, e.g. ``restaurants_search``."""
        return self.name.replace("/", "_").replace("-", "_")

    def identity(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` as this request's identity: each value folded, a value folded to
        None left out, keys sorted. What is sent stays ``params``."""
        folded = {name: self.folds.get(name, request_identity.same_text)(value)
                  for name, value in params.items() if value is not None}
        return {name: folded[name] for name in sorted(folded) if folded[name] is not None}

    def lifetime_of(self, answer: ResponseT, ttl: int) -> int:
        """Seconds ``answer`` stays fresh in the cache, the configured TTL being ``ttl``."""
        return ttl if self.fresh_for is None else self.fresh_for(answer, ttl)

    def grade_of(self, answer: ResponseT) -> str | None:
        """The match grade Usage counts for ``answer``; None: nothing to grade."""
        return None if self.grade is None else self.grade(answer)

    def prices_in(self, answer: ResponseT) -> models.Catalog | None:
        """The price list ``answer`` is, if it is one."""
        return None if self.price_list is None else self.price_list(answer)

    def keys_of(self, answer: ResponseT, params: Mapping[str, Any]) -> dict[str, Any]:
        """The key fields of ``answer`` (a ``response_model``) for a batch's output row."""
        if self.read_keys is not None:
            return self.read_keys(answer, params)
        return {name: getattr(answer, name, None) for name in self.key_fields}


# --- what a batch writes from each answer -------------------------------------------


def _company_keys(data: models.CompanyLookup, params: Mapping[str, Any]) -> dict[str, Any]:
    best = data.matches[0] if data.matches else None
    company = best.company if best is not None else None
    website_match = ""
    if best is not None:
        if not params.get("website") or best.website_match is None:
            website_match = "not checked"
        else:
            website_match = "yes" if best.website_match else "no"
    return {
        "matches": len(data.matches),
        "best_match": (company.name if company and company.name else
                       (best.serp_title or "") if best else ""),
        "best_match_url": best.company_url if best else "",
        "confidence": (best.confidence or "") if best else "",
        "name_similarity": best.name_similarity if best else None,
        "website_match": website_match,
    }


# --- rules special to one operation -------------------------------------------------

UNLOADED_LOOKUP_TTL = 5 * MINUTE  # a company lookup in which no page could be loaded
NO_MATCH = "none"  # the grade of a company lookup that matched nothing
OTHER_GRADE = "other"  # a confidence the spec does not name, or none given


def _company_lifetime(data: models.CompanyLookup, ttl: int) -> int:
    if data.matches and all(match.company is None for match in data.matches):
        # No company page could be loaded: worth asking again soon, not in a week.
        return min(ttl, UNLOADED_LOOKUP_TTL)
    return ttl


def _company_grade(data: models.CompanyLookup) -> str:
    """Its best match's confidence, or ``NO_MATCH`` when nothing matched."""
    if not data.matches:
        return NO_MATCH
    return (data.matches[0].confidence or OTHER_GRADE).lower()


def _the_catalog(data: models.Catalog) -> models.Catalog:
    return data


def _event_keys(data: models.EventFeed, _: Mapping[str, Any]) -> dict[str, Any]:
    return {"events": len(data.events), "first_event": data.events[0].name if data.events else ""}


def _search_keys(data: models.RestaurantSearch, _: Mapping[str, Any]) -> dict[str, Any]:
    top = data.results[0] if data.results else None
    return {"total": data.total, "top_result": top.name if top else "",
            "top_result_id": top.id if top else ""}


def _menu_keys(data: models.Menu, _: Mapping[str, Any]) -> dict[str, Any]:
    items = sum(len(section.items) for section in data.sections)
    return {"currency": data.currency, "sections": len(data.sections), "items": items}


def _catalog_keys(data: models.Catalog, _: Mapping[str, Any]) -> dict[str, Any]:
    return {"providers": len(data.providers), "endpoints": data.totalEndpoints}


def _provider_keys(data: models.ProviderRequestCreated, _: Mapping[str, Any]) -> dict[str, Any]:
    return {"ok": data.ok, "request_id": data.id}


EVENTS: Operation[models.EventFeed] = Operation(
    "ticketing/discovery", "GET", 3, True, 10 * MINUTE, models.EventFeed,
    models.EventFeedQuery,
    "Events near a point",
    "Feed of ticketed events near a latitude/longitude: venue, dates, lineup and lead price.",
    ("events", "first_event"), _event_keys,
    folds={"cursor": request_identity.exact}, rows="events",
)

FIND_COMPANY: Operation[models.CompanyLookup] = Operation(
    "professional_network/find_company", "POST", 10, True, 7 * DAY, models.CompanyLookup,
    models.FindCompanyRequest,
    "Find a company page",
    "Finds a company's page on a professional network from its name (and website) "
    "and grades the candidates.",
    ("matches", "best_match", "best_match_url", "confidence", "name_similarity",
     "website_match"), _company_keys,
    folds={"name": request_identity.company_name, "website": request_identity.website},
    fresh_for=_company_lifetime, grade=_company_grade,
)

RESTAURANT_SEARCH: Operation[models.RestaurantSearch] = Operation(
    "restaurants/search", "GET", 2, True, HOUR, models.RestaurantSearch,
    models.RestaurantSearchQuery,
    "Search restaurants",
    "Restaurants near a location, optionally filtered by cuisine.",
    ("total", "top_result", "top_result_id"), _search_keys,
    folds={"location": request_identity.place}, rows="results",
)

RESTAURANT_DETAILS: Operation[models.RestaurantDetails] = Operation(
    "restaurants/details", "GET", 2, True, DAY, models.RestaurantDetails,
    models.RestaurantQuery,
    "Restaurant details",
    "Full listing of one restaurant: address, phone, website, hours, features.",
    ("name", "rating", "address"),
)

RESTAURANT_MENU: Operation[models.Menu] = Operation(
    "restaurants/menu", "GET", 5, True, DAY, models.Menu,
    models.RestaurantQuery,
    "Restaurant menu",
    "Full current menu with sections, prices, dietary tags and popular items.",
    ("currency", "sections", "items"), _menu_keys,
)

RESTAURANT_REVIEWS: Operation[models.Reviews] = Operation(
    "restaurants/reviews", "GET", 3, True, HOUR, models.Reviews,
    models.ReviewsQuery,
    "Restaurant reviews",
    "Recent diner reviews with ratings, dates and helpful votes.",
    ("total", "average_rating"), rows="reviews",
)

CATALOG: Operation[models.Catalog] = Operation(
    "catalog", "GET", 0, False, DAY, models.Catalog,
    models.NoParameters,
    "Catalog",
    "Every provider and endpoint with its credit price. Public.",
    ("providers", "endpoints"), _catalog_keys, price_list=_the_catalog,
)

PROVIDER_REQUESTS: Operation[models.ProviderRequestCreated] = Operation(
    "provider-requests", "POST", 0, False, None, models.ProviderRequestCreated,
    models.ProviderRequest,
    "Request a provider",
    "Ask for coverage of an app or site not yet supported. Public.",
    ("ok", "request_id"), _provider_keys,
)

OPERATIONS: tuple[Operation[Any], ...] = (
    EVENTS, FIND_COMPANY, RESTAURANT_SEARCH, RESTAURANT_DETAILS,
    RESTAURANT_MENU, RESTAURANT_REVIEWS, CATALOG, PROVIDER_REQUESTS,
)

BY_NAME: dict[str, Operation[Any]] = {op.name: op for op in OPERATIONS}
BY_PATH: dict[str, Operation[Any]] = {op.path: op for op in OPERATIONS}


def get(name: str) -> Operation[Any]:
    """The operation called ``name`` (with or without a leading slash)."""
    try:
        return BY_NAME[name.lstrip("/")]
    except KeyError:
        known = ", ".join(BY_NAME)
        raise KeyError(f"unknown operation {name!r}; known: {known}") from None


def identity_key(operation: str, params: Mapping[str, Any]) -> str:
    """One string per distinct request of ``operation`` (see ``Operation.identity``)."""
    op = get(operation)
    folded = json.dumps(op.identity(params), sort_keys=True, ensure_ascii=False,
                        separators=(",", ":"), default=str)
    return f"{op.name} {folded}"


@contextmanager
def registered(op: Operation[ResponseT]) -> Iterator[Operation[ResponseT]]:
    """``op`` in the table for the duration of the block (a test's made-up operation):
    everything that reads the table at call time sees it, then it is gone again."""
    global OPERATIONS
    if op.name in BY_NAME or op.path in BY_PATH:
        raise ValueError(f"operation {op.name!r} is already in the table")
    OPERATIONS = (*OPERATIONS, op)
    BY_NAME[op.name], BY_PATH[op.path] = op, op
    try:
        yield op
    finally:
        OPERATIONS = tuple(known for known in OPERATIONS if known is not op)
        del BY_NAME[op.name], BY_PATH[op.path]
