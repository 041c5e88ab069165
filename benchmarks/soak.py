"""Soak: does the explorer's memory stay flat over a working day? The credit-efficiency
journey ten times in one process, vs a minimal Textual app repeated as often.

Run: ``.venv/bin/python benchmarks/soak.py [--repetitions 10]``

Each app runs in its own subprocess (own HOME, files in a temp dir), under Pilot at
120x36, driven by ``journey_driver`` (the same driver as ``memory.py``):

- creditscope: the explorer on the in-process sandbox, through the whole
  ``journey.JOURNEY`` (90 views: searches, restaurants' three parts, back
  and forth, company lookups, events pages) again and again in one app. After the
  first repetition every answer is cached, which is what the rest of a day looks like;
- baseline: a minimal Textual app (Header, Footer, one Static) given four key
  presses per repetition, as many repetitions.

After each repetition the child prints its resident size (``VmRSS``), its peak
(``VmHWM``) and the CPU and wall time the repetition took. The figure, printed last,
is the explorer's growth after the first repetition: the larger of the peak's and
the resident size's rise from repetition 1 to the last, in MB, target <= 5.

``--where`` instead runs the journey in this process with tracemalloc on and prints
what grew between repetition 2 and the last: Python allocations by file and line,
and live objects by type (``gc``). Its output is kept in ``benchmarks/profiles/soak.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from _common import PYTHON, REPO, isolated_env, peak_rss_mb, print_figure, rss_mb
from journey_driver import SIZE, explorer_child, minimal_child

TARGET_MB = 5.0


class Clock:
    """CPU and wall time since the last reading."""

    def __init__(self) -> None:
        self.cpu = time.process_time()
        self.wall = time.monotonic()

    def lap(self) -> tuple[float, float]:
        """(CPU s, wall s) since the previous lap."""
        cpu, wall = time.process_time(), time.monotonic()
        took = (cpu - self.cpu, wall - self.wall)
        self.cpu, self.wall = cpu, wall
        return took


def child(kind: str, repetitions: int) -> None:
    """Run one app in this (fresh) process; one JSON line per repetition."""
    clock = Clock()

    def report(done: int, app: Any) -> None:
        cpu, wall = clock.lap()
        client = getattr(app, "client", None)  # the explorer's: what it sent and spent
        totals = client.ledger.session_totals() if client is not None else None
        print(json.dumps({"rep": done, "rss_mb": rss_mb(), "peak_mb": peak_rss_mb(),
                          "cpu_s": cpu, "wall_s": wall,
                          "calls": totals.calls if totals else 0,
                          "spent": totals.spent if totals else 0}), flush=True)

    with tempfile.TemporaryDirectory(prefix=f"cs-soak-{kind}-") as tmp:
        if kind == "explorer":
            asyncio.run(explorer_child(Path(tmp), repetitions=repetitions, after_each=report))
        else:
            asyncio.run(minimal_child(repetitions, after_each=report))


def measure(kind: str, repetitions: int) -> list[dict[str, float]]:
    """Run ``kind`` in a fresh interpreter (own HOME); its per-repetition lines, shown as
    they arrive."""
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="cs-soak-home-") as home:
        proc = subprocess.Popen(
            [PYTHON, str(Path(__file__).resolve()), "--child", kind,
             "--repetitions", str(repetitions)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
            env=isolated_env(Path(home)),
        )
        assert proc.stdout is not None
        print(f"{kind}: rep    RSS MB   peak MB   RSS +   peak +   CPU s  wall s"
              "  calls  spent (in all)", flush=True)
        for line in proc.stdout:
            if not line.startswith("{"):
                continue
            row = json.loads(line)
            rows.append(row)
            rss_up = row["rss_mb"] - rows[0]["rss_mb"]
            peak_up = row["peak_mb"] - rows[0]["peak_mb"]
            print(f"  {row['rep']:>13} {row['rss_mb']:8.1f} {row['peak_mb']:9.1f}"
                  f" {rss_up:+7.1f} {peak_up:+8.1f}"
                  f" {row['cpu_s']:7.1f} {row['wall_s']:7.1f} {row['calls']:6d}"
                  f" {row['spent']:6d}", flush=True)
        _, err = proc.communicate()
    if proc.returncode != 0 or len(rows) != repetitions:
        raise RuntimeError(f"{kind} run failed:\n{err[-3000:]}")
    return rows


def growth(rows: list[dict[str, float]]) -> float:
    """The larger of the peak's and the resident size's rise after the first repetition."""
    first, last = rows[0], rows[-1]
    return max(last["peak_mb"] - first["peak_mb"], last["rss_mb"] - first["rss_mb"])


def live_types() -> Counter[str]:
    """Objects the collector tracks, by type name (after a full collection)."""
    gc.collect()
    return Counter(type(item).__qualname__ for item in gc.get_objects())


def where(repetitions: int, frames: int) -> None:
    """What grows: tracemalloc and gc type counts after repetition 2 vs the last."""
    import tracemalloc

    tracemalloc.start(frames)
    started = time.monotonic()
    kept: dict[int, Any] = {}

    def snapshot(done: int, _app: Any) -> None:
        if done in (2, repetitions):
            gc.collect()
            kept[done] = (tracemalloc.take_snapshot(), live_types(), rss_mb())
        print(f"repetition {done} ({time.monotonic() - started:.0f} s): RSS {rss_mb():.1f} MB,"
              f" traced {tracemalloc.get_traced_memory()[0] / 1e6:.2f} MB", flush=True)

    with tempfile.TemporaryDirectory(prefix="cs-soak-where-") as tmp:
        asyncio.run(explorer_child(Path(tmp), repetitions=repetitions, after_each=snapshot))
    (snap2, types2, rss2), (snap_n, types_n, rss_n) = kept[2], kept[repetitions]
    diffs = snap_n.compare_to(snap2, "lineno")
    grown = sum(d.size_diff for d in diffs) / 1e3
    print(f"\nrepetition 2 -> {repetitions}: RSS {rss_n - rss2:+.1f} MB (with tracemalloc), "
          f"Python allocations alive {grown:+.1f} KB; largest changes by line:")
    for diff in diffs[:25]:
        frame = diff.traceback[0]
        short = frame.filename.split("site-packages/")[-1].split("/src/")[-1]
        print(f"  {diff.size_diff / 1e3:+9.1f} KB {diff.count_diff:+7d} blocks  "
              f"{short}:{frame.lineno}")
    changed = Counter(types_n)
    changed.subtract(types2)
    print(f"\nobjects tracked by gc: {sum(types2.values())} -> {sum(types_n.values())};"
          " largest changes by type:")
    for name, count in sorted(changed.items(), key=lambda kv: -abs(kv[1]))[:20]:
        if count:
            print(f"  {count:+8d}  {name}")


def main() -> None:
    """Both apps in their own processes, per repetition; then the growth figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("explorer", "minimal"), help=argparse.SUPPRESS)
    parser.add_argument("--repetitions", type=int, default=10)
    parser.add_argument("--where", action="store_true", help="what grows (tracemalloc, gc)")
    parser.add_argument("--frames", type=int, default=1, help="--where: traceback depth")
    args = parser.parse_args()
    if args.repetitions < 2:
        parser.error("--repetitions must be at least 2")
    if args.where:
        where(args.repetitions, args.frames)
        return
    if args.child:
        child(args.child, args.repetitions)
        return
    print(f"the journey {args.repetitions} times in one process, under Pilot at "
          f"{SIZE[0]}x{SIZE[1]}; growth since repetition 1")
    base = measure("minimal", args.repetitions)
    explorer = measure("explorer", args.repetitions)
    print(f"growth after the first repetition (larger of RSS and peak), "
          f"{args.repetitions - 1} more repetitions:")
    print(f"  minimal Textual app  {growth(base):+6.1f} MB")
    print(f"  creditscope          {growth(explorer):+6.1f} MB")
    print_figure("soak_growth_mb", growth(explorer), "<=", TARGET_MB, digits=1)


if __name__ == "__main__":
    main()
