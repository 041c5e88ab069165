"""Issue 23, A, as the user met it: ``creditscope call`` twice (two processes, two
sessions) against the built-in sandbox, the second against a service that charges
and then stalls past the timeout (``sandbox/faults.py``: ``stall_after_charge_ms``).
Every credit the sandbox took shows in ``creditscope credits``."""

from __future__ import annotations

import csv
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


def test_a_batch_whose_answers_are_lost_says_possibly_charged_and_settles_it(
    stalls: dict[str, int], isolated_dirs: dict[str, Path], tmp_path: Path,
) -> None:
    """Issue 35: every row charged and its answer lost: the summary and the ``--out``
    column say what may have been charged (not "0 credits"), each row was sent once,
    and the next balance settles it all as charged."""
    assert _call(SEARCH, "--location", "Madrid") == 0  # the account's first balance
    rows = tmp_path / "places.csv"
    rows.write_text("location\nLisbon\nPorto\nParis\n", encoding="utf-8")
    out = tmp_path / "out.csv"
    stalls["next"] = 3
    result = CliRunner().invoke(main, ["batch", SEARCH, str(rows), "--yes", "--out", str(out),
                                       "--concurrency", "1"], catch_exceptions=False)
    assert "0 credits spent · possibly charged 6 cr" in result.stderr
    with out.open(encoding="utf-8-sig") as handle:
        written = list(csv.DictReader(handle))
    assert [(r["credits"], r["possibly_charged"]) for r in written] == [("0", "2")] * 3
    assert _fall(isolated_dirs["data"]) == 2 + 6  # each row sent once
    assert _lifetime()["possibly_charged"] == 6
    stalls["next"] = 0
    assert _call(SEARCH, "--location", "Rome") == 0
    lifetime = _lifetime()
    assert (lifetime["spent"], lifetime["possibly_charged"], lifetime["unexplained"]) \
        == (_fall(isolated_dirs["data"]), 0, 0)
