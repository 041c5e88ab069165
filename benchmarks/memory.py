"""Memory: peak RSS of the explorer after the credit-efficiency journey, vs a minimal Textual app.

Run: ``.venv/bin/python benchmarks/memory.py``

Each app runs in its own subprocess (so the peak is the app's own, not this
script's), under Pilot at 120x36 with its files in a temp dir:

- creditscope: the explorer as the ``creditscope`` command builds it (its sandbox on a
  thread of its own), driven through every step of ``journey.JOURNEY`` (restaurant
  searches, the three parts of five restaurants, back and forth, company lookups,
  three pages of events, then all of it again) the way a user would: form fields,
  Enter, tabs, Escape (the parts' tabs are opened, not fetched);
- the same with the sandbox answering on the explorer's own loop, for comparison;
- baseline: a minimal Textual app (Header, Footer, one Static), started the
  same way and given a few key presses.

The peak is ``VmHWM`` from /proc (``getrusage`` where /proc is missing). The
figure, printed last, is the explorer's peak in MB, target <= 100 MB. Pilot hands
keys over one by one and draws nothing: ``memory_tree.py`` measures the real command
in a real terminal, which is what users meet.

``--profile`` instead prints where the memory is: the resident size after each
layer's imports (a fresh process), then the Python allocations still alive at the
end of the journey by file (tracemalloc), largest first. Its output is kept in
``benchmarks/profiles/memory.txt``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from _common import PYTHON, REPO, isolated_env, peak_rss_mb, print_figure, rss_mb
from journey_driver import SIZE, explorer_child, minimal_child


def child(kind: str) -> None:
    """Run one app in this (fresh) process; print its peak RSS as JSON."""
    with tempfile.TemporaryDirectory(prefix=f"cs-mem-{kind}-") as tmp:
        if kind == "minimal":
            runner = minimal_child()
        else:
            runner = explorer_child(Path(tmp), in_process=kind == "in-process")
        info = asyncio.run(runner)
    info["peak_mb"] = peak_rss_mb()
    print(json.dumps(info), flush=True)


IMPORT_LAYERS = (
    ("Python", None),
    ("textual", "textual.app"),
    ("pydantic", "pydantic"),
    ("fastapi (starlette)", "fastapi"),
    ("httpx", "httpx"),
    ("the explorer's modules", "creditscope.tui.app"),
    ("the sandbox app", "creditscope.sandbox.app"),
    ("the client (httpx, sqlite)", "creditscope.wiring"),
    ("the gazetteer, loaded", "creditscope.gazetteer"),
)


def profile_child() -> None:
    """Where the memory goes: RSS per import layer, then live allocations after the journey."""
    import importlib
    import tracemalloc

    print("resident size after each layer's imports (VmRSS, this process)")
    before = rss_mb()
    for label, module in IMPORT_LAYERS:
        if module is not None:
            importlib.import_module(module)
        if module == "creditscope.gazetteer":
            from creditscope.gazetteer import load_gazetteer

            load_gazetteer()
        now = rss_mb()
        print(f"  {label:<32} {now:7.1f} MB  (+{now - before:5.1f})")
        before = now
    tracemalloc.start(1)
    found: dict[str, Any] = {}

    def snapshot() -> None:
        found["rss"] = rss_mb()
        found["snapshot"] = tracemalloc.take_snapshot()

    with tempfile.TemporaryDirectory(prefix="cs-mem-profile-") as tmp:
        asyncio.run(explorer_child(Path(tmp), at_end=snapshot))
    stats = found["snapshot"].statistics("filename")
    total = sum(stat.size for stat in stats) / 1e6
    print(f"\nafter the journey: RSS {found['rss']:.1f} MB (with tracemalloc's own overhead);"
          f" Python allocations alive {total:.1f} MB, by file:")
    for stat in stats[:25]:
        name = stat.traceback[0].filename
        short = name.split("site-packages/")[-1].split("/src/")[-1]
        print(f"  {stat.size / 1e6:6.2f} MB {stat.count:8d} blocks  {short}")


def measure(kind: str) -> dict[str, Any]:
    """Start ``kind`` in a fresh interpreter (own HOME) and read back its JSON line."""
    with tempfile.TemporaryDirectory(prefix="cs-mem-home-") as home:
        done = subprocess.run(
            [PYTHON, str(Path(__file__).resolve()), "--child", kind],
            capture_output=True, text=True, cwd=REPO, env=isolated_env(Path(home)), check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"{kind} run failed:\n{done.stderr[-3000:]}")
    info: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return info


def main() -> None:
    """Both apps in their own processes; print both peaks, the ratio, then the figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", choices=("explorer", "in-process", "minimal"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help="where the memory goes")
    args = parser.parse_args()
    if args.profile:
        profile_child()
        return
    if args.child:
        child(args.child)
        return
    base = measure("minimal")
    inside = measure("in-process")
    explorer = measure("explorer")
    print(f"peak RSS under Pilot at {SIZE[0]}x{SIZE[1]} (VmHWM)")
    print(f"  minimal Textual app                        {base['peak_mb']:7.1f} MB")
    print(f"  creditscope, sandbox on the explorer's loop {inside['peak_mb']:6.1f} MB")
    print(f"  creditscope after the journey (as shipped) {explorer['peak_mb']:7.1f} MB"
          f"   ({explorer['steps']} views, {explorer['calls']} calls, "
          f"{explorer['spent']} cr spent)")
    print(f"  ratio {explorer['peak_mb'] / base['peak_mb']:.2f}x the minimal app")
    print_figure("explorer_peak_rss_mb", explorer["peak_mb"], "<=", 100.0, digits=1)


if __name__ == "__main__":
    main()
