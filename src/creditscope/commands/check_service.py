"""``creditscope check-service [--budget N] [--json]``: the configured service (a live base
URL, or the built-in sandbox) checked against the contract, within a credit budget stated
before anything is sent.

The rules are generated from the operations table (``support/service_check``). Each is
reported as holds, differs (with the request, the field, what was expected and what came)
or not checked (and why). Exit codes: 0 no rule differs, 1 some differ, 2 usage, 3 and 4
as for ``call`` (the service refused the configured key or credits, or could not be reached).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import click

from creditscope.commands.error_output import CommandProblem, JsonErrorsCommand
from creditscope.commands.remedies import EXIT_USAGE
from creditscope.outside_text import json_text, shown, shown_lines
from creditscope.shown_url import shown_url
from creditscope.support.service_check.checks import DEFAULT_BUDGET, Verdict
from creditscope.wording import counted

if TYPE_CHECKING:  # imported where used: `creditscope --help` stays fast
    from creditscope.settings import Settings
    from creditscope.support.service_check.plan import Plan
    from creditscope.support.service_check.runner import CheckReport, RuleResult

EXIT_DIFFERS = 1


def plan_lines(plan: Plan, service: str) -> list[str]:
    """The plan as stated before anything is sent."""
    lines = [shown(f"Checking {service} against the contract: "
                   f"{counted(len(plan.rules), 'rule')}."),
             f"Paid requests ({plan.credits} credits of the {plan.budget}-credit budget):"]
    width = max((len(step.operation) for step in plan.paid), default=0)
    for step in plan.paid:
        checks = ", ".join(plan.checked_by(step))
        lines.append(f"  {step.operation.ljust(width)}  {step.price:>3} cr  for: {checks}")
    if not plan.paid:
        lines.append("  none")
    for step_id, why in plan.excluded.items():
        lines.append(f"  not sent: {step_id}: {why}")
    if plan.excluded:
        lines.append(f"  (--budget {plan.budget_for_all} sends every paid request)")
    free = [step for step in plan.steps if not step.paid]
    lines.append(f"Free requests: {len(free)}: the catalog, and requests the contract says are "
                 "refused (no key,\n  a wrong key, a value past each limit). Each is sent only "
                 "while its price, should the\n  service charge it, still fits the budget.")
    return lines


def result_lines(report: CheckReport) -> list[str]:
    """One line per rule, the evidence under a difference, then the totals."""
    lines = []
    for result in report.results:
        lines.append(f"{result.verdict.value:<11}  {_rule_title(result)}")
        if result.why_not:
            lines.append(f"             {result.why_not}")
        request = ""
        for item in result.evidence:
            if item.request != request:  # each request once, its fields under it
                request = item.request
                lines.append(f"             {request}")
            lines.append(f"               {item.field}: expected {item.expected}, "
                         f"got {item.got}")
    lines.append("")
    lines.append(" · ".join([
        f"{report.count(Verdict.HOLDS)} hold",
        f"{report.count(Verdict.DIFFERS)} differ",
        f"{report.count(Verdict.NOT_CHECKED)} not checked",
        f"{counted(report.spent, 'credit')} spent in {counted(report.sent, 'request')}"]))
    return lines


def _rule_title(result: RuleResult) -> str:
    rule = result.rule
    where = f"{rule.operation}: " if rule.operation else "service: "
    return f"{rule.name} · {where}{rule.says}"


def report_json(plan: Plan, report: CheckReport, service: str) -> dict[str, Any]:
    """The plan and every verdict as one JSON document."""
    return {
        "service": service,
        "budget": plan.budget,
        "planned_credits": plan.credits,
        "paid_requests": [{"operation": step.operation, "credits": step.price,
                           "for": plan.checked_by(step)} for step in plan.paid],
        "spent": report.spent,
        "requests_sent": report.sent,
        "not_sent": plan.excluded,
        "budget_for_every_rule": plan.budget_for_all,
        "rules": [{
            "rule": result.rule.name,
            "operation": result.rule.operation or None,
            "says": result.rule.says,
            "result": result.verdict.value,
            "evidence": [vars(item) for item in result.evidence],
            "why_not_checked": result.why_not or None,
        } for result in report.results],
        "summary": {verdict.value: report.count(verdict) for verdict in Verdict},
    }


@click.command(cls=JsonErrorsCommand)
@click.option("--budget", type=int, default=DEFAULT_BUDGET, show_default=True,
              help="Credits the check may spend; paid rules that do not fit are not checked.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the plan and the verdicts as JSON on stdout (errors too).")
def command(budget: int, as_json: bool) -> None:
    """Check the configured service against the API contract (fields, types, limits, prices,
    auth, error shape, pagination, suffix removal, catalog prices) within a credit budget.

    \b
    Exit codes: 0 every checked rule holds, 1 some differ, 2 usage,
    3 the service refused the key or credits, 4 it could not be reached.
    """
    from creditscope.commands.settings_loading import command_settings
    from creditscope.support.service_check.plan import make_plan
    from creditscope.support.service_check.rules import build_checklist

    if budget < 0:
        raise CommandProblem("usage", f"--budget must be 0 or more, not {budget}",
                             f"Give --budget N credits (default {DEFAULT_BUDGET}).", EXIT_USAGE)
    settings = command_settings()
    if settings.offline:
        raise CommandProblem("offline", "check-service sends requests, and offline mode is on",
                             "Unset CREDITSCOPE_OFFLINE (or `offline` in the settings file).",
                             EXIT_USAGE)
    service = ("the built-in sandbox" if settings.is_sandbox else shown_url(str(settings.base_url)))
    if settings.budget is not None and settings.budget < budget:
        # The client would stop at the session budget halfway: plan within it instead.
        click.echo(f"note: the session budget (CREDITSCOPE_BUDGET or `budget` in the settings "
                   f"file) is {settings.budget} credits: the check plans within it.", err=True)
        budget = settings.budget
    plan = make_plan(build_checklist(), budget)
    click.echo("\n".join(plan_lines(plan, service)), err=as_json)
    if not as_json:
        click.echo("")
    report = asyncio.run(_run(settings, plan))
    if as_json:
        click.echo(json_text(report_json(plan, report, service), indent=2))
    else:
        # Findings quote what the service sent: shown, never obeyed by the terminal.
        click.echo(shown_lines("\n".join(result_lines(report))))
        if plan.excluded:  # what the user runs next to check the rest
            click.echo(f"Rules left unchecked for the budget: --budget {plan.budget_for_all} "
                       "checks every rule.")
    if not report.all_hold:
        raise SystemExit(EXIT_DIFFERS)


async def _run(settings: Settings, plan: Plan) -> CheckReport:
    import httpx

    from creditscope import wiring
    from creditscope.support.service_check.runner import ServiceCheck

    transport = wiring.service_transport(settings)
    address = wiring.service_address(settings)
    client = wiring.build_client(settings, transport=transport)
    for warning in client.storage_warnings:
        click.echo(f"warning: {warning}", err=True)
    http = httpx.AsyncClient(base_url=address.base_url, transport=transport,
                             timeout=wiring.request_timeout(settings))
    try:
        async with client, http:
            return await ServiceCheck(client, http, address.api_key, plan).run()
    finally:
        client.close_files()
