"""The service's operations in one table: path, method, price, auth and cache policy.

Everything that needs to know "what does this call cost" or "how long may its
answer be reused" reads it from here: the sandbox's catalog and charging, the
client's pricing and cache TTLs, the CLI's operation names.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel

from creditscope import models

MINUTE = 60
HOUR = 60 * MINUTE
DAY = 24 * HOUR


@dataclass(frozen=True)
class Operation:
    """One endpoint of the data API."""

    name: str  # the path without its leading slash, e.g. "restaurants/search"
    method: str
    credits: int  # price per successful request; 0 for the public endpoints
    requires_key: bool
    ttl: int | None  # default cache lifetime in seconds; None = never cached
    response_model: type[BaseModel]
    title: str  # what a user calls it
    description: str
    defaults: tuple[tuple[str, object], ...] = ()  # spec defaults, applied before caching

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


OPERATIONS: tuple[Operation, ...] = (
    Operation(
        "ticketing/discovery", "GET", 3, True, 10 * MINUTE, models.EventFeed,
        "Events near a point",
        "Feed of ticketed events near a latitude/longitude: venue, dates, lineup and lead price.",
        (("limit", 20),),
    ),
    Operation(
        "professional_network/find_company", "POST", 10, True, 7 * DAY, models.CompanyLookup,
        "Find a company page",
        "Finds a company's page on a professional network from its name (and website) "
        "and grades the candidates.",
    ),
    Operation(
        "restaurants/search", "GET", 2, True, HOUR, models.RestaurantSearch,
        "Search restaurants",
        "Restaurants near a location, optionally filtered by cuisine.",
        (("limit", 10),),
    ),
    Operation(
        "restaurants/details", "GET", 2, True, DAY, models.RestaurantDetails,
        "Restaurant details",
        "Full listing of one restaurant: address, phone, website, hours, features.",
    ),
    Operation(
        "restaurants/menu", "GET", 5, True, DAY, models.Menu,
        "Restaurant menu",
        "Full current menu with sections, prices, dietary tags and popular items.",
    ),
    Operation(
        "restaurants/reviews", "GET", 3, True, HOUR, models.Reviews,
        "Restaurant reviews",
        "Recent diner reviews with ratings, dates and helpful votes.",
        (("limit", 10),),
    ),
    Operation(
        "catalog", "GET", 0, False, DAY, models.Catalog,
        "Catalog",
        "Every provider and endpoint with its credit price. Public.",
    ),
    Operation(
        "provider-requests", "POST", 0, False, None, models.ProviderRequestCreated,
        "Request a provider",
        "Ask for coverage of an app or site not yet supported. Public.",
    ),
)

BY_NAME: dict[str, Operation] = {op.name: op for op in OPERATIONS}
BY_PATH: dict[str, Operation] = {op.path: op for op in OPERATIONS}


def get(name: str) -> Operation:
    """The operation called ``name`` (with or without a leading slash)."""
    try:
        return BY_NAME[name.lstrip("/")]
    except KeyError:
        known = ", ".join(BY_NAME)
        raise KeyError(f"unknown operation {name!r}; known: {known}") from None
