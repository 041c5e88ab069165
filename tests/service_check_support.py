"""Running ``check-service``'s check against an ASGI app in-process (the sandbox, or the
sandbox wrapped to break one rule), for tests in more than one folder."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY
from creditscope.support.service_check.checks import DEFAULT_BUDGET
from creditscope.support.service_check.plan import Plan, make_plan
from creditscope.support.service_check.rules import build_checklist
from creditscope.support.service_check.runner import CheckReport, ServiceCheck

BASE_URL = "http://sandbox.test"
# (path, status, headers, JSON body) -> the body to send instead; headers may be changed.
Alter = Callable[[str, int, dict[str, str], Any], Any]
ASGIApp = Callable[..., Any]


class AlteredAnswers:
    """An ASGI app around another that alters its JSON answers (and their headers): a
    service that breaks one rule of the contract, without touching the sandbox."""

    def __init__(self, app: ASGIApp, alter: Alter) -> None:
        self.app = app
        self.alter = alter

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def hold(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            chunks.append(message.get("body", b""))
            if message.get("more_body"):
                return
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in start["headers"]}
            body = b"".join(chunks)
            try:
                data = json.loads(body)
            except ValueError:
                data = None
            if data is not None:
                body = json.dumps(self.alter(scope["path"], start["status"], headers,
                                             data)).encode()
                headers["content-length"] = str(len(body))
            await send({**start, "headers": [(k.encode("latin-1"), v.encode("latin-1"))
                                              for k, v in headers.items()]})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, hold)


async def run_check(app: ASGIApp, tmp_path: Path,
                    budget: int = DEFAULT_BUDGET) -> tuple[Plan, CheckReport]:
    """The plan for ``budget`` and what the check found on ``app``, reached in-process
    by the data client and the raw requests alike."""
    transport = httpx.ASGITransport(app=app)
    plan = make_plan(build_checklist(), budget)
    client = DataClient(BASE_URL, DEMO_KEY, transport=transport,
                        cache=ResponseCache(tmp_path / "cache"),
                        ledger=CreditLedger(tmp_path / "ledger.sqlite3"))
    http = httpx.AsyncClient(base_url=BASE_URL, transport=transport)
    try:
        async with client, http:
            report = await ServiceCheck(client, http, DEMO_KEY, plan).run()
    finally:
        client.ledger.close()
        assert client.cache is not None
        client.cache.close()
    return plan, report


def verdicts(report: CheckReport) -> dict[tuple[str, str], str]:
    """(rule, operation) -> "holds" / "differs" / "not checked"."""
    return {(r.rule.name, r.rule.operation): r.verdict.value for r in report.results}
