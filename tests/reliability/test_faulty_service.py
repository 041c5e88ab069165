"""A faulty service: the client and ``creditscope call`` against transports that
misbehave in every way a real network does, and against the sandbox with
injected latency and 503s.

Whatever happens: a typed ``CreditscopeError`` (or CLI exit 3/4 with an
``error:`` line, never a traceback), the ledger counts only what the service
said it charged, and a POST is never sent twice unless it provably never
reached the service (connect error, 429), and then with the same Idempotency-Key.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from reliability_support import (
    LIVE_URL,
    InstantRetry,
    ScriptedTransport,
    TruncatedStream,
    cli_with_transport,
    make_client,
    run_cli,
)

from creditscope import operations
from creditscope.client import errors
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

GOOD_SEARCH = {"location": "Lisbon", "total": 0, "results": []}
GOOD_LOOKUP = {"query": "Acme", "queries": [], "count": 0, "matches": []}
HTML = b"<html><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>"

GET = ("restaurants/search", {"location": "Lisbon"})
POST = ("professional_network/find_company", {"name": "Acme"})


def truncated(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, headers={"Content-Type": "application/json"},
                          stream=TruncatedStream(b'{"location": "Lis'), request=request)


# (name, script, expected error class, credits the ledger must count)
FAULTS: list[tuple[str, list[Any], type[errors.CreditscopeError], int]] = [
    ("malformed JSON, charge reported",
     [httpx.Response(200, content=b'{"location": ', headers={"X-Credits-Charged": "2"})],
     errors.UnexpectedResponse, 2),
    ("wrong shape, nothing reported",
     [httpx.Response(200, json={"unexpected": True}, headers={"X-Credits-Charged": "0"})],
     errors.UnexpectedResponse, 0),
    ("truncated body", [truncated], errors.ConnectionFailed, 0),
    ("HTML 502 page", [httpx.Response(502, content=HTML, headers={"Content-Type": "text/html"})],
     errors.ServiceUnavailable, 0),
    ("HTML 500 page", [httpx.Response(500, content=HTML, headers={"Content-Type": "text/html"})],
     errors.ServerError, 0),
    ("JSON 500", [httpx.Response(500, json={"error": {"code": "internal_error", "message": "x"}})],
     errors.ServerError, 0),
    ("429 with a long Retry-After",
     [httpx.Response(429, json={"error": {"code": "rate_limited", "message": "slow down"}},
                     headers={"Retry-After": "120"})],
     errors.RateLimited, 0),
    ("connection reset", [httpx.ReadError("[Errno 104] Connection reset by peer")],
     errors.ConnectionFailed, 0),
    ("connection refused", [httpx.ConnectError("[Errno 111] Connection refused")],
     errors.ConnectionFailed, 0),
    ("read timeout", [httpx.ReadTimeout("timed out")], errors.Timeout, 0),
    ("connect timeout", [httpx.ConnectTimeout("timed out")], errors.Timeout, 0),
]
FAULT_IDS = [name for name, *_ in FAULTS]
# Faults after which a POST may be repeated: the request provably never reached the service.
NEVER_REACHED = {"connection refused", "connect timeout", "429 with a long Retry-After"}


@pytest.mark.parametrize(("name", "script", "error", "credits"), FAULTS, ids=FAULT_IDS)
@pytest.mark.parametrize("call", [GET, POST], ids=["GET", "POST"])
async def test_a_fault_is_a_typed_error_and_counts_only_reported_charges(
    tmp_path: Path, name: str, script: list[Any], error: type[errors.CreditscopeError],
    credits: int, call: tuple[str, dict[str, Any]],
) -> None:
    transport = ScriptedTransport(script)
    client = make_client(tmp_path, transport)
    operation, params = call
    async with client:
        with pytest.raises(error) as caught:
            await client.call(operation, params)
    assert caught.value.record is not None and not caught.value.record.ok
    totals = client.ledger.lifetime_totals()
    assert (totals.calls, totals.errors) == (1, 1)
    assert totals.spent == credits  # never the price of a call that failed
    posts = transport.sent("POST")
    if operation == POST[0]:
        if name in NEVER_REACHED and name != "429 with a long Retry-After":
            assert len(posts) == 3  # retried: it never left the machine
        else:
            assert len(posts) == 1, f"{name}: a POST that may have arrived was sent again"
        assert len({r.headers["Idempotency-Key"] for r in posts}) == 1
    assert client.cache is not None and client.cache.stats().entries == 0  # nothing bad cached


async def test_a_post_refused_with_429_is_retried_with_the_same_idempotency_key(
    tmp_path: Path,
) -> None:
    limited = httpx.Response(429, json={"error": {"code": "rate_limited", "message": "wait"}},
                             headers={"Retry-After": "1"})
    ok = httpx.Response(200, json=GOOD_LOOKUP, headers={"X-Credits-Charged": "10"})
    transport = ScriptedTransport([limited, ok])
    client = make_client(tmp_path, transport)
    async with client:
        result = await client.call(operations.FIND_COMPANY, {"name": "Acme"})
    posts = transport.sent("POST")
    assert len(posts) == 2
    assert posts[0].headers["Idempotency-Key"] == posts[1].headers["Idempotency-Key"]
    assert isinstance(client.retry_policy, InstantRetry)
    assert client.retry_policy.delays == [1.0]  # Retry-After honoured
    assert result.record.credits_charged == 10
    assert client.ledger.lifetime_totals().spent == 10


async def test_each_logical_post_gets_its_own_idempotency_key(tmp_path: Path) -> None:
    ok = httpx.Response(200, json=GOOD_LOOKUP, headers={"X-Credits-Charged": "10"})
    transport = ScriptedTransport([ok])
    client = make_client(tmp_path, transport)
    async with client:
        await client.call(operations.FIND_COMPANY, {"name": "Acme"})
        await client.call(operations.FIND_COMPANY, {"name": "Acme"}, refresh=True)
    keys = [r.headers["Idempotency-Key"] for r in transport.sent("POST")]
    assert len(keys) == 2 and keys[0] != keys[1]


async def test_a_get_retries_transient_faults_then_succeeds_and_charges_once(
    tmp_path: Path,
) -> None:
    # Faults that certainly were not charged (a read timeout may have been: issue 35).
    transport = ScriptedTransport([
        httpx.ConnectError("refused"),
        httpx.Response(503, content=HTML, headers={"Retry-After": "0"}),
        httpx.Response(200, json=GOOD_SEARCH, headers={"X-Credits-Charged": "2"}),
    ])
    client = make_client(tmp_path, transport)
    client.retry_policy = InstantRetry()
    client.retry_policy.max_retries = 3
    async with client:
        result = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    assert len(transport.requests) == 3
    assert result.record.credits_charged == 2
    assert client.ledger.lifetime_totals().spent == 2


@pytest.mark.parametrize("fail_rate", [0.3, 1.0])
async def test_the_ledger_matches_the_sandbox_balance_under_latency_and_503s(
    tmp_path: Path, fail_rate: float
) -> None:
    app = create_app(SandboxConfig(latency_ms=5, fail_rate=fail_rate, seed=7))
    store = app.state.store
    start = store.balance(key_digest(DEMO_KEY))
    client = DataClient("http://sandbox.test", DEMO_KEY,
                        transport=httpx.ASGITransport(app=app),
                        ledger=CreditLedger(tmp_path / "ledger.sqlite3"),
                        retry_policy=InstantRetry())
    outcomes: dict[str, int] = {"ok": 0, "failed": 0}
    async with client:
        for number in range(12):
            try:
                if number % 3 == 0:
                    await client.call(operations.FIND_COMPANY, {"name": f"Acme {number}"})
                else:
                    await client.call(operations.RESTAURANT_SEARCH,
                                      {"location": "Lisbon", "limit": number + 1})
                outcomes["ok"] += 1
            except errors.ServiceUnavailable:
                outcomes["failed"] += 1
    spent_on_server = start - store.balance(key_digest(DEMO_KEY))
    assert client.ledger.lifetime_totals().spent == spent_on_server
    if fail_rate == 1.0:
        assert outcomes["ok"] == 0 and spent_on_server == 0
    else:
        assert outcomes["failed"] > 0 and spent_on_server > 0


# --- the CLI ------------------------------------------------------------------

CLI_FAULTS = [
    ("HTML 502 page", httpx.Response(502, content=HTML), 3),
    ("malformed JSON", httpx.Response(200, content=b"{nope"), 3),
    ("connection reset", httpx.ReadError("Connection reset by peer"), 4),
    ("read timeout", httpx.ReadTimeout("timed out"), 4),
    ("429", httpx.Response(429, headers={"Retry-After": "600"}), 3),
]


@pytest.mark.parametrize(("name", "answer", "code"), CLI_FAULTS, ids=[c[0] for c in CLI_FAULTS])
@pytest.mark.parametrize("call", [
    ["restaurants/search", "--location", "Lisbon"],
    ["professional_network/find_company", "--name", "Acme"],
], ids=["GET", "POST"])
def test_call_exits_cleanly_on_every_fault(
    monkeypatch: pytest.MonkeyPatch, name: str, answer: Any, code: int, call: list[str]
) -> None:
    transport = ScriptedTransport([answer])
    cli_with_transport(monkeypatch, transport)
    result = run_cli(["call", *call], {"CREDITSCOPE_BASE_URL": LIVE_URL,
                                       "CREDITSCOPE_API_KEY": "sk_live_test_12345678"})
    assert result.exit_code == code, (result.output, result.stderr)
    assert "Traceback" not in result.output + result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ") and len(first) < 300, result.stderr
    assert result.stdout == ""
    if call[0].startswith("professional"):
        assert len(transport.sent("POST")) == 1
    credits = run_cli(["credits", "--json"], {"CREDITSCOPE_BASE_URL": LIVE_URL,
                                              "CREDITSCOPE_API_KEY": "sk_live_test_12345678"})
    assert '"errors": 1' in credits.stdout
    assert '"spent": 0' in credits.stdout


def test_call_against_a_sandbox_that_always_fails_spends_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = create_app(SandboxConfig(fail_rate=1.0, latency_ms=5))
    cli_with_transport(monkeypatch, httpx.ASGITransport(app=app))
    result = run_cli(["call", "restaurants/search", "--location", "Lisbon"])
    assert result.exit_code == 3
    assert result.stderr.startswith("error: Service unavailable")
    assert app.state.store.balance(key_digest(DEMO_KEY)) == 10_000
