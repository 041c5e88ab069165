"""Cached revisits in a real terminal while a ``creditscope batch`` writes the same files.

Run: ``.venv/bin/python benchmarks/revisit_beside_batch.py [--command PATH] [--in tmux]``

The installed explorer runs in a 120x36 pseudo-terminal read through pyte (the terminal
test harness, ``tests/terminal_harness.py``), on ``creditscope serve`` over loopback
(ports 19100-19199, every answer 60 ms late so the batch keeps writing). Two searches
are paid for, then revisited in turn, 20 times with no batch (the baseline, same run),
then 20 times while ``creditscope batch restaurants/search`` of 3,000 distinct rows writes
the same cache and ledger from another process (checked: still running after the last
revisit, and the cache grew meanwhile). Each revisit is timed from the Enter written to
the terminal until its summary is on the emulated screen, and checked free (the meter's
"cr spent" unchanged). ``--command`` runs another build (e.g. a script that starts
today's main) for a before/after. The figure is the worst revisit beside the batch.

``--in tmux`` runs the same steps in a tmux pane (``tmux_terminal.py``): the terminal a
user has, whose emulator is not the pyte harness's pure Python (on these cores pyte's
parsing of a redrawn screen is part of each pty figure).
"""

from __future__ import annotations

import argparse
import csv
import itertools
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

from _common import CREDITSCOPE, TESTS, free_port, median, print_figure, wait_for_port
from tmux_terminal import TmuxTerminal

sys.path.insert(0, str(TESTS))
from creditscope.models import CUISINES
from creditscope.sandbox import DEMO_KEY
from terminal_harness import ENTER, Terminal, isolated_env

PORTS = range(19100, 19200)
LATENCY_MS = 60  # 3,000 rows, 4 in flight: about 45 s of writing
ROWS = 3000
REVISITS = 20
CITIES = ("Lisbon", "Paris")


def batch_rows(path: Path) -> Path:
    """``ROWS`` distinct, valid searches, none of them one the explorer makes."""
    places = ("Tokyo", "Berlin", "Madrid", "Rome", "London", "Sydney", "Lisbon", "Paris")
    rows = itertools.islice(((place, cuisine, limit) for limit in range(1, 41)
                             for place in places for cuisine in CUISINES), ROWS)
    with path.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["location", "cuisine", "limit"])
        writer.writerows(rows)
    return path


def cached_answers(cache_dir: Path) -> int:
    db = sqlite3.connect(f"{(cache_dir / 'v2' / 'responses.sqlite3').as_uri()}?mode=ro",
                         uri=True, timeout=10)
    try:
        return int(db.execute("SELECT COUNT(*) FROM responses").fetchone()[0])
    finally:
        db.close()


PARSING: list[float] = []  # pty only: of each revisit, the ms pyte spent reading it


def revisits(term: Terminal | TmuxTerminal, summary: dict[str, str]) -> list[float]:
    """``REVISITS`` cached searches, alternating; milliseconds from Enter to the summary."""
    took: list[float] = []
    for turn in range(REVISITS):
        city = CITIES[turn % 2]
        term.fill_place(summary[city].split("near ")[1], "Search · cached · free")
        time.sleep(0.2)  # the screen idle, as when a person presses the key
        spent = term.spent()
        took.append(term.timed(ENTER, re.escape(summary[city])))
        if isinstance(term, Terminal):
            PARSING.append(term.parse_ms)
        term.settle(quiet=0.2)
        if term.spent() != spent:
            raise RuntimeError("a revisit was charged")
    return took


def run(command: str, root: Path, where: str) -> tuple[list[float], list[float]]:
    port = free_port(ports=PORTS)
    server = subprocess.Popen(
        [command, "serve", "--port", str(port), "--latency", str(LATENCY_MS),
         "--credits", "100000", "--db", str(root / "served.sqlite3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    env = isolated_env(root) | {"CREDITSCOPE_BASE_URL": f"http://127.0.0.1:{port}",
                                "CREDITSCOPE_API_KEY": DEMO_KEY}
    term: Terminal | TmuxTerminal | None = None
    batch: subprocess.Popen[bytes] | None = None
    try:
        wait_for_port("127.0.0.1", port)
        term = TmuxTerminal([command], env) if where == "tmux" else Terminal([command], env)
        term.wait_for(r"No search yet|Enter to search", timeout=30)
        term.press_escape()
        term.send(b"3")
        term.wait_for(r"Type a city", timeout=15)
        summary: dict[str, str] = {}
        for city in CITIES:  # paid once each: then cached
            term.fill_place(city, "Search · 2 cr")
            term.send(ENTER)
            summary[city] = term.wait_for(rf"\d+ restaurants near {city}[^·\n]*",
                                          timeout=30).group(0).strip()
            term.settle()
        alone = revisits(term, summary)

        batch = subprocess.Popen(
            [command, "batch", "restaurants/search", str(batch_rows(root / "rows.csv")),
             "--yes", "--out", str(root / "out.csv")],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cache_dir = Path(env["CREDITSCOPE_CACHE_DIR"])
        while cached_answers(cache_dir) < len(CITIES) + 20:  # the batch is writing
            if batch.poll() is not None:
                raise RuntimeError("the batch ended before it wrote")
            time.sleep(0.1)
        before = cached_answers(cache_dir)
        beside = revisits(term, summary)
        if batch.poll() is not None:
            raise RuntimeError("the batch ended before the last revisit: raise LATENCY_MS")
        print(f"the batch wrote {cached_answers(cache_dir) - before} answers meanwhile")
        return alone, beside
    finally:
        if batch is not None and batch.poll() is None:
            batch.terminate()
            batch.wait(timeout=15)
        if term is not None:
            term.quit()
        server.terminate()
        server.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", default=str(CREDITSCOPE),
                        help="the creditscope to run (default: this venv's)")
    parser.add_argument("--in", dest="where", choices=("pty", "tmux"), default="pty",
                        help="the terminal: the test harness's pty read by pyte (default), "
                        "or a tmux pane")
    args = parser.parse_args()
    with TemporaryDirectory(prefix="revisit-batch-") as root:
        alone, beside = run(args.command, Path(root), args.where)
    print(f"in {args.where}:")
    for name, took in (("no batch", alone), ("beside the batch", beside)):
        print(f"{name:>17}: median {median(took):6.1f} ms, worst {max(took):6.1f} ms "
              f"({', '.join(f'{t:.0f}' for t in took)})")
    if PARSING:
        print(f"of which pyte reading the screen (the harness's emulator, not the app): "
              f"median {median(PARSING):.1f} ms, worst {max(PARSING):.1f} ms")
    print_figure("revisit_beside_batch_worst_ms", max(beside), "<=", 100.0, digits=1)


if __name__ == "__main__":
    main()
