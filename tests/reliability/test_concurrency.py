"""Concurrency: two processes sharing the cache and ledger dirs, and 200
concurrent requests against `creditscope serve --workers 2` on one SQLite file."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from creditscope.operations import BY_NAME
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from serving import wait_until_serving

# One explorer-like session: the same mix of calls in each process, some repeated (cache hits).
SESSION = """
import asyncio, json, sys
from creditscope import operations
from creditscope.wiring import build_client
from creditscope.settings import load_settings

async def main() -> None:
    settings, _ = load_settings()
    client = build_client(settings)
    async with client:
        for round_ in range(2):
            for number in range(1, 6):
                await client.call(operations.RESTAURANT_SEARCH,
                                  {"location": "Lisbon", "limit": number})
                await client.call(operations.EVENTS, {"lat": 38.7, "lng": -9.1, "limit": number})
            await client.call(operations.FIND_COMPANY, {"name": "Acme " + sys.argv[1]},
                              refresh=True)
    print(json.dumps({"spent": client.ledger.session_spent(),
                      "calls": len(client.ledger.session_records),
                      "warnings": client.storage_warnings}))

asyncio.run(main())
"""


@pytest.mark.slow
def test_two_processes_share_cache_and_ledger_and_the_totals_add_up(
    isolated_dirs: dict[str, Path], tmp_path: Path
) -> None:
    # A loaded machine makes answers slow, not lost: a long timeout keeps "possibly
    # charged" (a different invariant, tested elsewhere) out of this test.
    env = {**os.environ, "CREDITSCOPE_BUDGET": "100000", "CREDITSCOPE_TIMEOUT": "120"}
    script = tmp_path / "session.py"
    script.write_text(SESSION)
    processes = [
        subprocess.Popen([sys.executable, str(script), name], env=env, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for name in ("one", "two")
    ]
    reports = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err
        reports.append(json.loads(out.strip().splitlines()[-1]))
    assert all(report["calls"] == 22 and not report["warnings"] for report in reports)
    spent = sum(report["spent"] for report in reports)
    # Whatever the timing: each distinct GET is paid at least once and at most once per
    # process (both may miss at once); each forced lookup is paid every time.
    ledger = sqlite3.connect(isolated_dirs["data"] / "creditscope" / "sandbox-ledger.sqlite3")
    paid = ledger.execute("SELECT operation, params, COUNT(*), SUM(credits_charged) FROM calls"
                          " WHERE credits_charged > 0 GROUP BY operation, params").fetchall()
    ledger.close()
    lookup = "professional_network/find_company"
    gets = {(op, params): times for op, params, times, _ in paid if op != lookup}
    assert len(gets) == 10 and all(1 <= times <= 2 for times in gets.values()), gets
    lookups = sum(times for op, _, times, _ in paid if op == lookup)
    assert lookups == 2 * 2
    assert spent == sum(credits for *_, credits in paid)
    credits = subprocess.run([sys.executable, "-m", "creditscope", "credits", "--json"],
                             env=env, text=True, capture_output=True, check=True)
    lifetime = json.loads(credits.stdout)["lifetime"]
    assert lifetime["calls"] == 44 and lifetime["spent"] == spent and lifetime["errors"] == 0
    db = sqlite3.connect(isolated_dirs["data"] / "creditscope" / "sandbox.sqlite3")
    balance = db.execute("SELECT balance FROM accounts WHERE key_hash = ?",
                         (key_digest(DEMO_KEY),)).fetchone()[0]
    db.close()
    assert balance == 10_000 - spent  # the shared sandbox agrees with the shared ledger


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _hammer(base: str, total: int) -> tuple[int, int, set[int]]:
    """``total`` concurrent paid requests; returns (successes, credits they cost, statuses)."""
    calls = [
        ("GET", "/restaurants/search", {"location": "Lisbon"}, "restaurants/search"),
        ("GET", "/ticketing/discovery", {"lat": 38.7, "lng": -9.1}, "ticketing/discovery"),
        ("POST", "/professional_network/find_company", {"name": "Acme"},
         "professional_network/find_company"),
        ("GET", "/restaurants/menu", {"id": "rst_lisbon_pt_011"}, "restaurants/menu"),
    ]
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits,
                                 headers={"X-API-Key": DEMO_KEY}) as http:

        async def one(number: int) -> tuple[int, int]:
            method, path, params, name = calls[number % len(calls)]
            if method == "POST":
                response = await http.post(path, json=params)
            else:
                response = await http.get(path, params=params)
            charged = int(response.headers.get("X-Credits-Charged", "0"))
            if response.status_code == 200:
                assert charged == BY_NAME[name].credits
            return response.status_code, charged

        answers = await asyncio.gather(*(one(n) for n in range(total)))
    ok = [charged for status, charged in answers if status == 200]
    return len(ok), sum(ok), {status for status, _ in answers}


@pytest.mark.slow
def test_the_balance_stays_exact_under_200_concurrent_requests_on_two_workers(
    tmp_path: Path,
) -> None:
    port = _free_port()
    db_path = tmp_path / "served.sqlite3"
    start = 900
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port), "--db",
         str(db_path), "--credits", str(start), "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(process, base)
        # 200 requests averaging 5 credits cost 1 000 > 900: the balance runs out part-way,
        # so both "charged exactly" and "never overdrawn" are exercised.
        successes, cost, statuses = asyncio.run(_hammer(base, 200))
    finally:
        process.terminate()
        output = process.communicate(timeout=30)[0]
    assert "Traceback" not in output
    assert statuses == {200, 402}, statuses
    assert successes > 0
    db = sqlite3.connect(db_path)
    balance, = db.execute("SELECT balance FROM accounts WHERE key_hash = ?",
                          (key_digest(DEMO_KEY),)).fetchone()
    charges, = db.execute("SELECT COUNT(*) FROM charges").fetchone()
    db.close()
    assert balance == start - cost >= 0
    assert charges == successes
    print(f"\n200 concurrent requests on 2 workers: {successes} charged ({cost} credits),"
          f" {200 - successes} refused 402; balance {start} -> {balance}")
