"""Stopping a running ``creditscope batch`` at once (a second Ctrl+C, SIGTERM), in a
real process against a loopback ``creditscope serve`` that answers slowly: the requests
in flight are abandoned, and every row whose request may have been charged says so in
--out and in the summary. Before, a second Ctrl+C cancelled the run's bookkeeping while
the client still finished and recorded those calls: "0 credits spent", every row
``not run``, yet the ledger held 16 paid calls; SIGTERM wrote no --out at all."""

from __future__ import annotations

import csv
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from credit_counts import rows_in_ledger
from creditscope.sandbox.accounts import key_digest
from serving import wait_until_serving

FIND = "professional_network/find_company"
KEY = "sk_sandbox_demo_4242"
START = 10_000
PORTS = range(19950, 19960)
# One worker runs them in turn: two at once picked the same free port, and both
# batches then charged the one server that bound it (320 cr against 160 said).
pytestmark = pytest.mark.xdist_group("batch-interrupt")
LATENCY_MS = 2500  # every request is still on the wire when the signals come


@pytest.fixture
def slow_service(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``creditscope serve`` on a free port of this suite's range, answering slowly."""
    port = next(p for p in PORTS if _free(p))
    db = tmp_path / "served.sqlite3"
    server = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port), "--db", str(db),
         "--credits", str(START), "--latency", str(LATENCY_MS)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(server, base)
        assert server.poll() is None, "another server holds the port: " + base
        yield base, db
    finally:
        server.terminate()
        server.communicate(timeout=30)


def _free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def _in_flight(tmp_path: Path) -> int:
    """Exchanges the batch process has on the wire now (its ledger's in_flight rows)."""
    return rows_in_ledger(tmp_path, "ledger.sqlite3", "in_flight")


def _balance(db_path: Path) -> int:
    with sqlite3.connect(db_path) as db:
        balance, = db.execute("SELECT balance FROM accounts WHERE key_hash = ?",
                              (key_digest(KEY),)).fetchone()
    return int(balance)


def _batch_stopped_by(signals: list[signal.Signals], tmp_path: Path, base: str,
                      ) -> tuple[subprocess.CompletedProcess[str], list[dict[str, str]]]:
    source = tmp_path / "in.csv"
    source.write_text("Company,Website\n" + "".join(
        f"Sigco Number{n} Oy,sigco{n}.fi\n" for n in range(200)), encoding="utf-8")
    out = tmp_path / "out.csv"
    env = {**os.environ, "CREDITSCOPE_BASE_URL": base, "CREDITSCOPE_API_KEY": KEY}
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "batch", FIND, str(source), "--yes",
         "--concurrency", "16", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and process.poll() is None \
                and _in_flight(tmp_path) < 16:
            time.sleep(0.05)
        time.sleep(0.5)  # the requests have reached the service
        for signum in signals:
            process.send_signal(signum)
            time.sleep(0.05)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    with out.open(encoding="utf-8-sig") as handle:
        rows = list(csv.DictReader(handle))
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr), rows


def _summary(stderr: str) -> tuple[int, int]:
    """(credits spent, credits possibly charged) as the summary line says them."""
    line = next(line for line in stderr.splitlines() if "valid rows done" in line)
    spent = int(re.search(r"(\d+) credits spent", line).group(1))  # type: ignore[union-attr]
    possibly = re.search(r"possibly charged (\d+) cr", line)
    return spent, int(possibly.group(1)) if possibly else 0


@pytest.mark.parametrize(("signals", "code"), [
    ([signal.SIGINT, signal.SIGINT], 130),
    ([signal.SIGTERM], 143),
])
def test_rows_abandoned_in_flight_say_they_may_be_charged(
    slow_service: tuple[str, Path], tmp_path: Path, signals: list[signal.Signals], code: int,
) -> None:
    base, db = slow_service
    result, rows = _batch_stopped_by(signals, tmp_path, base)
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr
    assert len(rows) == 200
    spent, possibly = _summary(result.stderr)
    # Every request on the wire is in --out as paid or possibly charged, as in the summary.
    assert sum(int(r["credits"]) for r in rows) == spent
    assert sum(int(r["possibly_charged"]) for r in rows) == possibly
    touched = [r for r in rows if r["status"] == "ok" or int(r["possibly_charged"])]
    assert len(touched) >= 16
    assert spent + possibly >= 160
    time.sleep(LATENCY_MS / 1000 + 1)  # the service finishes what it was given
    charged = START - _balance(db)
    # What the service charged is what the run spent, or within what it said may be.
    assert spent <= charged <= spent + possibly
