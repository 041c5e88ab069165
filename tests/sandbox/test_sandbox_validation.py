"""Every constraint of the spec -> 400 invalid_parameter naming the parameter,
never FastAPI's 422; 404, 405, 413 and malformed bodies in the same shape."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sandbox_support import PATHS, assert_error, first_restaurant_id

BAD_QUERIES: list[tuple[str, dict[str, Any], str]] = [
    ("discovery", {"lat": 90.5, "lng": 0}, "lat"),
    ("discovery", {"lat": -91, "lng": 0}, "lat"),
    ("discovery", {"lat": "north", "lng": 0}, "lat"),
    ("discovery", {"lat": 0, "lng": 180.01}, "lng"),
    ("discovery", {"lat": 0, "lng": -181}, "lng"),
    ("discovery", {"lat": 10}, "lng"),
    ("discovery", {"lng": 10}, "lat"),
    ("discovery", {"limit": 0}, "limit"),
    ("discovery", {"limit": 51}, "limit"),
    ("discovery", {"limit": "ten"}, "limit"),
    ("discovery", {"cursor": "not-a-cursor"}, "cursor"),
    ("search", {}, "location"),
    ("search", {"location": ""}, "location"),
    ("search", {"location": "   "}, "location"),
    ("search", {"location": "Lisbon", "cuisine": "british"}, "cuisine"),
    ("search", {"location": "Lisbon", "cuisine": "Italian"}, "cuisine"),
    ("search", {"location": "Lisbon", "limit": 0}, "limit"),
    ("search", {"location": "Lisbon", "limit": 31}, "limit"),
    ("details", {}, "id"),
    ("details", {"id": ""}, "id"),
    ("menu", {"id": ""}, "id"),
    ("reviews", {"id": ""}, "id"),
    ("reviews", {"id": "rst_lisbon_pt_000", "limit": 0}, "limit"),
    ("reviews", {"id": "rst_lisbon_pt_000", "limit": 51}, "limit"),
]


@pytest.mark.parametrize(("operation", "params", "named"), BAD_QUERIES)
async def test_bad_query_is_400_naming_the_parameter(
    client: httpx.AsyncClient, operation: str, params: dict[str, Any], named: str
) -> None:
    answer = await client.get(PATHS[operation], params=params)
    assert_error(answer, 400, "invalid_parameter", names=named)
    assert "X-Credits-Charged" not in answer.headers


@pytest.mark.parametrize(
    ("operation", "params"),
    [
        ("discovery", {"lat": 90, "lng": 180, "limit": 50}),
        ("discovery", {"lat": -90, "lng": -180, "limit": 1}),
        ("search", {"location": "Lisbon", "limit": 30, "cuisine": "italian"}),
        ("search", {"location": "Lisbon", "limit": 1}),
        ("reviews", {"id": "rst_lisbon_pt_000", "limit": 50}),
        ("reviews", {"id": "rst_lisbon_pt_000", "limit": 1}),
    ],
)
async def test_limits_at_the_edges_are_accepted(
    client: httpx.AsyncClient, operation: str, params: dict[str, Any]
) -> None:
    answer = await client.get(PATHS[operation], params=params)
    assert answer.status_code == 200, answer.text


async def test_limit_defaults(client: httpx.AsyncClient) -> None:
    feed = (await client.get(PATHS["discovery"])).json()
    search = (await client.get(PATHS["search"], params={"location": "Paris"})).json()
    restaurant = await first_restaurant_id(client, "Paris")
    reviews = (await client.get(PATHS["reviews"], params={"id": restaurant})).json()
    assert (len(feed["events"]), len(search["results"]), len(reviews["reviews"])) == (20, 10, 10)


@pytest.mark.parametrize(
    ("body", "named", "reason"),
    [
        ({}, "name", "name_required"),
        ({"name": ""}, "name", "name_required"),
        ({"name": "   "}, "name", "name_required"),
        ({"name": 42}, "name", "name_not_string"),
        ({"name": "x" * 201}, "name", "name_too_long"),
        ({"name": "Northwind", "website": "not a website"}, "website", "website_invalid"),
        ({"name": "Northwind", "colour": "blue"}, "colour", "unknown_field"),
        (["Northwind"], "body", "body_not_object"),
    ],
)
async def test_bad_company_lookup_body_is_400_with_reason(
    client: httpx.AsyncClient, body: Any, named: str, reason: str
) -> None:
    answer = await client.post(PATHS["find_company"], json=body)
    assert_error(answer, 400, "invalid_parameter", names=named)
    assert answer.json()["error"]["reason"] == reason


async def test_longest_allowed_company_name_is_accepted(client: httpx.AsyncClient) -> None:
    answer = await client.post(PATHS["find_company"], json={"name": "N" * 200})
    assert answer.status_code == 200


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "invalid_json"),
        (b"", "body_required"),
        (b"[" * 5000, "invalid_json"),  # nesting too deep to parse
        (b'{"name": "\\ud800"}', "invalid_json"),  # a lone surrogate is not text
    ],
)
async def test_company_lookup_needs_a_json_body(
    client: httpx.AsyncClient, content: bytes, reason: str
) -> None:
    answer = await client.post(
        PATHS["find_company"], content=content, headers={"Content-Type": "application/json"}
    )
    assert_error(answer, 400, "invalid_parameter", names="body")
    assert answer.json()["error"]["reason"] == reason


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({}, "name"),
        ({"name": ""}, "name"),
        ({"name": " "}, "name"),
        ({"name": "x" * 201}, "name"),
        ({"name": "Ferries", "url": "ftp://ferries"}, "url"),
        ({"name": "Ferries", "email": "not-an-address"}, "email"),
        ({"name": "Ferries", "phone": "123"}, "phone"),
        ("Ferries", "body"),
    ],
)
async def test_bad_provider_request_is_400_naming_the_field(
    client: httpx.AsyncClient, body: Any, named: str
) -> None:
    answer = await client.post("/provider-requests", json=body)
    assert_error(answer, 400, "invalid_parameter", names=named)


async def test_provider_request_with_url_and_email_is_accepted(client: httpx.AsyncClient) -> None:
    answer = await client.post(
        "/provider-requests",
        json={"name": "F" * 200, "url": "https://ferries.example", "email": "me@example.com"},
    )
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("path", ["/provider-requests", PATHS["find_company"]])
async def test_body_over_64_kib_is_413(client: httpx.AsyncClient, path: str) -> None:
    answer = await client.post(path, content=b'{"name": "' + b"x" * 66_000 + b'"}')
    assert_error(answer, 413, "payload_too_large")


async def test_chunked_body_over_64_kib_is_413(client: httpx.AsyncClient) -> None:
    async def chunks():  # no Content-Length: the limit must still hold
        for _ in range(20):
            yield b"x" * 4096

    answer = await client.post("/provider-requests", content=chunks())
    assert_error(answer, 413, "payload_too_large")


async def test_body_just_under_the_limit_is_read(client: httpx.AsyncClient) -> None:
    padding = " " * (64 * 1024 - 40)
    answer = await client.post("/provider-requests", content=f'{{"name": "Ferries"{padding}}}',
                               headers={"Content-Type": "application/json"})
    assert answer.status_code == 200, answer.text


async def test_unknown_restaurant_id_is_404(client: httpx.AsyncClient) -> None:
    for bad in ("rst_lisbon_pt_999", "rst_atlantis_zz_001", "hello", "rst_lisbon_pt_1"):
        for operation in ("details", "menu", "reviews"):
            answer = await client.get(PATHS[operation], params={"id": bad})
            assert_error(answer, 404, "not_found")
            assert "X-Credits-Charged" not in answer.headers


async def test_unknown_path_and_wrong_method_use_the_error_shape(
    client: httpx.AsyncClient,
) -> None:
    assert_error(await client.get("/restaurants/nearby"), 404, "not_found")
    assert_error(await client.delete("/catalog"), 405, "method_not_allowed")
    assert_error(await client.get(PATHS["find_company"]), 405, "method_not_allowed")


async def test_unexpected_failure_is_500_without_traceback(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.sandbox import restaurants

    def explode(*_: object) -> None:
        raise RuntimeError("secret internals")

    monkeypatch.setattr(restaurants, "search", explode)
    answer = await client.get(PATHS["search"], params={"location": "Lisbon"})
    assert_error(answer, 500, "internal_error")
    assert "secret" not in answer.text and "Traceback" not in answer.text
    assert answer.headers["X-Request-Id"].startswith("req_")
