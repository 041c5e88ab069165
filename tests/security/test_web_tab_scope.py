"""What a `creditscope web` tab may read and write of the presenter's ledger: its own
calls, nothing else. The ledger file still records every call the tab makes (the
presenter's spend is whole); history, usage and totals read back the tab's own session,
and no label is written."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from web_attacker import open_tab, web_server

from creditscope.client.history import HistoryQuery
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CallRecord

PRESENTERS = "Zzyzxville"


def call(location: str, label: str | None = None) -> CallRecord:
    return CallRecord("restaurants/search", "GET", "http://service.test/restaurants/search",
                      {"location": location}, status=200, credits_charged=2, attempts=1,
                      label=label)


def test_a_web_tab_reads_back_its_own_calls_only(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    presenter = CreditLedger(path)
    presenter.record(call(PRESENTERS, label="T-77"))
    presenter.close()

    tab = CreditLedger(path, own_session_only=True)
    visitors = call("Porto")
    visitors.account = "the tab's account"
    tab.record(visitors)
    assert tab.accounts() == ["the tab's account"]  # Usage names no presenter's account
    everything = tab.history.find(HistoryQuery())
    assert [entry.params["location"] for entry in everything] == ["Porto"]
    assert tab.history.find(HistoryQuery(search=PRESENTERS.lower())) == []
    assert tab.history.find(HistoryQuery(label="T-77")) == []
    assert tab.history.get(1) is None  # the presenter's row, by id
    assert [row.operation for row in tab.usage_rows()] == ["restaurants/search"]
    assert tab.lifetime_totals().spent == 2
    assert tab.latest_session() is None

    # Labels: neither the presenter's call nor the tab's own gets one.
    [own] = everything
    assert tab.history.set_label(1, "pwned") is None
    assert tab.history.set_label(own.id, "pwned") is None
    tab.close()

    rows = sqlite3.connect(path).execute("SELECT params, label FROM calls ORDER BY id").fetchall()
    assert len(rows) == 2  # the tab's call is in the presenter's file all the same
    assert [label for _, label in rows] == ["T-77", None]


@pytest.mark.slow
async def test_a_visitor_sees_and_labels_none_of_the_presenters_calls(tmp_path: Path) -> None:
    """A real server and tab on loopback: the presenter looked up a place before the demo
    and labelled it for a ticket; the visitor's Activity shows neither, and ``l`` on
    whatever is selected writes no label to the presenter's ledger."""
    started = time.monotonic()
    env = {**os.environ, "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "config.toml")}
    before = subprocess.run(
        [sys.executable, "-m", "creditscope", "call", "restaurants/search", "--location",
         PRESENTERS, "--allow-unknown-place", "--label", "T-77"],
        env=env, capture_output=True, text=True, timeout=60, check=False)
    assert before.returncode == 0, before.stderr
    ledger = next(Path(os.environ["XDG_DATA_HOME"]).rglob("*ledger*.sqlite3"))
    with web_server(tmp_path, env=env) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            tab = await open_tab(session, server.base, "160x40")
            await tab.wait_for("creditscope")
            await tab.keys("\x1b", "5")
            await tab.wait_for("Search every session")
            await asyncio.sleep(1.5)  # the past sessions load in a worker
            await tab.keys("\t", "l", pause=0.5)
            await tab.keys(*"pwned", "\r", pause=0.05)
            await asyncio.sleep(1)
            painted = tab.text()
            await tab.close()
    labels = sqlite3.connect(ledger).execute("SELECT label FROM calls").fetchall()
    assert labels == [("T-77",)]
    assert PRESENTERS not in painted and "T-77" not in painted
    assert time.monotonic() - started < 120


def test_a_web_tab_keeps_its_place_choices_to_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.tui.place_choices import FILE_NAME, choices_of

    presenters = tmp_path / FILE_NAME
    presenters.write_text('{"valencia": "valencia_es"}', encoding="utf-8")

    class Explorer:  # what choices_of reads of it
        settings = type("Settings", (), {"data_dir": tmp_path})()

    monkeypatch.setenv("CREDITSCOPE_WEB_DEMO", "1")
    choices = choices_of(Explorer())  # type: ignore[arg-type]
    assert choices.path is None  # neither read nor written
    assert presenters.read_text(encoding="utf-8") == '{"valencia": "valencia_es"}'


@pytest.mark.slow
async def test_a_visitor_sees_none_of_the_presenters_recent_lookups(tmp_path: Path) -> None:
    """The presenter looked a company up before the demo; the visitor's Company area
    lists no recent lookup (the cache is shared, its list of names is not)."""
    started = time.monotonic()
    env = {**os.environ, "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "config.toml")}
    before = subprocess.run(
        [sys.executable, "-m", "creditscope", "call", "professional_network/find_company",
         "--name", "PresenterPrivateCo"],
        env=env, capture_output=True, text=True, timeout=60, check=False)
    assert before.returncode == 0, before.stderr
    with web_server(tmp_path, env=env) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            tab = await open_tab(session, server.base, "160x40")
            await tab.wait_for("creditscope")
            await tab.keys("\x1b", "2")
            # The list fills once the tab's client is ready: its own lookups, none yet.
            await tab.wait_for("No recent lookups")
            painted = tab.text()
            await tab.close()
    assert "PresenterPrivateCo" not in painted
    assert not re.search(r"Recent lookups \(\d", painted)
    assert time.monotonic() - started < 120
