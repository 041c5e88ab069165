"""NUL and the other C0 and C1 control characters (and DEL), and bidi overrides, in any
parameter or body field: the sandbox answers 400 `invalid_parameter` and charges
nothing; the client refuses them locally and sends nothing."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from creditscope.cli import main
from creditscope.client.errors import InvalidRequest
from creditscope.client.validation import validate
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

# C0, DEL, C1 (U+009B starts an escape sequence on some terminals) and the bidi
# embeddings, overrides and isolates (they reorder what is shown).
CONTROLS = ([chr(code) for code in range(0x20)] + ["\x7f"]
            + [chr(code) for code in range(0x80, 0xA0)]
            + list("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))
KEY = {"X-API-Key": DEMO_KEY}
# Operation -> a valid request; each field gets a control character in turn.
VALID: dict[str, tuple[str, str, dict[str, str]]] = {
    "ticketing/discovery": ("GET", "/ticketing/discovery", {"lat": "38.72", "lng": "-9.14",
                                                           "limit": "5"}),
    "restaurants/search": ("GET", "/restaurants/search", {"location": "Lisbon",
                                                         "cuisine": "thai", "limit": "3"}),
    "restaurants/details": ("GET", "/restaurants/details", {"id": "rst_lisbon_pt_007"}),
    "restaurants/menu": ("GET", "/restaurants/menu", {"id": "rst_lisbon_pt_007"}),
    "restaurants/reviews": ("GET", "/restaurants/reviews", {"id": "rst_lisbon_pt_007",
                                                           "limit": "2"}),
    "professional_network/find_company": ("POST", "/professional_network/find_company",
                                          {"name": "Northwind Labs", "website": "northwind.io"}),
    "provider-requests": ("POST", "/provider-requests", {"name": "Acme", "url": "https://a.io",
                                                        "email": "a@a.io"}),
}
CASES = [(op, field) for op, (_, _, params) in VALID.items() for field in params]


@pytest.fixture(scope="module")
def sandbox() -> TestClient:
    return TestClient(create_app(SandboxConfig()))


def send(client: TestClient, method: str, path: str, params: dict[str, Any]) -> Any:
    if method == "GET":
        return client.get(path, params=params, headers=KEY)
    return client.post(path, json=params, headers=KEY)


def remaining(client: TestClient) -> int:
    answer = client.get("/restaurants/details", params={"id": "rst_lisbon_pt_007"}, headers=KEY)
    assert answer.status_code == 200
    return int(answer.headers["X-Credits-Remaining"]) + int(answer.headers["X-Credits-Charged"])


@pytest.mark.parametrize(("operation", "field"), CASES)
def test_the_sandbox_refuses_every_control_character_uncharged(
    sandbox: TestClient, operation: str, field: str
) -> None:
    method, path, valid = VALID[operation]
    before = remaining(sandbox)
    for char in CONTROLS:
        for value in (f"{valid[field]}{char}", f"{char}{valid[field]}", char):
            answer = send(sandbox, method, path, {**valid, field: value})
            assert answer.status_code == 400, (field, repr(value), answer.text)
            error = answer.json()["error"]
            assert error["code"] == "invalid_parameter"
            assert error["message"].startswith(f"{field}:")
    # The balance before the check call above, and after these refusals, is the same.
    assert remaining(sandbox) == before - 2


@pytest.mark.parametrize(
    ("path", "params", "named"),
    [
        ("/restaurants/search", {"location": "Lisbon", "unknown\x00": "1"}, "query"),
        ("/catalog", {"x": "\x00"}, "x"),
    ],
)
def test_unknown_query_parameters_are_checked_too(
    sandbox: TestClient, path: str, params: dict[str, str], named: str
) -> None:
    answer = sandbox.get(path, params=params, headers=KEY)
    assert answer.status_code == 400
    assert answer.json()["error"]["message"].startswith(f"{named}:")


def test_nested_body_fields_and_keys_are_checked(sandbox: TestClient) -> None:
    for body in ({"name": "Acme", "extra": {"deep": ["ok", "bad\x00"]}}, {"na\x00me": "Acme"}):
        answer = sandbox.post("/provider-requests", json=body)
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "invalid_parameter"


def test_tabs_and_text_without_controls_still_pass(sandbox: TestClient) -> None:
    ok = sandbox.get("/restaurants/search", params={"location": "São Paulo"}, headers=KEY)
    assert ok.status_code == 200


@pytest.mark.parametrize(("operation", "field"), CASES)
def test_the_client_refuses_them_before_sending(operation: str, field: str) -> None:
    _, _, valid = VALID[operation]
    validate(operation, valid)  # the valid request passes
    for char in CONTROLS:
        with pytest.raises(InvalidRequest) as refused:
            validate(operation, {**valid, field: f"{valid[field]}{char}"})
        assert refused.value.code == "invalid_parameter"
        assert refused.value.field == field


def test_the_command_line_sends_nothing_and_spends_nothing() -> None:
    refused = CliRunner().invoke(
        main, ["call", "restaurants/search", "--location", "Lisbon\x00", "--json"]
    )
    assert refused.exit_code == 2
    assert "location" in refused.output
    credits = CliRunner().invoke(main, ["credits"])
    assert credits.exit_code == 0
    # operation, calls, spent, saved, errors: the refusal is recorded, costing nothing.
    rows = [line.split() for line in credits.output.splitlines()]
    assert ["restaurants/search", "1", "0", "0", "1"] in rows
