"""Fixtures for the sandbox tests: an app with "now" frozen, and clients on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sandbox_support import AUTH, FROZEN, AppFactory, client_for

from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig


@pytest.fixture
def make_app() -> AppFactory:
    """Build a sandbox app; keyword arguments go to SandboxConfig."""

    def build(**overrides: Any) -> FastAPI:
        overrides.setdefault("frozen_time", FROZEN)
        return create_app(SandboxConfig(**overrides))

    return build


@pytest.fixture
async def client(make_app: AppFactory) -> AsyncIterator[httpx.AsyncClient]:
    """A client on a fresh in-memory sandbox, sending the demo key."""
    async with client_for(make_app()) as http:
        http.headers.update(AUTH)
        yield http


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A file-backed sandbox database path."""
    return tmp_path / "sandbox.sqlite3"
