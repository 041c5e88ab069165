"""How a sandbox instance is set up: its database, keys and injected faults."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY


def default_keys() -> dict[str, int]:
    """The demo key with the default starting balance."""
    return {DEMO_KEY: DEFAULT_CREDITS}


@dataclass
class SandboxConfig:
    """Settings of one sandbox app.

    ``db_path`` None keeps everything in memory (tests); ``keys`` maps each API
    key to the balance it starts with the first time the database sees it.
    ``seed`` drives only the injected faults; the data is always deterministic.
    ``frozen_time`` pins "now" (the week the events are anchored to, and
    restaurants' ``open_now``) for reproducible tests and screenshots.
    ``stall_after_charge_ms`` holds a charged answer back after the charge (a
    service that charges, then stalls past the client's timeout); ``stalls`` is
    how many charged answers stall (None: every one). ``provider_requests_*``
    bound how often one client may ask for a provider (see ``rate_limit``).
    """

    db_path: str | Path | None = None
    keys: dict[str, int] = field(default_factory=default_keys)
    latency_ms: int = 0
    fail_rate: float = 0.0
    unavailable_rate: float = 0.0
    seed: int = 0
    stall_after_charge_ms: int = 0
    stalls: int | None = None
    frozen_time: datetime | None = None
    # POST /provider-requests per client address: a burst, then so many a minute.
    provider_requests_burst: int = 20
    provider_requests_per_minute: int = 60
