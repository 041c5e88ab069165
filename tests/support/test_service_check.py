"""``check-service``'s check: every rule holds on the sandbox, and each difference planted
in a service that wraps the sandbox (a wrong price, a missing field, a suffix kept, a wrong
error code) is reported with its evidence, within the budget stated before sending."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from creditscope import operations
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.support.service_check.checks import DEFAULT_BUDGET
from creditscope.support.service_check.plan import make_plan
from creditscope.support.service_check.rules import build_checklist
from service_check_support import AlteredAnswers, run_check, verdicts

KEYED = [op.name for op in operations.OPERATIONS if op.requires_key]


async def test_every_rule_holds_on_the_sandbox(tmp_path: Path) -> None:
    plan, report = await run_check(create_app(SandboxConfig()), tmp_path)
    assert {r.verdict.value for r in report.results} == {"holds"}, [
        (r.rule.name, r.rule.operation, r.why_not, r.evidence) for r in report.results
        if r.verdict.value != "holds"]
    assert report.spent == plan.credits == 30 <= DEFAULT_BUDGET
    names = {(r.rule.name, r.rule.operation) for r in report.results}
    for op in operations.OPERATIONS:  # every operation of the table is checked
        assert ("catalog price", op.name) in names
    assert {("pagination", "ticketing/discovery"),
            ("suffix removal", "professional_network/find_company"),
            ("limit", "ticketing/discovery"), ("bearer", "ticketing/discovery"),
            ("error shape", ""),
            ("refusals free", "")} <= names


class Broken:
    """The sandbox with four differences planted, each by altering its answers."""

    def __init__(self) -> None:
        self.overcharged = 0

    def __call__(self, path: str, status: int, headers: dict[str, str], data: Any) -> Any:
        if path == "/restaurants/menu" and status == 200:
            self.overcharged += 1  # a menu costs 6, not 5: the balance says so from now on
        if "x-credits-remaining" in headers and status == 200:
            headers["x-credits-remaining"] = str(int(headers["x-credits-remaining"])
                                                 - self.overcharged)
        if path == "/restaurants/details" and status == 200:
            data.pop("phone")
        if path == "/professional_network/find_company" and status == 200:
            data["queries"][0] = re.sub(r'"([^"]+)"', r'"\1 Ltd"', data["queries"][0])
        if status == 401 and data["error"]["code"] == "invalid_api_key":
            data["error"]["code"] = "unauthorized"
        return data


async def test_each_planted_difference_is_reported_with_its_evidence(tmp_path: Path) -> None:
    plan, report = await run_check(AlteredAnswers(create_app(SandboxConfig()), Broken()),
                                   tmp_path)
    differs = {key for key, verdict in verdicts(report).items() if verdict == "differs"}
    assert differs == {("price", "restaurants/menu"), ("fields", "restaurants/details"),
                       ("suffix removal", "professional_network/find_company"),
                       *(("wrong key", name) for name in KEYED)}
    assert "not checked" not in verdicts(report).values()
    evidence = {(r.rule.name, r.rule.operation): r.evidence for r in report.results}
    (price,) = evidence["price", "restaurants/menu"]
    assert price.request.startswith("GET /restaurants/menu?id=")
    assert price.field == "X-Credits-Remaining" and "(fell by 6)" in price.got
    (missing,) = evidence["fields", "restaurants/details"]
    assert (missing.field, missing.got) == ("phone", "missing")
    (kept,) = evidence["suffix removal", "professional_network/find_company"]
    assert kept.field == "queries[0]" and "Northwind Labs Ltd" in kept.got
    (code,) = evidence["wrong key", "restaurants/search"]
    assert code.request.endswith("(a wrong key)") and "'unauthorized'" in code.got
    assert code.expected == "code invalid_api_key"
    assert report.spent == plan.credits + 1 <= DEFAULT_BUDGET  # the extra credit, measured


class IgnoresBearer:
    """The sandbox behind a proxy that drops ``Authorization``: only X-API-Key works."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            kept = [(k, v) for k, v in scope["headers"] if k.lower() != b"authorization"]
            scope = {**scope, "headers": kept}
        await self.app(scope, receive, send)


async def test_a_service_that_ignores_bearer_differs_on_that_rule_only(tmp_path: Path) -> None:
    _, report = await run_check(IgnoresBearer(create_app(SandboxConfig())), tmp_path)
    differs = [r for r in report.results if r.verdict.value == "differs"]
    assert [(r.rule.name, r.rule.operation) for r in differs] == [
        ("bearer", "ticketing/discovery")]
    (evidence,) = differs[0].evidence
    assert evidence.request.endswith("(own key as Bearer)") and evidence.got.startswith(
        "HTTP 401")


@pytest.mark.parametrize("budget", [0, 20])
async def test_a_lower_budget_leaves_the_paid_rules_that_do_not_fit_unchecked(
    tmp_path: Path, budget: int,
) -> None:
    plan = make_plan(build_checklist(), budget)
    assert plan.credits + 10 <= budget or plan.credits == 0
    assert "sample professional_network/find_company" in plan.excluded
    _, report = await run_check(create_app(SandboxConfig()), tmp_path, budget)
    found = verdicts(report)
    assert report.spent == plan.credits <= budget
    assert found["fields", "professional_network/find_company"] == "not checked"
    assert "differs" not in found.values()
    assert found["catalog price", "restaurants/menu"] == "holds"  # the catalog is public
    # A refusal is sent only while its price, should the service charge it, fits.
    checked = "holds" if budget else "not checked"
    assert found["wrong key", "professional_network/find_company"] == checked
    assert found["fields", "restaurants/search"] == checked
