"""Explorer test setup: the app as ``creditscope`` builds it (its client factory, SQLite
ledger and cache in the test's directory), on the in-process sandbox with a frozen clock,
fixed latencies, no cursor blink, no system clipboard."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from textual.widgets import Input

from creditscope.client.records import CallRecord
from creditscope.settings import Settings
from creditscope.tui import clipboard
from creditscope.tui.app import CreditscopeApp
from explorer_factory import explorer_factory, in_process

FROZEN_NOW = datetime(2025, 3, 14, 12, 30, 0, tzinfo=UTC)
FIXED_LATENCY_MS = 42.0
SIZE = (120, 36)


@pytest.fixture(autouse=True)
def deterministic_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """UTC wall clock, no blinking cursor, and never the developer's real clipboard."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    original_init = Input.__init__

    def init_without_blink(self: Input, *args: Any, **kwargs: Any) -> None:
        original_init(self, *args, **kwargs)
        self.cursor_blink = False

    monkeypatch.setattr(Input, "__init__", init_without_blink)
    monkeypatch.setattr(clipboard, "platform_tool", lambda: None)
    # The developer's own terminal (tmux, GNOME Terminal…) must not change what a copy says.
    monkeypatch.setattr(clipboard, "copy_may_be_lost", lambda env, tool: None)


def freeze_record(record: CallRecord | None) -> None:
    # Subscribed before the app: what the screens show is fixed.
    if record is None:
        return
    record.latency_ms = FIXED_LATENCY_MS
    record.started_at = FROZEN_NOW
    if record.fetched_at is not None:
        record.fetched_at = FROZEN_NOW
    if record.request_id:
        record.request_id = "req_0123456789abcdef"
    for name in list(record.response_headers):
        if name.lower() == "x-request-id":
            record.response_headers[name] = "req_0123456789abcdef"


def frozen_sandbox() -> httpx.AsyncBaseTransport:
    """The built-in sandbox in this process, in memory, its clock frozen at FROZEN_NOW:
    the service the explorer's tests talk to (what the child process runs for users)."""
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    return in_process(create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW)))


def sandbox_client_factory(
    tmp_path: Path, service: httpx.AsyncBaseTransport | None = None
) -> Callable[[Settings], Any]:
    """The explorer's own client factory (``wiring.explorer_client``), with the service
    replaced by ``service`` (default: a fresh :func:`frozen_sandbox`), records frozen."""
    return explorer_factory(service or frozen_sandbox, on_record=freeze_record)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings pointing every file into this test's temp dir."""
    return Settings(
        cache_dir=tmp_path / "cache",
        data_dir=tmp_path / "data",
        config_file=tmp_path / "config" / "config.toml",
    )


@pytest.fixture
def make_app(tmp_path: Path, settings: Settings) -> Callable[..., CreditscopeApp]:
    """``make_app(api_key=..., initial_mode=..., **settings)`` -> an app on the sandbox."""

    def make(
        api_key: str | None = None, initial_mode: str | None = None, **overrides: Any
    ) -> CreditscopeApp:
        chosen = settings.model_copy(update=overrides)
        if api_key is not None:
            chosen = chosen.model_copy(update={"api_key": SecretStr(api_key)})
        return CreditscopeApp(
            chosen,
            client_factory=sandbox_client_factory(tmp_path),
            clock=lambda: FROZEN_NOW,
            initial_mode=initial_mode,
        )

    return make


@pytest.fixture
def copied(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Everything the app copies to the clipboard, in order."""
    texts: list[str] = []
    monkeypatch.setattr(CreditscopeApp, "copy_to_clipboard", lambda self, text: texts.append(text))
    return texts
