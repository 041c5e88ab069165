"""Validation messages are the product's own words and name the field, never pydantic's."""

from __future__ import annotations

import pytest

from creditscope.client.errors import InvalidRequest
from creditscope.client.validation import validate

CASES = [
    ("professional_network/find_company", {"name": "x" * 240}, "name",
     "name is 240 characters; at most 200"),
    ("professional_network/find_company", {"name": "Acme", "website": "w" * 600}, "website",
     "website is 600 characters; at most 500"),
    ("professional_network/find_company", {}, "name", "name is required"),
    ("provider-requests", {"name": "x" * 201}, "name", "name is 201 characters; at most 200"),
    ("provider-requests", {"name": "Strava", "url": "strava dot com"}, "url",
     "url must be an http:// or https:// address"),
    ("provider-requests", {"name": "Strava", "email": "x" * 300}, "email",
     "email is 300 characters; at most 254"),
]


@pytest.mark.parametrize(("operation", "params", "field", "message"), CASES)
def test_messages_name_the_field_in_our_words(
    operation: str, params: dict[str, str], field: str, message: str
) -> None:
    with pytest.raises(InvalidRequest) as caught:
        validate(operation, params)
    assert caught.value.field == field
    assert caught.value.message == message
    for library_words in ("String should", "Field required", "Value error", "Input should"):
        assert library_words not in caught.value.message
