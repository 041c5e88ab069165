"""Every operation's request: its query parameters (GET) or body (POST), as pydantic
models with the spec's types, limits, defaults and required fields.

One model per request is the one place its rules live: the client's validation, the
sandbox's query checks, the batch's columns, the catalog's parameter cards and
``check-service``'s limit rules all read it (through ``operations.py``). The response
models are in ``models.py``, which re-exports these for its callers.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from creditscope.web_hosts import website_problem


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

class EventFeedQuery(QueryModel):
    """Query of ``GET /ticketing/discovery``."""

    paired = (("lat", "lng"),)

    lat: float | None = Field(default=None, ge=-90, le=90, allow_inf_nan=False)
    lng: float | None = Field(default=None, ge=-180, le=180, allow_inf_nan=False)
    limit: int = Field(default=20, ge=1, le=50)
    cursor: str | None = Field(default=None, max_length=MAX_TEXT_LENGTH)

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

class NoParameters(QueryModel):
    """An operation without parameters (``GET /catalog``)."""

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
