"""Pydantic models for every resource, request and error body of the data API.

Field names follow ``spec/data-api.md`` exactly. The same models serve both
sides: the sandbox builds them with every field filled in, and the client
parses with them tolerantly (unknown fields are kept, a missing optional field
is ``None``). Only the fields a screen cannot work without are required; a
success body missing one of those is an unexpected response.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from typing import Annotated, Any

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
)

# The requests' models live in request_models.py; re-exported, so callers say models.X.
from creditscope.request_models import (
    CUISINES as CUISINES,
)
from creditscope.request_models import (
    EMAIL_PATTERN as EMAIL_PATTERN,
)
from creditscope.request_models import (
    MAX_TEXT_LENGTH as MAX_TEXT_LENGTH,
)
from creditscope.request_models import (
    URL_PATTERN as URL_PATTERN,
)
from creditscope.request_models import (
    Cuisine as Cuisine,
)
from creditscope.request_models import (
    EventFeedQuery as EventFeedQuery,
)
from creditscope.request_models import (
    FilledText as FilledText,
)
from creditscope.request_models import (
    FindCompanyRequest as FindCompanyRequest,
)
from creditscope.request_models import (
    NoParameters as NoParameters,
)
from creditscope.request_models import (
    ProviderRequest as ProviderRequest,
)
from creditscope.request_models import (
    QueryModel as QueryModel,
)
from creditscope.request_models import (
    RequestModel as RequestModel,
)
from creditscope.request_models import (
    RestaurantQuery as RestaurantQuery,
)
from creditscope.request_models import (
    RestaurantSearchQuery as RestaurantSearchQuery,
)
from creditscope.request_models import (
    ReviewsQuery as ReviewsQuery,
)
from creditscope.request_models import (
    max_length_of as max_length_of,
)
from creditscope.request_models import (
    unpaired as unpaired,
)

# --- scalar types ---------------------------------------------------------


def format_timestamp(value: datetime) -> str:
    """``YYYY-MM-DDTHH:MM:SS.mmmZ`` in UTC, as the spec writes timestamps."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def _parse_timestamp(value: Any) -> Any:
    # Tolerate a naive timestamp (taken as UTC) and epoch seconds.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value, tz=UTC)
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    if isinstance(value, str) and value and not re.search(r"(Z|[+-]\d{2}:?\d{2})$", value):
        return value + "Z"
    return value


Timestamp = Annotated[
    datetime,
    BeforeValidator(_parse_timestamp),
    PlainSerializer(format_timestamp, return_type=str, when_used="json-unless-none"),
]

# An alias, because a field called ``date`` shadows the type inside its class.
CalendarDate = date

HOURS_PATTERN = re.compile(r"^([01]\d|2[0-4]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$")


class ApiModel(BaseModel):
    """Base for response resources: unknown fields are kept, not errors."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


# --- errors -----------------------------------------------------------------


class ErrorDetail(ApiModel):
    code: str
    message: str
    reason: str | None = None


class ErrorBody(ApiModel):
    """``{"error": {"code", "message", "reason"?}}``."""

    error: ErrorDetail


# --- events -----------------------------------------------------------------


class FeedLocation(ApiModel):
    lat: float
    lng: float
    nearest_city: str | None = None


class EventImages(ApiModel):
    square: str | None = None
    landscape: str | None = None


class Venue(ApiModel):
    id: int | None = None
    name: str | None = None
    address: str | None = None
    city: str | None = None
    country_code: str | None = None
    latitude: float | None = None
    longitude: float | None = None


class EventDate(ApiModel):
    start: Timestamp | None = None
    end: Timestamp | None = None
    timezone: str | None = None
    on_sale: Timestamp | None = None


class EventPrice(ApiModel):
    """Lead pricing. ``amount`` and ``amount_from`` are minor units (cents)."""

    amount: int | None = None
    currency: str | None = None
    amount_from: int | None = None
    display: str | None = None


class Event(ApiModel):
    id: str
    name: str
    status: str | None = None
    url: str | None = None
    images: EventImages | None = None
    venue: Venue | None = None
    date: EventDate | None = None
    price: EventPrice | None = None
    lineup: list[str] = Field(default_factory=list)
    tag: str | None = None


class EventFeed(ApiModel):
    """Response of ``GET /ticketing/discovery``."""

    location: FeedLocation | None = None
    count: int = 0
    cursor: str | None = None
    events: list[Event]

    @property
    def next_cursor(self) -> str | None:
        """The cursor of the next page, or None on the last page ("" counts as none)."""
        return self.cursor or None


# --- company lookup -----------------------------------------------------------


class Company(ApiModel):
    slug: str | None = None
    name: str | None = None
    url: str | None = None
    logo: str | None = None
    tagline: str | None = None
    description: str | None = None
    website: str | None = None
    industry: str | None = None
    company_size: str | None = None
    headquarters: str | None = None
    organization_type: str | None = None
    specialties: str | None = None
    followers: int | None = None
    employees_on_network: int | None = None
    organization_id: str | None = None


class Match(ApiModel):
    company_url: str
    serp_title: str | None = None
    serp_snippet: str | None = None
    company: Company | None = None
    website_match: bool | None = None
    name_similarity: float | None = None
    confidence: str | None = None

    @field_validator("name_similarity")
    @classmethod
    def _similarity_as_fraction(cls, value: float | None) -> float | None:
        # The spec does not fix the range; a service answering 0..100 is
        # brought to the 0..1 scale the screens use.
        if value is not None and value > 1.0:
            return value / 100.0
        return value


class CompanyLookup(ApiModel):
    """Response of ``POST /professional_network/find_company``."""

    query: str = ""
    queries: list[str] = Field(default_factory=list)
    count: int = 0
    matches: list[Match]


# --- restaurants --------------------------------------------------------------

class RestaurantSummary(ApiModel):
    id: str
    name: str
    cuisine: str | None = None
    rating: float | None = None
    review_count: int | None = None
    price_level: int | None = None
    address: str | None = None
    distance_km: float | None = None
    open_now: bool | None = None


class RestaurantSearch(ApiModel):
    """Response of ``GET /restaurants/search``."""

    location: str = ""
    total: int = 0
    results: list[RestaurantSummary]


class Coordinates(ApiModel):
    lat: float
    lng: float


class RestaurantDetails(ApiModel):
    """Response of ``GET /restaurants/details``."""

    id: str
    name: str
    cuisine: str | None = None
    rating: float | None = None
    review_count: int | None = None
    price_level: int | None = None
    address: str | None = None
    phone: str | None = None
    website: str | None = None
    coordinates: Coordinates | None = None
    hours: dict[str, str] = Field(default_factory=dict)
    features: list[str] = Field(default_factory=list)


class MenuItem(ApiModel):
    id: str | None = None
    name: str
    description: str | None = None
    price: float | None = None
    dietary: list[str] = Field(default_factory=list)
    popular: bool = False


class MenuSection(ApiModel):
    name: str
    items: list[MenuItem] = Field(default_factory=list)


class Menu(ApiModel):
    """Response of ``GET /restaurants/menu``."""

    restaurant_id: str
    currency: str | None = None
    last_updated: date | None = None
    sections: list[MenuSection]


class Review(ApiModel):
    id: str | None = None
    author: str | None = None
    rating: int | None = None
    text: str | None = None
    date: CalendarDate | None = None
    helpful_votes: int | None = None


class Reviews(ApiModel):
    """Response of ``GET /restaurants/reviews``."""

    restaurant_id: str
    total: int = 0
    average_rating: float | None = None
    reviews: list[Review]


# --- platform -----------------------------------------------------------------


class CatalogEndpoint(ApiModel):
    name: str
    method: str
    path: str
    description: str | None = None
    credits: int


class CatalogProvider(ApiModel):
    id: str
    name: str
    category: str | None = None
    description: str | None = None
    endpoints: list[CatalogEndpoint] = Field(default_factory=list)


class Catalog(ApiModel):
    """Response of ``GET /catalog``."""

    providers: list[CatalogProvider]
    totalEndpoints: int = 0  # the spec's field name (camelCase)


class ProviderRequestCreated(ApiModel):
    """Response of ``POST /provider-requests``."""

    ok: bool
    id: str


def is_valid_hours(value: str) -> bool:
    """True for an opening-hours value of shape ``HH:MM-HH:MM``."""
    return bool(HOURS_PATTERN.match(value))
