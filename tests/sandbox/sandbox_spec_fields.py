"""The spec's field tables as data, and a checker for JSON types."""

from __future__ import annotations

import re
from typing import Any

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

EVENT_FEED = {
    "location": "object",
    "location.lat": "number",
    "location.lng": "number",
    "location.nearest_city": "string",
    "count": "integer",
    "cursor": "string|null",
    "events": "array",
}
EVENT = {
    "id": "string",
    "name": "string",
    "status": "string",
    "url": "string",
    "images": "object",
    "images.square": "string",
    "images.landscape": "string",
    "venue": "object",
    "venue.id": "integer",
    "venue.name": "string",
    "venue.address": "string",
    "venue.city": "string",
    "venue.country_code": "string",
    "venue.latitude": "number",
    "venue.longitude": "number",
    "date": "object",
    "date.start": "timestamp",
    "date.end": "timestamp",
    "date.timezone": "string",
    "date.on_sale": "timestamp",
    "price": "object",
    "price.amount": "integer",
    "price.currency": "string",
    "price.amount_from": "integer",
    "price.display": "string",
    "lineup": "array",
    "tag": "string",
}
LOOKUP = {"query": "string", "queries": "array", "count": "integer", "matches": "array"}
MATCH = {
    "company_url": "string",
    "serp_title": "string",
    "serp_snippet": "string",
    "company": "object|null",
    "website_match": "boolean",
    "name_similarity": "number",
    "confidence": "string",
}
COMPANY = {
    name: "string"
    for name in (
        "slug",
        "name",
        "url",
        "logo",
        "tagline",
        "description",
        "website",
        "industry",
        "company_size",
        "headquarters",
        "organization_type",
        "specialties",
        "organization_id",
    )
} | {"followers": "integer", "employees_on_network": "integer"}
SEARCH = {"location": "string", "total": "integer", "results": "array"}
SUMMARY = {
    "id": "string",
    "name": "string",
    "cuisine": "string",
    "rating": "number",
    "review_count": "integer",
    "price_level": "integer",
    "address": "string",
    "distance_km": "number",
    "open_now": "boolean",
}
DETAILS = {
    "id": "string",
    "name": "string",
    "cuisine": "string",
    "rating": "number",
    "review_count": "integer",
    "price_level": "integer",
    "address": "string",
    "phone": "string",
    "website": "string",
    "coordinates": "object",
    "coordinates.lat": "number",
    "coordinates.lng": "number",
    "hours": "object",
    "features": "array",
}
MENU = {
    "restaurant_id": "string",
    "currency": "string",
    "last_updated": "date",
    "sections": "array",
}
SECTION = {"name": "string", "items": "array"}
MENU_ITEM = {
    "id": "string",
    "name": "string",
    "description": "string",
    "price": "number",
    "dietary": "array",
    "popular": "boolean",
}
REVIEWS = {
    "restaurant_id": "string",
    "total": "integer",
    "average_rating": "number",
    "reviews": "array",
}
REVIEW = {
    "id": "string",
    "author": "string",
    "rating": "integer",
    "text": "string",
    "date": "date",
    "helpful_votes": "integer",
}
CATALOG = {"providers": "array", "totalEndpoints": "integer"}
PROVIDER = {
    "id": "string",
    "name": "string",
    "category": "string",
    "description": "string",
    "endpoints": "array",
}
ENDPOINT = {
    "name": "string",
    "method": "string",
    "path": "string",
    "description": "string",
    "credits": "integer",
}
CREATED = {"ok": "boolean", "id": "string"}


def _is(value: Any, kind: str) -> bool:
    if kind.endswith("|null"):
        return value is None or _is(value, kind.removesuffix("|null"))
    checks = {
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
        "timestamp": lambda v: isinstance(v, str) and bool(TIMESTAMP.match(v)),
        "date": lambda v: isinstance(v, str) and bool(DATE.match(v)),
    }
    return checks[kind](value)


def assert_fields(obj: dict[str, Any], table: dict[str, str]) -> None:
    """Every field of ``table`` is present in ``obj`` with the listed JSON type."""
    for dotted, kind in table.items():
        value: Any = obj
        for part in dotted.split("."):
            assert isinstance(value, dict) and part in value, f"missing {dotted} in {obj}"
            value = value[part]
        assert _is(value, kind), f"{dotted} should be {kind}, got {value!r}"
