"""Injected faults for demos and tests: latency, 503s, unavailable company pages, and
answers that stall after the charge."""

from __future__ import annotations

import asyncio
import random

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.problems import ApiProblem


class Faults:
    """The configured faults, drawn from one seeded generator."""

    def __init__(self, config: SandboxConfig) -> None:
        self.latency_ms = max(0, config.latency_ms)
        self.fail_rate = min(1.0, max(0.0, config.fail_rate))
        self.unavailable_rate = min(1.0, max(0.0, config.unavailable_rate))
        self.rng = random.Random(config.seed)
        self.stall_after_charge_ms = max(0, config.stall_after_charge_ms)
        self.stalls = config.stalls

    async def before_answer(self) -> None:
        """Sleep the configured latency, then maybe fail with 503 (never charged)."""
        if self.latency_ms:
            await asyncio.sleep(self.latency_ms / 1000)
        if self.fail_rate and self.rng.random() < self.fail_rate:
            raise ApiProblem(
                503,
                "service_unavailable",
                "The service is temporarily unavailable (injected fault); retry shortly. "
                "Nothing was charged.",
                headers={"Retry-After": "1"},
            )

    async def after_charge(self) -> None:
        """Hold a charged answer back, as a service that charged and then stalled."""
        if not self.stall_after_charge_ms or self.stalls == 0:
            return
        if self.stalls is not None:
            self.stalls -= 1
        await asyncio.sleep(self.stall_after_charge_ms / 1000)


class StallAfterCharge:
    """Pure ASGI middleware: a charged answer waits for ``Faults.after_charge`` before
    its first byte is sent (the charge is already committed)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        faults: Faults = scope["app"].state.faults

        async def send_after_stall(message: Message) -> None:
            if message["type"] == "http.response.start" and _charged(message):
                await faults.after_charge()
            await send(message)

        await self.app(scope, receive, send_after_stall)


def _charged(start: Message) -> bool:
    """Whether a response start says credits were charged."""
    for name, value in start.get("headers", []):
        if name.lower() == b"x-credits-charged":
            return bool(value.strip()) and value.strip() != b"0"
    return False
