"""Helpers shared by the reliability tests: scripted faulty transports, instant
retries, clients on temporary stores, and running the CLI in-process."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner, Result

from client_fakes import InstantRetry  # one retry double for every test folder
from creditscope.cli import main
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger

LIVE_URL = "https://api.example.test"
CANARY_KEY = "sk_live_SECRET_canary_9f3a"

Answer = httpx.Response | Exception | Callable[[httpx.Request], httpx.Response]


@dataclass
class ScriptedTransport(httpx.AsyncBaseTransport):
    """Answers requests from a script, in order (the last answer repeats), and keeps them."""

    script: Sequence[Answer]
    requests: list[httpx.Request] = field(default_factory=list)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        self.requests.append(request)
        answer = self.script[min(len(self.requests), len(self.script)) - 1]
        if isinstance(answer, Exception):
            raise answer
        if callable(answer):
            return answer(request)
        # A fresh copy each time: a Response's stream can be read only once.
        return httpx.Response(
            answer.status_code, headers=answer.headers, content=answer.content,
            request=request,
        )

    def sent(self, method: str) -> list[httpx.Request]:
        return [r for r in self.requests if r.method == method]


class TruncatedStream(httpx.AsyncByteStream):
    """A body that stops half-way, as when the server dies mid-answer."""

    def __init__(self, first_part: bytes) -> None:
        self.first_part = first_part

    async def __aiter__(self):  # type: ignore[override]
        yield self.first_part
        raise httpx.RemoteProtocolError("peer closed connection without sending complete body")


def make_client(
    tmp_path: Path, transport: httpx.AsyncBaseTransport, *, key: str = "sk_live_test_12345678"
) -> DataClient:
    """A live-service client on ``transport`` with its own cache and ledger files."""
    return DataClient(
        LIVE_URL,
        key,
        transport=transport,
        cache=ResponseCache(tmp_path / "cache" / "v1"),
        ledger=CreditLedger(tmp_path / "data" / "ledger.sqlite3"),
        retry_policy=InstantRetry(),
    )


def run_cli(args: list[str], env: dict[str, str] | None = None) -> Result:
    """``creditscope ARGS`` in-process, with stdout and stderr kept apart."""
    merged = {k: v for k, v in os.environ.items() if k.startswith(("XDG_", "HOME"))}
    merged.update(env or {})
    return CliRunner().invoke(main, args, env=merged, catch_exceptions=True)


def cli_with_transport(
    monkeypatch: Any, transport: httpx.AsyncBaseTransport
) -> None:
    """Make ``creditscope call`` build its client on ``transport`` with instant retries."""
    from creditscope import wiring

    real = wiring.build_client

    def build(settings: Any, **_: Any) -> DataClient:
        client = real(settings, transport=transport)
        client.retry_policy = InstantRetry()
        return client

    monkeypatch.setattr(wiring, "build_client", build)
