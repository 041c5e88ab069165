"""The ``call``, ``credits`` and ``cache`` commands, through click's runner."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from client_fakes import FakeService, commands_talk_to, error_response
from creditscope.cli import main

KEY = "sk_live_cli_secret_5555"


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeService]:
    """Every client the CLI builds talks to this fake service (a configured live URL)."""
    fake = FakeService()
    commands_talk_to(fake, monkeypatch, KEY)
    yield fake


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_call_prints_json_when_piped_and_a_summary_on_stderr(service: FakeService) -> None:
    result = run("call", "restaurants/search", "--location", "Lisbon", "--cuisine", "thai")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["results"][0]["name"] == "Tasca"
    assert re.fullmatch(r"2 credits · cache miss · \d+ ms · 9 998 left", result.stderr.strip())
    assert service.requests[0].url.params["cuisine"] == "thai"

    again = run("call", "restaurants/search", "--location=Lisbon", "--cuisine", "thai", "--json")
    assert again.exit_code == 0
    assert again.stderr.startswith("0 credits (saved 2) · cache hit · ")
    assert len(service.requests) == 1


def test_numbers_are_converted_and_validated(service: FakeService) -> None:
    ok = run("call", "ticketing/discovery", "--lat", "38.7", "--lng", "-9.1", "--limit", "5")
    assert ok.exit_code == 0, ok.output
    assert service.requests[0].url.params["limit"] == "5"
    bad = run("call", "ticketing/discovery", "--limit", "99")
    assert bad.exit_code == 2
    assert "limit" in bad.stderr
    assert len(service.requests) == 1


def test_usage_errors_exit_2(service: FakeService) -> None:
    assert run("call", "restaurants/nowhere").exit_code == 2
    assert run("call", "restaurants/search", "--location").exit_code == 2
    assert run("call", "restaurants/search", "Lisbon").exit_code == 2
    unknown = run("call", "restaurants/search", "--location", "X", "--colour", "red")
    assert unknown.exit_code == 2 and "colour" in unknown.stderr
    assert service.requests == []


def test_api_and_transport_errors_have_their_exit_codes(service: FakeService) -> None:
    service.script = [error_response(401, "invalid_api_key", "key revoked")]
    denied = run("call", "restaurants/details", "--id", "r1")
    assert denied.exit_code == 3
    assert "key revoked" in denied.stderr
    service.script = [httpx.ConnectError("refused")] * 3
    assert run("call", "restaurants/details", "--id", "r1").exit_code == 4
    offline = run("call", "restaurants/details", "--id", "r9", "--offline")
    assert offline.exit_code == 4 and "not cached" in offline.stderr


def test_dry_run_masks_the_key_prices_the_call_and_sends_nothing(service: FakeService) -> None:
    result = run("call", "professional_network/find_company", "--name", "Acme", "--dry-run")
    assert result.exit_code == 0
    assert "POST https://api.example.test/professional_network/find_company" in result.stdout
    assert "X-API-Key: sk_…5555" in result.stdout
    assert KEY not in result.output
    assert '{"name": "Acme"}' in result.stdout
    assert "price: 10 credits" in result.stdout
    assert service.requests == []


def test_credits_reports_last_session_and_lifetime(service: FakeService) -> None:
    run("call", "restaurants/menu", "--id", "r1")
    run("call", "restaurants/menu", "--id", "r1")
    run("call", "restaurants/details", "--id", "r1")
    result = run("credits", "--json")
    assert result.exit_code == 0
    report = json.loads(result.stdout)
    lifetime = report["lifetime"]
    assert (lifetime["spent"], lifetime["saved"], lifetime["calls"]) == (7, 5, 3)
    assert lifetime["by_operation"]["restaurants/menu"] == {
        "spent": 5, "saved": 5, "calls": 2, "errors": 0}
    assert report["last_session"]["calls"] == 1
    text = run("credits").stdout
    assert "Lifetime" in text and "restaurants/menu" in text


def test_cache_stats_and_clear(service: FakeService) -> None:
    run("call", "restaurants/menu", "--id", "r1")
    run("call", "catalog")
    stats = run("cache", "stats")
    assert "2 entries" in stats.stdout and "restaurants/menu" in stats.stdout
    assert run("cache", "clear").stdout.strip() == "Removed 2 cached responses."
    assert "0 entries" in run("cache", "stats").stdout
    run("call", "restaurants/menu", "--id", "r1")
    assert len(service.requests) == 3  # charged again after clearing


def test_an_invalid_key_names_the_env_var_not_the_explorer(service: FakeService) -> None:
    service.script = [error_response(401, "invalid_api_key", "key revoked")]
    denied = run("call", "restaurants/details", "--id", "r1")
    assert denied.exit_code == 3
    assert "CREDITSCOPE_API_KEY" in denied.stderr
    assert "open settings" not in denied.stderr.lower()


def test_an_offline_miss_says_how_to_fetch_it_and_what_it_costs(service: FakeService) -> None:
    offline = run("call", "restaurants/details", "--id", "r9", "--offline")
    assert offline.exit_code == 4
    assert "--offline" in offline.stderr and "CREDITSCOPE_OFFLINE=0" in offline.stderr
    assert re.search(r"\d+ credits", offline.stderr)


def test_ctrl_c_while_a_command_starts_exits_130_not_aborted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl+C in the first second of `batch` lands while its modules load: that is an
    # interrupt (exit 130, as a shell reports it), not click's "Aborted!" with exit 1.
    def interrupted(name: str) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("creditscope.cli.importlib.import_module", interrupted)
    result = CliRunner().invoke(main, ["batch", "professional_network/find_company", "x.csv"])
    assert result.exit_code == 130
    assert "Interrupted (Ctrl+C)" in result.output
    assert "Aborted!" not in result.output
