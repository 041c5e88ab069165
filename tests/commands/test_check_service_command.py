"""``creditscope check-service``: the plan before anything is sent, every rule holding on
the built-in sandbox and on ``creditscope serve``, its spend in the ledger, and exit 1
with the evidence on a service that differs."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from test_serve_command import _free_port, _wait_until_up

from creditscope import wiring
from creditscope.cli import main
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from service_check_support import AlteredAnswers


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_on_the_sandbox_every_rule_holds_and_the_spend_is_recorded() -> None:
    result = run("check-service")
    assert result.exit_code == 0, result.output
    plan, verdicts = result.stdout.split("\n\n", 1)
    assert plan.startswith("Checking the built-in sandbox against the contract: ")
    assert "Paid requests (30 credits of the 50-credit budget):" in plan
    assert re.search(r"professional_network/find_company +10 cr", plan)
    assert "holds" not in plan  # stated before any answer
    assert re.search(r"\n(\d+) hold · 0 differ · 0 not checked · 30 credits spent in \d+ "
                     r"requests\n$", verdicts)
    spent = json.loads(run("credits", "--json").stdout)["lifetime"]
    assert spent["spent"] == 30 and spent["unexplained"] == 0


def test_json_puts_the_plan_on_stderr_and_the_verdicts_on_stdout() -> None:
    result = run("check-service", "--json", "--budget", "20")
    assert result.exit_code == 0, result.output
    assert "Paid requests (10 credits of the 20-credit budget):" in result.stderr
    report = json.loads(result.stdout)
    assert (report["budget"], report["planned_credits"], report["spent"]) == (20, 10, 10)
    assert report["paid_requests"][0] == {"operation": "ticketing/discovery", "credits": 3,
                                          "for": ["fields", "price", "pagination"]}
    lookup = next(rule for rule in report["rules"] if rule["rule"] == "suffix removal")
    assert lookup["result"] == "not checked" and "budget" in lookup["why_not_checked"]
    assert report["summary"]["differs"] == 0
    assert report["budget_for_every_rule"] == 40  # 30 for the paid requests, 10 kept
    assert "(--budget 40 sends every paid request)" in result.stderr


def test_a_budget_too_small_says_which_budget_checks_every_rule() -> None:
    result = run("check-service", "--budget", "0")
    assert result.exit_code == 0, result.output  # nothing differs: some are not checked
    assert result.stdout.endswith(
        "not checked · 0 credits spent in 2 requests\n"
        "Rules left unchecked for the budget: --budget 40 checks every rule.\n")


def test_a_lower_session_budget_is_the_checks_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "12")
    result = run("check-service", "--json")
    assert result.exit_code == 0, result.output  # never "over budget" halfway
    assert "session budget" in result.stderr and "is 12 credits" in result.stderr
    report = json.loads(result.stdout)
    assert report["budget"] == 12 and report["spent"] == report["planned_credits"] <= 2


def _missing_cuisine(path: str, status: int, headers: dict[str, str], data: Any) -> Any:
    if path == "/restaurants/search" and status == 200:
        for result in data["results"]:
            result.pop("cuisine")
    return data


def test_a_difference_exits_1_with_its_evidence(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = AlteredAnswers(create_app(SandboxConfig()), _missing_cuisine)
    monkeypatch.setattr(wiring, "service_transport",
                        lambda settings: httpx.ASGITransport(app=broken))
    result = run("check-service")
    assert result.exit_code == 1, result.output
    assert ("differs      fields · restaurants/search: the answer has the fields and types of "
            "RestaurantSearch\n"
            "             GET /restaurants/search?location=Lisbon&limit=3 (own key)\n"
            "               results[0].cuisine: expected string or null, got missing\n"
            "               results[1].cuisine: expected string or null, got missing\n"
            ) in result.stdout


@pytest.mark.slow
def test_every_rule_holds_on_creditscope_serve(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Any) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port),
         "--db", str(tmp_path / "served.sqlite3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True)
    try:
        _wait_until_up(base, server)
        monkeypatch.setenv("CREDITSCOPE_BASE_URL", base)
        monkeypatch.setenv("CREDITSCOPE_API_KEY", DEMO_KEY)
        result = run("check-service", "--json")
    finally:
        server.terminate()
        server.wait(timeout=15)
    assert result.exit_code == 0, result.output
    assert DEMO_KEY not in result.output  # requests are shown with "(own key)", never the key
    report = json.loads(result.stdout)
    assert report["service"] == base and report["spent"] == 30
    assert report["summary"]["differs"] == report["summary"]["not checked"] == 0
