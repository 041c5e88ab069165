"""Every operation's response against the spec's field tables."""

from __future__ import annotations

import httpx
import sandbox_spec_fields as spec
from sandbox_support import PATHS, first_restaurant_id

from creditscope import operations


async def test_event_feed_has_every_listed_field(client: httpx.AsyncClient) -> None:
    answer = await client.get(PATHS["discovery"], params={"lat": 38.72, "lng": -9.14})
    assert answer.status_code == 200
    feed = answer.json()
    spec.assert_fields(feed, spec.EVENT_FEED)
    assert feed["count"] == len(feed["events"]) == 20  # the default limit
    for event in feed["events"]:
        spec.assert_fields(event, spec.EVENT)
        assert event["url"].startswith("https://")
        assert all(isinstance(name, str) for name in event["lineup"]) and event["lineup"]


async def test_company_lookup_has_every_listed_field(client: httpx.AsyncClient) -> None:
    answer = await client.post(PATHS["find_company"], json={"name": "Northwind"})
    assert answer.status_code == 200
    lookup = answer.json()
    spec.assert_fields(lookup, spec.LOOKUP)
    assert lookup["count"] == len(lookup["matches"]) > 0
    for match in lookup["matches"]:
        spec.assert_fields(match, spec.MATCH)
        if match["company"] is not None:
            spec.assert_fields(match["company"], spec.COMPANY)


async def test_restaurant_search_has_every_listed_field(client: httpx.AsyncClient) -> None:
    answer = await client.get(PATHS["search"], params={"location": "Lisbon"})
    assert answer.status_code == 200
    body = answer.json()
    spec.assert_fields(body, spec.SEARCH)
    assert len(body["results"]) == 10  # the default limit
    for summary in body["results"]:
        spec.assert_fields(summary, spec.SUMMARY)


async def test_details_menu_and_reviews_have_every_listed_field(client: httpx.AsyncClient) -> None:
    restaurant = await first_restaurant_id(client)
    details = (await client.get(PATHS["details"], params={"id": restaurant})).json()
    spec.assert_fields(details, spec.DETAILS)
    assert details["hours"] and all(isinstance(v, str) for v in details["hours"].values())

    menu = (await client.get(PATHS["menu"], params={"id": restaurant})).json()
    spec.assert_fields(menu, spec.MENU)
    assert menu["sections"]
    for section in menu["sections"]:
        spec.assert_fields(section, spec.SECTION)
        for item in section["items"]:
            spec.assert_fields(item, spec.MENU_ITEM)

    reviews = (await client.get(PATHS["reviews"], params={"id": restaurant})).json()
    spec.assert_fields(reviews, spec.REVIEWS)
    assert len(reviews["reviews"]) == 10  # the default limit
    for review in reviews["reviews"]:
        spec.assert_fields(review, spec.REVIEW)


async def test_catalog_lists_every_operation_at_its_price(client: httpx.AsyncClient) -> None:
    answer = await client.get("/catalog", headers={"X-API-Key": ""})
    assert answer.status_code == 200
    catalog = answer.json()
    spec.assert_fields(catalog, spec.CATALOG)
    listed = {}
    for provider in catalog["providers"]:
        spec.assert_fields(provider, spec.PROVIDER)
        for endpoint in provider["endpoints"]:
            spec.assert_fields(endpoint, spec.ENDPOINT)
            listed[(endpoint["method"], endpoint["path"])] = endpoint["credits"]
    assert catalog["totalEndpoints"] == len(listed) == 8
    assert listed == {(op.method, op.path): op.credits for op in operations.OPERATIONS}
    assert listed[("POST", "/professional_network/find_company")] == 10


async def test_provider_request_answer_has_ok_and_preq_id(client: httpx.AsyncClient) -> None:
    answer = await client.post("/provider-requests", json={"name": "Ferry timetables"})
    assert answer.status_code == 200
    body = answer.json()
    spec.assert_fields(body, spec.CREATED)
    assert body["ok"] is True and body["id"].startswith("preq_")


async def test_every_answer_carries_a_request_id(client: httpx.AsyncClient) -> None:
    answers = [
        await client.get("/catalog"),
        await client.get("/no/such/path"),
        await client.get(PATHS["search"], params={"location": ""}),
    ]
    ids = {answer.headers["X-Request-Id"] for answer in answers}
    assert len(ids) == 3 and all(i.startswith("req_") for i in ids)


async def test_openapi_document_describes_the_constraints(client: httpx.AsyncClient) -> None:
    document = (await client.get("/openapi.json")).json()
    params = {
        p["name"]: p["schema"]
        for p in document["paths"]["/ticketing/discovery"]["get"]["parameters"]
    }
    assert params["limit"]["minimum"] == 1 and params["limit"]["maximum"] == 50
    assert params["lat"]["anyOf"][0]["minimum"] == -90
    body = document["paths"]["/professional_network/find_company"]["post"]["requestBody"]
    assert "name" in body["content"]["application/json"]["schema"]["required"]


async def test_a_place_with_a_character_that_draws_nothing_is_the_same_place(
    client: httpx.AsyncClient,
) -> None:
    """"Lis\u200bbon" looks like Lisbon: the sandbox reads it so, not as somewhere else."""
    plain = await client.get(PATHS["search"], params={"location": "Lisbon"})
    for hidden_in in ("Lis\u200bbon", "Lis\ufe0fbon", "Lis\u3164bon", "Lis\U000e0041bon"):
        looks_alike = await client.get(PATHS["search"], params={"location": hidden_in})
        assert looks_alike.status_code == 200, hidden_in
        assert looks_alike.json()["results"] == plain.json()["results"], hidden_in
