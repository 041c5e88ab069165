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
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    field_validator,
)

from creditscope.web_hosts import website_problem

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


class RequestModel(BaseModel):
    """Base for an operation's request (its body or query parameters): the fields, their
    types, limits and defaults, read by the client's validation and the sandbox alike.
    Unknown fields are refused."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)

    # Fields that go together: both given or neither (e.g. a point's lat and lng).
    paired: ClassVar[tuple[tuple[str, str], ...]] = ()


class QueryModel(RequestModel):
    """Base for a GET operation's query parameters. The sandbox ignores an unknown
    parameter, as the service's other endpoints do; the client refuses it itself."""

    model_config = ConfigDict(extra="ignore", str_strip_whitespace=False)


def unpaired(model: type[RequestModel], given: Any) -> tuple[str, str] | None:
    """``(missing, present)`` for the first pair of ``model.paired`` only half given in
    ``given`` (a mapping, or a model's attributes), else None."""
    values = given if isinstance(given, dict) else vars(given)
    for first, second in model.paired:
        has_first, has_second = values.get(first) is not None, values.get(second) is not None
        if has_first != has_second:
            return (second, first) if has_first else (first, second)
    return None


def max_length_of(model: type[BaseModel], field: str) -> int:
    """The longest text ``model``'s ``field`` accepts (a sandbox check written by hand
    reads its limit here, so the model stays the one place it is set)."""
    for item in model.model_fields[field].metadata:
        if getattr(item, "max_length", None) is not None:
            return int(item.max_length)
    raise ValueError(f"{model.__name__}.{field} has no maximum length")


# Longest text accepted for a query parameter the spec sets no maximum for (a place, an
# id, a cursor): far above any real one, far below what proxies refuse as an over-long URL.
MAX_TEXT_LENGTH = 1000


def _not_blank(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be blank")
    return value


# A required text parameter: "length at least 1" in the spec, and more than spaces.
FilledText = Annotated[
    str, Field(min_length=1, max_length=MAX_TEXT_LENGTH), AfterValidator(_not_blank)
]


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


class EventFeedQuery(QueryModel):
    """Query of ``GET /ticketing/discovery``."""

    paired = (("lat", "lng"),)

    lat: float | None = Field(default=None, ge=-90, le=90, allow_inf_nan=False)
    lng: float | None = Field(default=None, ge=-180, le=180, allow_inf_nan=False)
    limit: int = Field(default=20, ge=1, le=50)
    cursor: str | None = Field(default=None, max_length=MAX_TEXT_LENGTH)


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


def _a_website(value: str | None) -> str | None:
    # Placeholders, e-mails and bare suffixes are refused before anything is priced.
    problem = None if value is None else website_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


class FindCompanyRequest(RequestModel):
    """Body of ``POST /professional_network/find_company``."""

    name: str = Field(min_length=1, max_length=200)
    website: Annotated[str | None, AfterValidator(_a_website)] = Field(
        default=None, max_length=500)


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

# The spec's cuisines: a type for the sandbox's query parameter, a tuple for everyone else.
Cuisine = Literal[
    "italian",
    "japanese",
    "indian",
    "mexican",
    "thai",
    "french",
    "korean",
    "greek",
    "turkish",
    "vietnamese",
]
CUISINES: tuple[str, ...] = get_args(Cuisine)


class RestaurantSearchQuery(QueryModel):
    """Query of ``GET /restaurants/search``."""

    location: FilledText
    cuisine: Cuisine | None = None
    limit: int = Field(default=10, ge=1, le=30)


class RestaurantQuery(QueryModel):
    """Query of ``GET /restaurants/details`` and ``/restaurants/menu``."""

    id: FilledText


class ReviewsQuery(QueryModel):
    """Query of ``GET /restaurants/reviews``."""

    id: FilledText
    limit: int = Field(default=10, ge=1, le=50)


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


class NoParameters(QueryModel):
    """An operation without parameters (``GET /catalog``)."""


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


EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
URL_PATTERN = re.compile(r"^https?://[^\s/$.?#][^\s]*$", re.IGNORECASE)


class ProviderRequest(RequestModel):
    """Body of ``POST /provider-requests``: ``name`` plus optional ``url`` and ``email``."""

    name: str = Field(min_length=1, max_length=200)
    url: str | None = Field(default=None, max_length=2000)
    email: str | None = Field(default=None, max_length=254)

    @field_validator("name")
    @classmethod
    def _name_has_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("name must not be blank")
        return value

    @field_validator("url")
    @classmethod
    def _url_is_http(cls, value: str | None) -> str | None:
        if value is not None and value != "" and not URL_PATTERN.match(value):
            raise ValueError("url must be an http:// or https:// address")
        return value or None

    @field_validator("email")
    @classmethod
    def _email_is_plausible(cls, value: str | None) -> str | None:
        if value is not None and value != "" and not EMAIL_PATTERN.match(value):
            raise ValueError("email must look like name@example.com")
        return value or None


class ProviderRequestCreated(ApiModel):
    """Response of ``POST /provider-requests``."""

    ok: bool
    id: str


def is_valid_hours(value: str) -> bool:
    """True for an opening-hours value of shape ``HH:MM-HH:MM``."""
    return bool(HOURS_PATTERN.match(value))
