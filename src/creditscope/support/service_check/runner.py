"""Sending the plan and judging the rules.

A paid step goes through the data client (``refresh``: the cache is bypassed, the budget
reserves it, the ledger records it and reconciles the balance), and its record keeps the
raw answer. A refusal check goes out as it is, through an HTTP client on the same
transport: the data client would rightly refuse to send it. Before each request the
worst it could cost (its price, should the service charge it) must fit in the budget
with the paid requests still to come; otherwise it is not sent.

A configuration problem (no connection, a rejected own key, no credits, an exhausted
session budget) ends the check with the client's error: it says nothing about the
contract. Any other error answer is evidence.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import httpx

from creditscope import operations
from creditscope.client import errors
from creditscope.client.client import DataClient
from creditscope.client.responses import body_text, query_params, send_capped
from creditscope.shown_url import shown_url
from creditscope.support.service_check.checks import (
    Evidence,
    Exchange,
    NotCheckable,
    Rule,
    Step,
    Verdict,
)
from creditscope.support.service_check.plan import Plan

# No service issued it: a request carrying it must be refused as the spec says.
WRONG_KEY = "sk_creditscope_check_not_a_key_0000"
KEY_WORDS = {"own": "own key", "bearer": "own key as Bearer", "none": "no key",
             "wrong": "a wrong key"}
# The client's errors that are about this machine's settings or account, not the contract.
STOPS_THE_CHECK = (errors.TransportError, errors.InvalidApiKey, errors.InsufficientCredits,
                   errors.BudgetExceeded, errors.OfflineMiss, errors.ClientUnavailable)


@dataclass
class RuleResult:
    """One rule's verdict, with the evidence of a difference or why it was not checked."""

    rule: Rule
    verdict: Verdict
    evidence: list[Evidence] = field(default_factory=list)
    why_not: str = ""


@dataclass
class CheckReport:
    """Every rule's verdict, and what the check spent."""

    results: list[RuleResult]
    spent: int
    sent: int

    def count(self, verdict: Verdict) -> int:
        return sum(1 for result in self.results if result.verdict is verdict)

    @property
    def all_hold(self) -> bool:
        """No rule differs (rules not checked are listed, not failed)."""
        return self.count(Verdict.DIFFERS) == 0


class ServiceCheck:
    """Runs a ``Plan`` against the service ``client`` and ``http`` reach (same transport)."""

    def __init__(self, client: DataClient, http: httpx.AsyncClient, api_key: str | None,
                 plan: Plan, on_sent: Callable[[Exchange], None] | None = None) -> None:
        self.client = client
        self.http = http
        self._service = shown_url(str(http.base_url))  # for messages: user info masked
        self.api_key = api_key
        self.plan = plan
        self.on_sent = on_sent
        self.answers: dict[str, Exchange] = {}
        self.skipped: dict[str, str] = dict(plan.excluded)
        self.spent = 0
        self._balance: int | None = None

    async def run(self) -> CheckReport:
        """Send every planned step that can be sent, then judge every rule."""
        for step in self.plan.steps:
            why_not = self._why_not(step)
            if why_not:
                self.skipped[step.id] = why_not
                continue
            try:
                params = step.params_from(self.answers)
            except NotCheckable as reason:
                self.skipped[step.id] = str(reason)
                continue
            assert params is not None
            exchange = await (self._paid(step, params) if step.paid else self._raw(step, params))
            self._account(exchange)
            self.answers[step.id] = exchange
            if self.on_sent is not None:
                self.on_sent(exchange)
        results = [self._judge(rule) for rule in self.plan.rules]
        return CheckReport(results, self.spent, len(self.answers))

    def _why_not(self, step: Step) -> str:
        missing = next((need for need in step.needs if need not in self.answers), None)
        if missing is not None:
            return self.skipped.get(missing, f"{missing} was not answered")
        worst = step.price if step.paid or not step.expect_answer else 0
        if self.spent + worst + self.plan.reserved_after(step) > self.plan.budget:
            return (f"{step.price} credits, should the service charge it, would not fit the "
                    f"{self.plan.budget}-credit budget ({self.spent} spent)")
        return ""

    def _account(self, exchange: Exchange) -> None:
        """Count what it cost (what the balance shows, or the header if more), and move
        the balance on from an answer of a valid request."""
        fell = 0
        if exchange.balance_before is not None and exchange.remaining is not None:
            fell = exchange.balance_before - exchange.remaining
        self.spent += max(fell, exchange.charged, 0)
        if exchange.step.expect_answer and exchange.remaining is not None:
            self._balance = exchange.remaining

    async def _paid(self, step: Step, params: dict[str, Any]) -> Exchange:
        try:
            record = (await self.client.call(step.operation, params, refresh=True)).record
        except STOPS_THE_CHECK:
            raise
        except errors.CreditscopeError as error:  # an answer that differs: evidence
            if error.record is None or error.record.status is None:
                raise
            record = error.record
        return self._exchange(step, params, record.status, record.response_headers,
                              record.raw_body or "")

    async def _raw(self, step: Step, params: dict[str, Any]) -> Exchange:
        op = operations.get(step.operation)
        headers = {"Accept": "application/json"}
        if step.key == "own" and self.api_key:
            headers["X-API-Key"] = self.api_key
        elif step.key == "bearer" and self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        elif step.key == "wrong":
            headers["X-API-Key"] = WRONG_KEY
        try:
            response, content = await send_capped(self.http, self.http.build_request(
                op.method, op.path, headers=headers, json=params if op.is_post else None,
                params=None if op.is_post else query_params(params)))
        except httpx.TimeoutException as exc:
            raise errors.Timeout(f"No answer from {self._service} in time",
                                 code="timeout") from exc
        except httpx.TransportError as exc:
            raise errors.ConnectionFailed(f"Cannot reach {self._service}: {exc}",
                                          code="connection_failed") from exc
        body = "" if content is None else body_text(response, content)  # past the cap: unread
        return self._exchange(step, params, response.status_code, dict(response.headers),
                              body)

    def _exchange(self, step: Step, params: dict[str, Any], status: int | None,
                  headers: dict[str, str], body: str) -> Exchange:
        op = operations.get(step.operation)
        if op.is_post:
            shown = f"{op.method} {op.path} {_json(params)}"
        else:
            query = urlencode(query_params(params))
            shown = f"{op.method} {op.path}" + (f"?{query}" if query else "")
        return Exchange(step, f"{shown} ({KEY_WORDS[step.key]})", status, headers, body,
                        self._balance)

    def _judge(self, rule: Rule) -> RuleResult:
        sent = {sid: self.answers[sid] for sid in rule.steps if sid in self.answers}
        unsent = [sid for sid in rule.steps if sid not in self.answers]
        if (rule.all_steps and unsent) or not sent:
            first = unsent[0] if unsent else ""
            why = self.skipped.get(first, "none of its requests was sent")
            return RuleResult(rule, Verdict.NOT_CHECKED, why_not=why)
        try:
            evidence = rule.judge(sent)
        except NotCheckable as reason:
            return RuleResult(rule, Verdict.NOT_CHECKED, why_not=str(reason))
        return RuleResult(rule, Verdict.DIFFERS if evidence else Verdict.HOLDS, evidence)


def _json(params: dict[str, Any]) -> str:
    text = json.dumps(params, ensure_ascii=False)
    return text if len(text) <= 120 else text[:119] + "…"
