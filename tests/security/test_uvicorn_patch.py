"""The uvicorn fence (creditscope.commands.uvicorn_patch): checked against the locked
uvicorn, and off, saying so, on any other."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.commands import serve_start, uvicorn_patch
from creditscope.commands.serve_http import uvicorn_limits


def test_checked_against_the_installed_uvicorn() -> None:
    # Fails on a uvicorn upgrade: re-read uvicorn.protocols.http.h11_impl.H11Protocol
    # (connection_made, handle_events, on_response_complete, conn, loop, transport),
    # then move CHECKED_UVICORN and pyproject's cap.
    assert uvicorn_patch.applies(), (
        f"uvicorn_patch was checked against uvicorn {uvicorn_patch.CHECKED_UVICORN} only")


@pytest.fixture
def another_uvicorn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(uvicorn_patch, "applies", lambda: False)


@pytest.mark.usefixtures("another_uvicorn")
def test_on_another_uvicorn_serve_uses_its_stock_protocol_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(serve_start, "serve_on", lambda config, _sock: calls.append(config))
    assert uvicorn_limits(10)["http"] == "h11"
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db", str(tmp_path / "db")])
    assert result.exit_code == 0, result.output
    assert "request deadline" in result.output
    [config] = calls
    assert config.http == "h11"
    assert config.limit_concurrency > 0


def test_a_uvicorn_without_the_private_module_serves_with_its_stock_protocol() -> None:
    """A uvicorn release that moves ``h11_impl``: the patch imports, turns itself off and
    says why, and serve falls back to uvicorn's own "h11" (no crash at import)."""
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['uvicorn.protocols.http.h11_impl'] = None\n"
        "from creditscope.commands import uvicorn_patch\n"
        "from creditscope.commands.serve_http import uvicorn_limits\n"
        "print(uvicorn_patch.applies(), uvicorn_limits(5)['http'], uvicorn_patch.MISSING)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    applies, protocol, why = done.stdout.strip().split(" ", 2)
    assert (applies, protocol) == ("False", "h11")
    assert "uvicorn.protocols.http.h11_impl" in why
