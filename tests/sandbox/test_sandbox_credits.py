"""Auth, exact prices, atomic charging, 402, and state that survives a restart."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from sandbox_support import PATHS, AppFactory, assert_error, client_for, first_restaurant_id

from creditscope import operations
from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY, REVOKED_KEY


async def _remaining(http: httpx.AsyncClient) -> int:
    answer = await http.get(PATHS["search"], params={"location": "Oslo", "limit": 1})
    return int(answer.headers["X-Credits-Remaining"]) + 2


@pytest.mark.parametrize(
    "headers", [{"X-API-Key": DEMO_KEY}, {"Authorization": f"Bearer {DEMO_KEY}"}]
)
async def test_both_auth_headers_are_accepted(
    make_app: AppFactory, headers: dict[str, str]
) -> None:
    async with client_for(make_app()) as http:
        answer = await http.get(PATHS["discovery"], headers=headers)
    assert answer.status_code == 200


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"X-API-Key": "sk_wrong"},
        {"X-API-Key": REVOKED_KEY},
        {"Authorization": f"Bearer {REVOKED_KEY}"},
        {"Authorization": f"Basic {DEMO_KEY}"},
        {"Authorization": "Bearer "},
    ],
)
async def test_missing_wrong_or_revoked_key_is_401(
    make_app: AppFactory, headers: dict[str, str]
) -> None:
    async with client_for(make_app()) as http:
        for operation in PATHS.values():
            method = "POST" if operation == PATHS["find_company"] else "GET"
            answer = await http.request(method, operation, headers=headers, json={"name": "x"})
            assert_error(answer, 401, "invalid_api_key")


async def test_auth_is_checked_before_parameters(make_app: AppFactory) -> None:
    async with client_for(make_app()) as http:
        answer = await http.get(PATHS["discovery"], params={"limit": 999})
    assert_error(answer, 401, "invalid_api_key")


async def test_public_endpoints_need_no_key_and_cost_nothing(make_app: AppFactory) -> None:
    async with client_for(make_app()) as http:
        catalog = await http.get("/catalog")
        created = await http.post("/provider-requests", json={"name": "Ferries"})
        http.headers["X-API-Key"] = DEMO_KEY
        before = await _remaining(http)
        await http.get("/catalog")
        await http.post("/provider-requests", json={"name": "Trains"})
        after = await _remaining(http)
    assert catalog.status_code == created.status_code == 200
    assert catalog.headers["X-Credits-Charged"] == "0"
    assert before - 2 == after


async def test_each_operation_costs_exactly_its_price(client: httpx.AsyncClient) -> None:
    restaurant = await first_restaurant_id(client)
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("discovery", "GET", {"params": {"lat": 48.85, "lng": 2.35}}),
        ("find_company", "POST", {"json": {"name": "Contoso"}}),
        ("search", "GET", {"params": {"location": "Lisbon"}}),
        ("details", "GET", {"params": {"id": restaurant}}),
        ("menu", "GET", {"params": {"id": restaurant}}),
        ("reviews", "GET", {"params": {"id": restaurant}}),
    ]
    remaining = DEFAULT_CREDITS - 2  # first_restaurant_id searched once
    for name, method, kwargs in calls:
        answer = await client.request(method, PATHS[name], **kwargs)
        price = operations.BY_PATH[PATHS[name]].credits
        assert answer.status_code == 200
        assert int(answer.headers["X-Credits-Charged"]) == price
        assert int(answer.headers["X-Credits-Remaining"]) == remaining - price
        remaining -= price
    assert [operations.BY_PATH[PATHS[n]].credits for n, _, _ in calls] == [3, 10, 2, 2, 5, 3]


async def test_failed_requests_are_not_charged(client: httpx.AsyncClient) -> None:
    before = await _remaining(client)
    await client.get(PATHS["search"], params={"location": ""})
    await client.get(PATHS["details"], params={"id": "rst_nowhere_zz_000"})
    await client.post(PATHS["find_company"], json={})
    await client.get(PATHS["discovery"], params={"cursor": "junk"})
    assert await _remaining(client) == before - 2


async def test_insufficient_credits_is_402_and_charges_nothing(make_app: AppFactory) -> None:
    async with client_for(make_app(keys={"sk_low": 12})) as http:
        http.headers["X-API-Key"] = "sk_low"
        first = await http.post(PATHS["find_company"], json={"name": "Northwind"})
        assert first.headers["X-Credits-Remaining"] == "2"
        refused = await http.get(PATHS["discovery"])  # costs 3, balance 2
        assert_error(refused, 402, "insufficient_credits")
        assert refused.headers["X-Credits-Remaining"] == "2"
        assert refused.headers["X-Credits-Charged"] == "0"
        last = await http.get(PATHS["search"], params={"location": "Rome"})  # costs 2: fits
        assert last.headers["X-Credits-Remaining"] == "0"
        assert_error(
            await http.get(PATHS["search"], params={"location": "Rome"}),
            402,
            "insufficient_credits",
        )


async def test_fifty_concurrent_requests_are_each_charged_once(
    make_app: AppFactory, db_path: Path
) -> None:
    app = make_app(db_path=db_path, keys={"sk_race": 100})
    async with client_for(app) as http:
        http.headers["X-API-Key"] = "sk_race"
        answers = await asyncio.gather(
            *(http.get(PATHS["discovery"], params={"limit": 1}) for _ in range(50))
        )
    ok = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code == 402]
    assert len(ok) == 33 and len(refused) == 17  # 33 * 3 = 99 <= 100 < 34 * 3
    remaining = sorted(int(a.headers["X-Credits-Remaining"]) for a in ok)
    assert remaining == list(range(1, 100, 3))  # every balance seen once: no lost update
    with sqlite3.connect(db_path) as db:
        (balance,) = db.execute("SELECT balance FROM accounts WHERE balance < 100").fetchone()
        (charges,) = db.execute("SELECT count(*) FROM charges").fetchone()
    assert balance == 1 and charges == 33


async def test_two_apps_on_one_file_share_the_balance_without_overdraw(
    make_app: AppFactory, db_path: Path
) -> None:
    apps = [make_app(db_path=db_path, keys={"sk_shared": 50}) for _ in range(2)]
    async with client_for(apps[0]) as one, client_for(apps[1]) as two:
        for http in (one, two):
            http.headers["X-API-Key"] = "sk_shared"

        def lookup(http: httpx.AsyncClient) -> Any:
            return http.post(PATHS["find_company"], json={"name": "Litware"})

        answers = await asyncio.gather(*(lookup(h) for h in (one, two) * 4))
    assert sorted(a.status_code for a in answers) == [200] * 5 + [402] * 3


async def test_balance_and_provider_requests_survive_a_restart(
    make_app: AppFactory, db_path: Path
) -> None:
    async with client_for(make_app(db_path=db_path)) as http:
        http.headers["X-API-Key"] = DEMO_KEY
        spent = await http.post(PATHS["find_company"], json={"name": "Adatum"})
        created = (await http.post("/provider-requests", json={"name": "Ferries"})).json()
    assert spent.headers["X-Credits-Remaining"] == str(DEFAULT_CREDITS - 10)

    restarted = make_app(db_path=db_path)  # same file: no refill, request still there
    async with client_for(restarted) as http:
        http.headers["X-API-Key"] = DEMO_KEY
        again = await http.get(PATHS["discovery"])
    assert again.headers["X-Credits-Remaining"] == str(DEFAULT_CREDITS - 13)
    stored = restarted.state.store.provider_request(created["id"])
    assert stored is not None and stored["name"] == "Ferries"


async def test_database_never_holds_an_api_key(make_app: AppFactory, db_path: Path) -> None:
    async with client_for(make_app(db_path=db_path)) as http:
        http.headers["X-API-Key"] = DEMO_KEY
        await http.get(PATHS["discovery"])
    for path in db_path.parent.glob("sandbox.sqlite3*"):
        assert DEMO_KEY.encode() not in path.read_bytes()


async def test_idempotency_key_replays_and_charges_once(client: httpx.AsyncClient) -> None:
    headers = {"Idempotency-Key": "lookup-1"}
    body = {"name": "Fabrikam", "website": "fabrikam.com"}
    first = await client.post(PATHS["find_company"], json=body, headers=headers)
    second = await client.post(PATHS["find_company"], json=body, headers=headers)
    assert first.json() == second.json()
    assert second.headers["X-Credits-Charged"] == "0"
    assert second.headers["X-Credits-Remaining"] == first.headers["X-Credits-Remaining"]
    reused = await client.post(PATHS["find_company"], json={"name": "Other"}, headers=headers)
    assert_error(reused, 400, "invalid_parameter", names="Idempotency-Key")

    made = [
        (
            await client.post(
                "/provider-requests",
                json={"name": "Ferries"},
                headers={"Idempotency-Key": "preq-1"},
            )
        ).json()
        for _ in range(2)
    ]
    assert made[0]["id"] == made[1]["id"]
