"""Local validation: what the spec forbids is refused with the field named."""

from __future__ import annotations

import pytest

from creditscope.client.errors import InvalidRequest
from creditscope.client.validation import validate


@pytest.mark.parametrize(
    ("operation", "params", "field"),
    [
        ("ticketing/discovery", {"lat": -90.5, "lng": 0}, "lat"),
        ("ticketing/discovery", {"lat": 0, "lng": 180.01}, "lng"),
        ("ticketing/discovery", {"lat": 10}, "lng"),
        ("ticketing/discovery", {"limit": 0}, "limit"),
        ("ticketing/discovery", {"limit": 51}, "limit"),
        ("ticketing/discovery", {"limit": "ten"}, "limit"),
        ("ticketing/discovery", {"limit": 2.5}, "limit"),
        ("ticketing/discovery", {"lat": "nan", "lng": 0}, "lat"),
        ("restaurants/search", {}, "location"),
        ("restaurants/search", {"location": "  "}, "location"),
        ("restaurants/search", {"location": "Rome", "limit": 31}, "limit"),
        ("restaurants/search", {"location": "Rome", "cuisine": "martian"}, "cuisine"),
        ("restaurants/details", {"id": ""}, "id"),
        ("restaurants/menu", {}, "id"),
        ("restaurants/reviews", {"id": "r1", "limit": 51}, "limit"),
        ("professional_network/find_company", {"name": " "}, "name"),
        ("professional_network/find_company", {"name": "x" * 201}, "name"),
        ("professional_network/find_company", {"website": "acme.example"}, "name"),
        ("provider-requests", {"name": "Mapsy", "email": "not-an-email"}, "email"),
        ("provider-requests", {"name": "Mapsy", "url": "ftp://x"}, "url"),
        ("catalog", {"limit": 5}, "limit"),
        ("restaurants/search", {"location": "Rome", "sort": "rating"}, "sort"),
    ],
)
def test_forbidden_input_names_the_field(operation: str, params: dict, field: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        validate(operation, params)
    assert caught.value.field == field
    assert caught.value.status is None  # refused locally, nothing was sent


def test_canonical_params_apply_defaults_convert_and_sort() -> None:
    assert validate("restaurants/search", {"location": "Rome", "cuisine": "Thai"}) == {
        "cuisine": "thai", "limit": 10, "location": "Rome"}
    assert list(validate("ticketing/discovery", {"lng": "-9.1", "lat": "38.7"})) == [
        "lat", "limit", "lng"]
    assert validate("restaurants/reviews", {"id": "r1", "limit": "50"})["limit"] == 50
    assert validate("professional_network/find_company", {"name": "Acme", "website": None}) == {
        "name": "Acme"}
    assert validate("catalog", {}) == {}
