"""Memory of the whole process tree as a user runs it: the installed ``creditscope`` in a
real (pseudo-)terminal, driven through the credit-efficiency journey with keys.

Run: ``.venv/bin/python benchmarks/memory_tree.py [--journeys 10] [--command PATH]``

The venv's ``creditscope`` script (or ``--command``) starts in a 120x36 pty read through
pyte (``tests/terminal_harness.py``), own HOME and XDG dirs, and ``terminal_journey``
types its way through every step of ``journey.JOURNEY`` (restaurant searches, the three
parts of five restaurants, back and forth, company lookups, three pages of events, then
all of it again). After each journey every process of the tree (the explorer and its
children, found through /proc's parent links) is read from ``/proc/PID/status``: its
peak (``VmHWM``) and its resident size now (``VmRSS``). Two services:

- the built-in sandbox (no base URL: the explorer starts the sandbox child);
- a live service: ``creditscope serve`` on loopback (ports 19400-19499), started on its
  own, so the tree is the explorer alone.

Beside them, for comparison only, ``memory.py``'s figure: the explorer under Pilot.
With ``--journeys N`` the journey repeats in the same explorer and the growth of the
tree's resident size from the first journey to the last is printed (target <= 5 MB).

Targets: tree <= 130 MB on the sandbox, explorer alone <= 100 MB on a live service. The
figure, printed last, is the tree's summed peak on the sandbox (with ``--only live``, the
explorer's peak).
"""

from __future__ import annotations

import argparse
import math
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from _common import CREDITSCOPE, TESTS, free_port, meets, print_figure, wait_for_port
from terminal_journey import TerminalJourney

sys.path.insert(0, str(TESTS))
from journey import JOURNEY

from creditscope.sandbox import DEMO_KEY
from terminal_harness import Terminal, isolated_env

PORTS = range(19400, 19500)
TREE_TARGET_MB = 130.0
ALONE_TARGET_MB = 100.0
GROWTH_TARGET_MB = 5.0
STARTED = r"Search · type a place"  # the first area drawn (the steps wait for prices)


@dataclass(frozen=True)
class Process:
    """One process of the tree, as /proc shows it."""

    pid: int
    command: str
    peak_mb: float  # VmHWM
    rss_mb: float  # VmRSS


def process_tree(root: int) -> list[int]:
    """``root`` and every live descendant, parents first."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    tree = [root]
    for pid in tree:
        tree.extend(children.get(pid, []))
    return tree


def read_process(pid: int) -> Process | None:
    """``pid``'s peak and resident size, or None once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    if "VmHWM" not in fields:  # a zombie
        return None
    words = [Path(argv[0].decode()).name, *(a.decode() for a in argv[1:3] if a)]
    return Process(pid, " ".join(words), int(fields["VmHWM"].split()[0]) / 1024,
                   int(fields["VmRSS"].split()[0]) / 1024)


def read_tree(root: int) -> list[Process]:
    return [found for pid in process_tree(root) if (found := read_process(pid)) is not None]


def spent(term: Terminal) -> str:
    """The header's "N cr spent" (its number only: a live service's port sits before it)."""
    found = re.search(r"\b(\d{1,3}(?: \d{3})*) cr spent", term.text())
    return found.group(1) if found else "?"


def run(command: str, root: Path, journeys: int, base_url: str | None) -> list[list[Process]]:
    """The explorer through ``journeys`` journeys; the tree read after each."""
    env = isolated_env(root)
    if base_url is not None:
        env |= {"CREDITSCOPE_BASE_URL": base_url, "CREDITSCOPE_API_KEY": DEMO_KEY}
    term = Terminal([command], env)
    readings: list[list[Process]] = []
    try:
        term.wait_for(STARTED, timeout=60)
        term.settle()
        driver = TerminalJourney(term)
        for done in range(1, journeys + 1):
            started = time.monotonic()
            driver.run(JOURNEY)
            term.settle(quiet=0.5)
            readings.append(read_tree(term.child.pid))
            print(f"  journey {done}: {time.monotonic() - started:5.1f} s, "
                  f"{spent(term)} cr spent so far, tree now "
                  f"{sum(p.rss_mb for p in readings[-1]):.1f} MB resident", flush=True)
    finally:
        term.quit()
    return readings


def run_live(command: str, root: Path) -> list[Process]:
    """The explorer through one journey on ``creditscope serve`` over loopback."""
    port = free_port(ports=PORTS)
    server = subprocess.Popen(
        [command, "serve", "--port", str(port), "--credits", "1000000",
         "--db", str(root / "served.sqlite3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port("127.0.0.1", port)
        return run(command, root / "explorer", 1, f"http://127.0.0.1:{port}")[-1]
    finally:
        server.terminate()
        server.wait(timeout=15)


def pilot_figure() -> float:
    """``memory.py``'s figure: the explorer's peak under Pilot (its sandbox in a child)."""
    from memory import measure

    return float(measure("explorer")["peak_mb"])


def show(title: str, tree: list[Process]) -> float:
    """Print each process and the sums; return the summed peak."""
    print(title)
    for proc in tree:
        print(f"  {proc.pid:>7}  {proc.command[:60]:<60} peak {proc.peak_mb:6.1f} MB"
              f"  now {proc.rss_mb:6.1f} MB")
    peak = sum(p.peak_mb for p in tree)
    print(f"  {'':>7}  {'the tree':<60} peak {peak:6.1f} MB"
          f"  now {sum(p.rss_mb for p in tree):6.1f} MB")
    return peak


def verdict(value: float, op: str, target: float) -> str:
    return f"(target {op} {target:g}: {'met' if meets(value, op, target) else 'MISSED'})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--journeys", type=int, default=1,
                        help="journeys in one explorer on the sandbox (growth from 1 to N)")
    parser.add_argument("--command", default=str(CREDITSCOPE),
                        help="the creditscope to run (default: this venv's)")
    parser.add_argument("--no-pilot", action="store_true", help="skip the Pilot comparison")
    parser.add_argument("--only", choices=("sandbox", "live"), help="measure one service")
    args = parser.parse_args()
    sandbox: list[list[Process]] = []
    live: list[Process] = []
    with TemporaryDirectory(prefix="cs-memtree-") as tmp:
        if args.only != "live":
            print("the built-in sandbox:")
            sandbox = run(args.command, Path(tmp) / "sandbox", max(1, args.journeys), None)
        if args.only != "sandbox":
            print("a live service (creditscope serve on loopback):")
            live = run_live(args.command, Path(tmp) / "live")
    pilot = None if args.no_pilot else pilot_figure()
    tree_peak = alone = math.nan
    if sandbox:
        tree_peak = show("\nafter the journey on the built-in sandbox (real terminal, 120x36)",
                         sandbox[0])
    if len(sandbox) > 1:
        show(f"after journey {len(sandbox)}", sandbox[-1])
    if live:
        alone = show("after the journey on a live service", live)
    print()
    if sandbox:
        print(f"tree on the sandbox, summed peak    {tree_peak:6.1f} MB "
              f"{verdict(tree_peak, '<=', TREE_TARGET_MB)}")
    if live:
        print(f"explorer alone on a live service    {alone:6.1f} MB "
              f"{verdict(alone, '<=', ALONE_TARGET_MB)}")
    if len(sandbox) > 1:
        first, last = sandbox[0], sandbox[-1]
        growth = max(sum(p.rss_mb for p in last) - sum(p.rss_mb for p in first),
                     sum(p.peak_mb for p in last) - sum(p.peak_mb for p in first))
        print(f"growth, journey 1 to {len(sandbox)}            {growth:+6.1f} MB "
              f"{verdict(growth, '<=', GROWTH_TARGET_MB)}")
    if pilot is not None:
        print(f"(for comparison: the explorer under Pilot, memory.py, {pilot:.1f} MB)")
    if sandbox:
        print_figure("tree_peak_mb", tree_peak, "<=", TREE_TARGET_MB, digits=1)
    else:
        print_figure("explorer_alone_peak_mb", alone, "<=", ALONE_TARGET_MB, digits=1)


if __name__ == "__main__":
    main()
