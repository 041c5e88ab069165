"""``creditscope call --from-curl`` on the built-in sandbox, through click's runner."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner

from creditscope.cli import main
from creditscope.sandbox import SANDBOX_BASE_URL

SECRET = "sk_live_customer_SECRET_9876"
PASTED = (
    f"curl -sS -X POST '{SANDBOX_BASE_URL}/professional_network/find_company' \\\n"
    f"  -H 'Authorization: Bearer {SECRET}' \\\n"
    "  -H 'Content-Type: application/json' \\\n"
    "  -d '{\"name\": \"Northwind Labs Ltd\", \"website\": \"northwind.com\"}'"
)


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


def credits_spent() -> int:
    shown = run("credits", "--json")
    if "No calls recorded" in shown.output:
        return 0
    return int(json.loads(shown.stdout)["lifetime"]["spent"])


def test_dry_run_shows_the_parsed_request_without_the_pasted_key() -> None:
    result = run("call", "--from-curl", PASTED, "--dry-run")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(
        f"POST {SANDBOX_BASE_URL}/professional_network/find_company\n")
    assert '{"name": "Northwind Labs Ltd", "website": "northwind.com"}' in result.stdout
    assert "price: 10 credits" in result.stdout
    assert "removed" in result.stderr and "configured key is used" in result.stderr
    assert SECRET not in result.output
    assert credits_spent() == 0


def test_a_pasted_request_is_sent_once_then_answered_from_the_cache() -> None:
    first = run("call", "--from-curl", PASTED, "--json")
    assert first.exit_code == 0, first.output
    assert json.loads(first.stdout)["query"]
    assert first.stderr.splitlines()[-1].startswith("10 credits")
    second = run("call", "--from-curl", PASTED, "--json")
    assert second.stderr.splitlines()[-1].startswith("0 credits (saved 10) · cache hit")
    assert credits_spent() == 10


def test_stdin_and_param_overrides() -> None:
    pasted = f"curl -G {SANDBOX_BASE_URL}/restaurants/search -d location=Lisbon"
    result = run("call", "--from-curl", "-", "--limit", "3", "--dry-run", stdin=pasted)
    assert result.exit_code == 0, result.output
    assert "limit=3" in result.stdout and "location=Lisbon" in result.stdout


def test_bad_pastes_are_explained_and_cost_nothing() -> None:
    other = run("call", "--from-curl", "curl https://api.other.example/catalog")
    assert other.exit_code == 2
    assert "api.other.example" in other.output and "CREDITSCOPE_BASE_URL" in other.output
    from_file = run("call", "--from-curl",
                    f"curl {SANDBOX_BASE_URL}/professional_network/find_company -d @body.json")
    assert from_file.exit_code == 2 and "cannot read files" in from_file.output
    invalid = run("call", "--from-curl", f"{SANDBOX_BASE_URL}/restaurants/search?limit=3")
    assert invalid.exit_code == 2 and "location is required" in invalid.output
    assert credits_spent() == 0


def test_operation_or_from_curl_not_both() -> None:
    assert run("call").exit_code == 2
    both = run("call", "catalog", "--from-curl", f"{SANDBOX_BASE_URL}/catalog")
    assert both.exit_code == 2 and "--from-curl" in both.output


def test_the_pasted_key_never_lands_on_disk(tmp_path: Any) -> None:
    for extra in (("--dry-run",), ("--json",), ("--json",)):
        assert run("call", "--from-curl", PASTED, *extra).exit_code == 0
    bearer_in_url = f"{SANDBOX_BASE_URL}/restaurants/search?location=Lisbon&api_key={SECRET}"
    assert run("call", "--from-curl", bearer_in_url, "--json").exit_code == 0
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert written  # the cache and the ledger were written
    for path in written:
        assert SECRET.encode() not in path.read_bytes(), path
