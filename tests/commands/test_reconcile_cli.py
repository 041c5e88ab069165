"""Issue 23, A, as the user met it: ``creditscope call`` twice (two processes, two
sessions) against the built-in sandbox, the second against a service that charges
and then stalls past the timeout (``sandbox/faults.py``: ``stall_after_charge_ms``).
Every credit the sandbox took shows in ``creditscope credits``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from creditscope import wiring
from creditscope.cli import main
from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY
from creditscope.sandbox.accounts import key_digest

SEARCH = "restaurants/search"
MENU = "restaurants/menu"


@pytest.fixture
def stalls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many charged answers the next command's sandbox holds back past the timeout."""
    wanted = {"next": 0}
    built = wiring.sandbox_transport

    def faulty(db_path: Path | None) -> Any:
        transport = built(db_path)
        faults = transport.app.state.faults  # type: ignore[attr-defined]
        faults.stall_after_charge_ms, faults.stalls = 5_000, wanted["next"]
        return transport

    monkeypatch.setattr(wiring, "sandbox_transport", faulty)
    monkeypatch.setenv("CREDITSCOPE_TIMEOUT", "0.25")
    return wanted


def _fall(data_dir: Path) -> int:
    db = sqlite3.connect(data_dir / "creditscope" / "sandbox.sqlite3")
    try:
        row = db.execute("SELECT balance FROM accounts WHERE key_hash = ?",
                         (key_digest(DEMO_KEY),)).fetchone()
    finally:
        db.close()
    return DEFAULT_CREDITS - int(row[0])


def _lifetime() -> dict[str, Any]:
    out = CliRunner().invoke(main, ["credits", "--json"], catch_exceptions=False).output
    lifetime: dict[str, Any] = json.loads(out)["lifetime"]
    return lifetime


def _call(*args: str) -> int:
    return CliRunner().invoke(main, ["call", *args, "--json"], catch_exceptions=False).exit_code


def test_a_menu_charged_then_stalled_costs_one_price_said_possibly_charged_then_settled(
    stalls: dict[str, int], isolated_dirs: dict[str, Path],
) -> None:
    """Issue 35: the timed-out GET is not re-sent (one price, not two), ``call`` says
    "possibly charged 5 cr", and the next call's balance settles it as charged."""
    assert _call(SEARCH, "--location", "Lisbon") == 0  # one ordinary call
    stalls["next"] = 1  # charged, stalled, timed out
    lost = CliRunner().invoke(main, ["call", MENU, "--id", "rst_lisbon_pt_001"],
                              catch_exceptions=False)
    assert lost.exit_code == 4
    assert "possibly charged 5 cr" in lost.stderr
    assert _fall(isolated_dirs["data"]) == 7  # one menu, charged once
    assert _lifetime()["possibly_charged"] == 5
    text = CliRunner().invoke(main, ["credits"], catch_exceptions=False).output
    assert "Possibly charged 5 cr" in text
    stalls["next"] = 0
    assert _call(SEARCH, "--location", "Porto") == 0  # its balance settles it
    lifetime = _lifetime()
    assert (lifetime["spent"], lifetime["unexplained"], lifetime["possibly_charged"]) \
        == (9, 0, 0) == (_fall(isolated_dirs["data"]), 0, 0)
    assert lifetime["by_operation"][MENU]["spent"] == 5
