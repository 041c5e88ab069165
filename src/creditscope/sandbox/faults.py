"""Injected faults for demos and tests: latency, 503s and unavailable company pages."""

from __future__ import annotations

import asyncio
import random

from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.problems import ApiProblem


class Faults:
    """The configured faults, drawn from one seeded generator."""

    def __init__(self, config: SandboxConfig) -> None:
        self.latency_ms = max(0, config.latency_ms)
        self.fail_rate = min(1.0, max(0.0, config.fail_rate))
        self.unavailable_rate = min(1.0, max(0.0, config.unavailable_rate))
        self.rng = random.Random(config.seed)

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
