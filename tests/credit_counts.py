"""Both sides of the money after a command ran in-process (``CliRunner``): what the
ledger recorded and what the sandbox charged the demo key."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from creditscope.cli import main
from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY
from creditscope.sandbox.accounts import key_digest


def sandbox_balance(data: Path) -> int:
    """The sandbox's balance for the demo key (untouched: the starting credits)."""
    path = data / "creditscope" / "sandbox.sqlite3"
    if not path.exists():
        return DEFAULT_CREDITS
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT balance FROM accounts WHERE key_hash = ?",
                         (key_digest(DEMO_KEY),)).fetchone()
    return DEFAULT_CREDITS if row is None else int(row[0])


def ledger_lifetime() -> dict[str, Any]:
    """``creditscope credits --json``'s lifetime totals (zeros before any call)."""
    shown = CliRunner().invoke(main, ["credits", "--json"])
    if "No calls recorded" in shown.output:
        return {"spent": 0, "calls": 0}
    totals: dict[str, Any] = json.loads(shown.stdout)["lifetime"]
    return totals


def ledger_spent() -> int:
    """Credits the ledger recorded as spent, over every session."""
    return int(ledger_lifetime()["spent"])


def rows_in_ledger(root: Path, file_name: str, table: str) -> int:
    """Rows of ``table`` in the ledger ``file_name`` a subprocess writes under ``root``,
    read without waiting for it (0 until the file exists or while it is busy)."""
    for path in root.rglob(file_name):
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1) as db:
                return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        except sqlite3.Error:
            return 0
    return 0
