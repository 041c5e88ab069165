"""Batch memory: peak RSS and rows/s of ``creditscope batch`` on 100,000 generated rows.

Run: ``.venv/bin/python benchmarks/batch_memory.py`` (a few minutes: each distinct
request is a real round trip to the in-process sandbox; ``--rows`` and ``--distinct``
change the sizes)

A generated customer list (``Customer ID,Name,Website``: an ID per row, so every
row's own column must be echoed back) goes through ``batch
professional_network/find_company --ignore-extra-columns --out results.csv`` on the
built-in sandbox, each run in its own process with its own files (the peak is
the batch's own, read with ``os.wait4``):

- baseline: 1,000 rows, and a plain ``csv.reader`` pass over the big file in this
  process (the floor for reading the rows at all);
- the figure: 100,000 rows, 2,000 of them distinct companies (each asked fifty
  times, as a list merged from many exports would; the same 2 % in the baseline), so
  2,000 answers of about 22 KB come back and 100,000 result rows go out. Distinct
  requests cost a round trip each (about 15-40 ms here), rows cost validation only.

Every run is checked: one result row per input row with its ID, and the credits
spent equal to the distinct requests times the price. The sandbox's demo account
starts with 10,000 credits, so the script tops it up first (a free call creates
the account, then its balance is set in the sandbox's own database file).
The figure, printed last, is the 100,000-row run's peak RSS in MB, target <= 200.
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import sqlite3
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import PYTHON, isolated_env, print_figure

OPERATION = "professional_network/find_company"
PRICE = 10
TOP_UP = 10_000_000
_FIRST = ("Northwind", "Acme", "Globex", "Initech", "Umbrella", "Stark", "Wayne", "Tyrell",
          "Cyberdyne", "Soylent", "Hooli", "Vandelay", "Wonka", "Gringotts", "Oscorp", "Aperture")
_SECOND = ("Labs", "Robotics", "Foods", "Logistics", "Systems", "Holdings", "Analytics",
           "Energy", "Textiles", "Pharma", "Media", "Capital")


@dataclass(frozen=True)
class BatchFigures:
    rows: int
    distinct: int
    seconds: float
    peak_mb: float

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds


def company(index: int) -> tuple[str, str]:
    """The ``index``-th distinct company: a plausible name and its website."""
    first = _FIRST[index % len(_FIRST)]
    second = _SECOND[(index // len(_FIRST)) % len(_SECOND)]
    number = index // (len(_FIRST) * len(_SECOND))
    name = f"{first} {second} {number} Ltd"
    return name, f"{first.lower()}-{second.lower()}-{number}.example"


def generate(path: Path, rows: int, distinct: int) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["Customer ID", "Name", "Website"])
        for row in range(rows):
            writer.writerow([f"C-{row:06d}", *company(row % distinct)])


def top_up(home: Path) -> None:
    """Give the sandbox's demo account enough credits for the run (it starts with 10,000)."""
    env = isolated_env(home)
    subprocess.run([PYTHON, "-m", "creditscope", "call", "catalog", "--json"], env=env,
                   check=True, capture_output=True)
    database = home / "data" / "creditscope" / "sandbox.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("UPDATE accounts SET balance = ?", (TOP_UP,))


def run_batch(workdir: Path, rows: int, distinct: int) -> BatchFigures:
    """One batch in its own process and files; checked, timed, its peak RSS measured."""
    home = workdir / f"home-{rows}"
    home.mkdir()
    source, out = workdir / f"customers-{rows}.csv", workdir / f"results-{rows}.csv"
    generate(source, rows, distinct)
    top_up(home)
    command = [PYTHON, "-m", "creditscope", "batch", OPERATION, str(source), "--yes",
               "--ignore-extra-columns", "--out", str(out)]
    started = time.perf_counter()
    process = subprocess.Popen(command, env=isolated_env(home), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    assert process.stderr is not None
    stderr = process.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"batch exited {process.returncode}:\n{stderr[-2000:]}")
    check(out, rows, distinct)
    return BatchFigures(rows, distinct, seconds, usage.ru_maxrss / 1024)  # Linux: kB


def check(out: Path, rows: int, distinct: int) -> None:
    """One result row per input row, IDs echoed in order, each distinct request paid once."""
    with out.open(encoding="utf-8", newline="") as handle:
        results = list(csv.DictReader(handle))
    assert len(results) == rows, f"{len(results)} result rows for {rows} input rows"
    assert all(row["Customer ID"] == f"C-{n:06d}" for n, row in enumerate(results))
    assert {row["status"] for row in results} == {"ok"}, "every row answered"
    spent = sum(int(row["credits"]) for row in results)
    assert spent == distinct * PRICE, f"{spent} credits for {distinct} distinct requests"


def raw_read(path: Path) -> tuple[int, float]:
    """Rows and seconds for a plain ``csv.reader`` pass: the floor for reading rows at all."""
    started = time.perf_counter()
    with path.open(encoding="utf-8", newline="") as handle:
        count = sum(1 for _ in csv.reader(handle)) - 1
    return count, time.perf_counter() - started


def describe(label: str, figures: BatchFigures) -> str:
    return (f"{label}: {figures.rows:,} rows ({figures.distinct:,} distinct) in "
            f"{figures.seconds:.1f} s = {figures.rows_per_second:,.0f} rows/s; "
            f"peak RSS {figures.peak_mb:.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    args = parser.parse_args()
    ratio = args.distinct / args.rows
    with tempfile.TemporaryDirectory(prefix="creditscope-batch-bench-") as name:
        workdir = Path(name)
        small = run_batch(workdir, 1_000, max(1, round(1_000 * ratio)))
        print(describe("baseline batch", small), flush=True)
        big = run_batch(workdir, args.rows, args.distinct)
        count, seconds = raw_read(workdir / f"customers-{args.rows}.csv")
        print(f"baseline raw csv.reader: {count:,} rows in {seconds:.2f} s = "
              f"{count / seconds:,.0f} rows/s (this process: peak "
              f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MB)")
        print(describe("batch", big))
        print(f"growth: {big.peak_mb - small.peak_mb:+.1f} MB for "
              f"{args.rows - small.rows:,} more rows and {big.distinct - small.distinct:,} "
              "more distinct answers")
    print_figure("batch_peak_rss_mb", round(big.peak_mb, 1), "<=", 200.0, digits=1)


if __name__ == "__main__":
    main()
