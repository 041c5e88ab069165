"""Issue 35: ``creditscope credits`` is about one account (the configured service and
key) unless asked for ``--all``, which shows each account apart; ``--json`` always
prints JSON; calls recorded before the ledger named accounts are kept and shown."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from client_fakes import FakeService, commands_talk_to
from creditscope.cli import main

FIRST_KEY = "sk_live_first_key_1111"
SECOND_KEY = "sk_live_second_key_2222"
MENU = "restaurants/menu"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def report(*args: str) -> dict[str, Any]:
    result = run("credits", "--json", *args)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch, isolated_dirs: dict[str, Path]) -> FakeService:
    fake = FakeService()
    commands_talk_to(fake, monkeypatch, FIRST_KEY)
    return fake


def test_credits_shows_the_configured_accounts_numbers_only(
    service: FakeService, monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert run("call", MENU, "--id", "r1").exit_code == 0  # 5 cr on the first key
    monkeypatch.setenv("CREDITSCOPE_API_KEY", SECOND_KEY)
    assert run("call", "restaurants/details", "--id", "r1").exit_code == 0  # 2 cr
    service.script = [httpx.ReadTimeout("answer lost")]
    lost = run("call", MENU, "--id", "r2")  # the second key's 5 cr, possibly charged
    assert lost.exit_code == 4 and "possibly charged 5 cr" in lost.stderr

    second = report()
    assert (second["lifetime"]["spent"], second["lifetime"]["possibly_charged"]) == (2, 5)
    assert set(second["lifetime"]["by_operation"]) == {"restaurants/details", MENU}
    assert second["lifetime"]["by_operation"][MENU]["spent"] == 0  # its lost call only
    monkeypatch.setenv("CREDITSCOPE_API_KEY", FIRST_KEY)
    first = report()
    assert (first["lifetime"]["spent"], first["lifetime"]["possibly_charged"]) == (5, 0)
    assert list(first["lifetime"]["by_operation"]) == [MENU]
    assert first["account"] != second["account"]
    text = run("credits").stdout
    assert "Possibly charged" not in text  # the other account's lost call is not ours
    assert "1 other account in this ledger" in text and "--all" in text

    every = report("--all")
    by_account = {a["account"]: a for a in every["accounts"]}
    assert set(by_account) == {first["account"], second["account"]}
    assert by_account[first["account"]]["configured"] is True
    assert by_account[second["account"]]["lifetime"]["spent"] == 2
    assert by_account[second["account"]]["lifetime"]["possibly_charged"] == 5
    assert "another service or key" in run("credits", "--all").stdout


def test_credits_json_on_an_empty_ledger_is_json(isolated_dirs: dict[str, Path]) -> None:
    data = report()
    assert data["lifetime"]["spent"] == 0 and data["lifetime"]["calls"] == 0
    assert data["last_session_started"] is None
    assert report("--all")["accounts"] == []
    assert "No calls recorded yet" in run("credits").stdout


def _old_ledger(path: Path, rows: int) -> None:
    """A ledger from before the file named accounts (its first columns only)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE calls (id INTEGER PRIMARY KEY AUTOINCREMENT, session TEXT NOT NULL,"
        " at TEXT NOT NULL, operation TEXT NOT NULL, status INTEGER, cache TEXT NOT NULL,"
        " credits_charged INTEGER NOT NULL, credits_saved INTEGER NOT NULL, error_code TEXT,"
        " remaining INTEGER)")
    db.executemany(
        "INSERT INTO calls (session, at, operation, status, cache, credits_charged,"
        " credits_saved, error_code, remaining) VALUES (?,?,?,?,?,?,?,?,?)",
        [("old", f"2025-01-0{n + 1}T10:00:00+00:00", MENU, 200, "miss", 5, 0, None, 9_000)
         for n in range(rows)])
    db.commit()
    db.close()


def test_calls_from_before_accounts_are_kept_under_an_unknown_account(
    service: FakeService, isolated_dirs: dict[str, Path],
) -> None:
    _old_ledger(isolated_dirs["data"] / "creditscope" / "ledger.sqlite3", rows=3)
    assert report()["lifetime"]["calls"] == 0  # which key made them cannot be told
    text = run("credits").stdout
    assert "1 other account in this ledger" in text
    every = report("--all")
    [unknown] = [a for a in every["accounts"] if a["account"] == "unknown account"]
    assert (unknown["lifetime"]["calls"], unknown["lifetime"]["spent"]) == (3, 15)
    assert "calls recorded before accounts were kept" in run("credits", "--all").stdout


def test_the_sandbox_ledgers_old_calls_are_the_sandbox_accounts(
    isolated_dirs: dict[str, Path],
) -> None:
    _old_ledger(isolated_dirs["data"] / "creditscope" / "sandbox-ledger.sqlite3", rows=2)
    data = report()  # no base URL: the built-in sandbox, the only account of its ledger
    assert (data["lifetime"]["calls"], data["lifetime"]["spent"]) == (2, 10)


KILLED_MID_CALL = """
import os
from creditscope.commands.settings_loading import command_settings
from creditscope.wiring import configured_account, open_ledger
settings = command_settings()
ledger = open_ledger(settings)
ledger.flight_started(600, configured_account(settings), "restaurants/menu", 5)
os._exit(0)  # as kill -9 leaves it: the row stays, nothing recorded
"""


def test_a_call_killed_mid_request_is_possibly_charged_at_once(service: FakeService) -> None:
    import subprocess
    import sys

    assert run("call", "restaurants/details", "--id", "r1").exit_code == 0  # 2 cr, a balance
    subprocess.run([sys.executable, "-c", KILLED_MID_CALL], check=True, timeout=60)
    lifetime = report()["lifetime"]
    assert (lifetime["spent"], lifetime["possibly_charged"]) == (2, 5)


async def test_a_charge_lost_before_the_first_balance_says_it_cannot_be_settled(
    tmp_path: Path,
) -> None:
    # The very first request lost on the way: the balance the ledger then counts from may
    # or may not include it, so no later balance can tell. `credits` says so instead of
    # promising, forever, that "the next balance settles them".
    from creditscope.client.errors import Timeout
    from creditscope.commands.credits import _account_report
    from edge_support import Sandbox

    sandbox = Sandbox(tmp_path)
    client = sandbox.client()
    sandbox.transport.drop_next = 1
    with pytest.raises(Timeout):
        await client.call("professional_network/find_company", {"name": "Acme"})
    await client.call("professional_network/find_company", {"name": "Globex"})
    await client.call("professional_network/find_company", {"name": "Initech"})
    text = "\n".join(_account_report(client.ledger, client.account).lines("Account"))
    await client.aclose()
    assert "Possibly charged 10 cr" in text
    assert "10 cr cannot be settled" in text
    assert "next balance the service reports settles" not in text
