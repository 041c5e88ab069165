"""Injected faults: latency, 503 service_unavailable (never charged)."""

from __future__ import annotations

import time

from sandbox_support import AUTH, PATHS, AppFactory, assert_error, client_for


async def test_latency_delays_each_answer(make_app: AppFactory) -> None:
    async with client_for(make_app(latency_ms=120)) as http:
        started = time.perf_counter()
        await http.get("/catalog")
    assert time.perf_counter() - started >= 0.12


async def test_fail_rate_one_answers_503_and_charges_nothing(make_app: AppFactory) -> None:
    app = make_app(fail_rate=1.0)
    async with client_for(app) as http:
        http.headers.update(AUTH)
        answer = await http.get(PATHS["discovery"])
    assert_error(answer, 503, "service_unavailable")
    assert (
        app.state.store.charges_for(app.state.store.authenticate(AUTH["X-API-Key"]).key_hash) == []
    )


async def test_fail_rate_is_seeded_and_partial(make_app: AppFactory) -> None:
    outcomes = []
    for _ in range(2):
        async with client_for(make_app(fail_rate=0.5, seed=7)) as http:
            http.headers.update(AUTH)
            outcomes.append([(await http.get("/catalog")).status_code for _ in range(40)])
    assert outcomes[0] == outcomes[1]
    assert set(outcomes[0]) == {200, 503}
