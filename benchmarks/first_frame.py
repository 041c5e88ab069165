"""Time to first frame: ``creditscope`` vs a minimal Textual app and two published Textual
apps, in a real terminal.

Run: ``.venv/bin/python benchmarks/first_frame.py [--runs 7] [--no-peers] [--diagnose]``

Each app starts as a real process in a tmux pane (120x36, its own HOME and
XDG dirs, so no config or cache carries over), and ``tmux capture-pane`` is
polled every ~5 ms until the app's first screen text is visible:

- creditscope: the header title, the nav bar and the footer
  ("creditscope", "Restaurants", "palette");
- baseline: a minimal Textual app (Header, Footer, one Static) written to a
  temp file: its title, its Static text and "Quit";
- peers (``peer_apps.py``, installed on first use into scratch venvs under a cache
  dir it prints): Posting 2.11.1 (title, its Collection, Request and Response
  panels, "Send") and Harlequin 2.17.0 on an in-memory DuckDB (its Data Catalog,
  Query Editor and Query Results panels, "Run Query").

Bytecode is written as a normal install has it: every app runs without
``PYTHONDONTWRITEBYTECODE``, and its untimed warm-up run writes the ``.pyc`` files
the timed runs then read. The runs alternate (bare, creditscope, Posting, Harlequin,
...) and each figure is a median; every app is shown as a ratio to the bare app's
median from the same run. Then two checks of what the first frame costs:

- static: ``python -X importtime`` of the modules the first frame needs (the
  CLI, ``creditscope.tui.app`` and the first area's screen), biggest first,
  and whether FastAPI, uvicorn, httpx or the sandbox's data modules are among them;
- live: the real app once more with an import audit hook, listing which heavy
  modules were imported before the first frame appeared, and on which thread
  (the data client is built in a worker thread that imports the sandbox).

``--diagnose`` adds a creditscope whose data client is built 3 s late to the
alternation (how much the concurrent client build costs the first frame).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from _common import (
    CREDITSCOPE,
    PYTHON,
    REPO,
    TMUX_SIZE,
    Tmux,
    close,
    isolated_env,
    launch,
    median,
    print_figure,
    wait_for_text,
)
from peer_apps import PEERS, cache_dir, installed

SIZE = TMUX_SIZE
# Header, nav bar and footer. The footer's "^p palette" rather than "Quit": once the
# Events map has focus its keys fill the footer and push "^q Quit" off a 120-wide screen.
CREDITSCOPE_MARKERS = ("creditscope", "Restaurants", "palette")
BASELINE_TEXT = "Hello from a minimal Textual app"
BASELINE_MARKERS = ("baseline", BASELINE_TEXT, "Quit")
BASELINE = "minimal Textual app"
CREDITSCOPE_NAME = "creditscope"
DEFERRED_NAME = "creditscope, client 3 s late"
# Modules the first frame must not need (issue 9; click since issue 28: a bare
# `creditscope` skips the command group); sandbox data = anything under
# creditscope.sandbox but the constants package itself.
HEAVY_PREFIXES = ("pydantic", "fastapi", "starlette", "uvicorn", "httpx", "diskcache", "click",
                  "creditscope.sandbox.")

MINIMAL_APP = f'''
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, Static


class MinimalApp(App[None]):
    """Header, Footer and one Static: the floor for a Textual app's first frame."""

    TITLE = "baseline"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True)]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static({BASELINE_TEXT!r})
        yield Footer()


if __name__ == "__main__":
    MinimalApp().run()
'''

BASELINE_IMPORTS = "import textual.app; from textual.widgets import Footer, Header, Static"

# creditscope with its data client built 3 s late instead of in on_mount: shows how
# much of the first frame the concurrent client build (a thread: GIL) costs.
DEFERRED_CLIENT_LAUNCHER = '''
import sys

from creditscope.tui.app import CreditscopeApp

original = CreditscopeApp.start_client


def deferred(self):
    self.set_timer(3.0, lambda: original(self))


CreditscopeApp.start_client = deferred
sys.argv[0] = "creditscope"
from creditscope.entry import main

main()
'''

# Runs creditscope like the console script (creditscope.entry), logging every module import
# (wall time, thread) to argv[1] at exit: which imports precede the first frame.
AUDITED_LAUNCHER = '''
import atexit, json, sys, threading, time

LOG = sys.argv.pop(1)
START = time.time()
events = []


def hook(event, args):
    if event == "import":
        events.append((time.time(), args[0], threading.current_thread().name))


def dump():
    with open(LOG, "w") as handle:
        json.dump({"start": START, "imports": events}, handle)


sys.addaudithook(hook)
atexit.register(dump)
sys.argv[0] = "creditscope"
from creditscope.entry import main

main()
'''


@dataclass(frozen=True)
class Contender:
    """One app in the alternation: its command, its first screen's text, its quit key."""

    argv: list[str]
    markers: tuple[str, ...]
    quit_key: str = "C-q"


def normal_install_env(home: Path) -> dict[str, str]:
    """An isolated environment in which Python writes and reads ``.pyc`` as installed."""
    env = isolated_env(home)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def time_once(tmux: Tmux, app: Contender) -> float:
    """Milliseconds to the first frame of one fresh start of ``app``."""
    with tempfile.TemporaryDirectory(prefix="cs-ff-home-") as home:
        pane, pid, started = launch(tmux, app.argv, normal_install_env(Path(home)))
        try:
            return wait_for_text(tmux, pane, app.markers, started) * 1000
        finally:
            close(tmux, pane, pid, app.quit_key)


def bytecode_written() -> bool:
    """Whether the warm-up left ``.pyc`` for the explorer's app module and Textual's."""
    import textual.app

    import creditscope.tui.app

    return all(Path(importlib.util.cache_from_source(module.__file__)).exists()
               for module in (creditscope.tui.app, textual.app) if module.__file__)


def importtime_report(code: str) -> list[tuple[str, float, float]]:
    """(module, self ms, cumulative ms) for every module a fresh run of ``code`` imports."""
    done = subprocess.run([PYTHON, "-X", "importtime", "-c", code], capture_output=True,
                          text=True, check=True, cwd=REPO)
    rows = []
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if match:
            rows.append((match.group(4), int(match.group(1)) / 1000, int(match.group(2)) / 1000))
    return rows


def first_frame_modules() -> list[str]:
    """What the first frame needs: the program (a bare ``creditscope`` skips click), the
    explorer's launcher, the app and the first area's screen."""
    from creditscope.tui.navigation import ordered_entries

    first = ordered_entries()[0].screen.partition(":")[0]
    return ["creditscope.entry", "creditscope.commands.explorer", "creditscope.tui.app", first]


def is_heavy(module: str) -> bool:
    """True for modules the first frame should not import."""
    return any(module.startswith(p) if p.endswith(".") else module == p
               or module.startswith(p + ".") for p in HEAVY_PREFIXES)


def static_check() -> None:
    """Print the biggest imports of the first frame's modules and any heavy ones."""
    modules = first_frame_modules()
    rows = importtime_report("import " + ", ".join(modules))
    top = {name for name, *_ in rows if "." not in name} | set(modules)
    print(f"\nimporttime of {', '.join(modules)}:")
    total = sum(self_ms for _, self_ms, _ in rows)
    print(f"  {len(rows)} modules, {total:.0f} ms in all")
    print("  biggest self times (ms):  " + ", ".join(
        f"{name} {self_ms:.0f}" for name, self_ms, _ in sorted(rows, key=lambda r: -r[1])[:8]))
    print("  biggest top-level cumulative (ms):  " + ", ".join(
        f"{name} {cum:.0f}" for name, _, cum in sorted(rows, key=lambda r: -r[2])
        if name in top)[:400])
    baseline = {name for name, *_ in importtime_report(BASELINE_IMPORTS)}
    extra = [(name, self_ms) for name, self_ms, _ in rows if name not in baseline]
    print(f"  beyond what the minimal app imports: {len(extra)} modules, "
          f"{sum(ms for _, ms in extra):.0f} ms; biggest: " + ", ".join(
              f"{name} {ms:.0f}" for name, ms in sorted(extra, key=lambda r: -r[1])[:8]))
    heavy = [name for name, *_ in rows if is_heavy(name)]
    print(f"  heavy modules imported: {', '.join(heavy) if heavy else 'none'}")
    for prefix in ("fastapi", "creditscope.sandbox."):
        found = any(name.startswith(prefix) for name in heavy)
        label = "FastAPI" if prefix == "fastapi" else "sandbox data"
        print(f"  first-frame path imports {label}: {'YES' if found else 'no'}")


def live_check(tmux: Tmux) -> None:
    """Run the real app once with an import audit hook; report heavy imports before frame 1."""
    with tempfile.TemporaryDirectory(prefix="cs-ff-live-") as tmp:
        launcher = Path(tmp) / "audited_creditscope.py"
        launcher.write_text(AUDITED_LAUNCHER)
        log = Path(tmp) / "imports.json"
        home = Path(tmp) / "home"
        home.mkdir()
        pane, pid, started = launch(tmux, [PYTHON, str(launcher), str(log)],
                                    normal_install_env(home))
        launched_wall = time.time() - (time.perf_counter() - started)
        try:
            frame_ms = wait_for_text(tmux, pane, CREDITSCOPE_MARKERS, started) * 1000
        finally:
            close(tmux, pane, pid)
        deadline = time.monotonic() + 5
        while not log.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        if not log.exists():
            print("\nlive import check: the app did not exit cleanly; no import log")
            return
        data = json.loads(log.read_text())
    frame_wall = launched_wall + frame_ms / 1000
    print(f"\nlive run with an import audit hook: first frame at {frame_ms:.0f} ms")
    seen: dict[str, tuple[float, str]] = {}
    for when, name, thread in data["imports"]:
        # One line per package: the sandbox's modules as one group, others by top level.
        root = "creditscope.sandbox.*" if name.startswith("creditscope.") else name.split(".")[0]
        if is_heavy(name) and root not in seen:
            seen[root] = ((when - launched_wall) * 1000, thread)
    if not seen:
        print("  no heavy module was imported while the app ran")
    for root, (at_ms, thread) in sorted(seen.items(), key=lambda item: item[1][0]):
        when = "BEFORE" if launched_wall + at_ms / 1000 < frame_wall else "after"
        print(f"  {root:<34} first imported at {at_ms:6.0f} ms on {thread:<24} ({when} frame 1)")


def contenders(args: argparse.Namespace, tmp: Path) -> dict[str, Contender]:
    """The apps of one run, in the order they alternate; peers installed on demand."""
    minimal = tmp / "minimal_app.py"
    minimal.write_text(MINIMAL_APP)
    apps = {
        BASELINE: Contender([PYTHON, str(minimal)], BASELINE_MARKERS),
        CREDITSCOPE_NAME: Contender([str(CREDITSCOPE)], CREDITSCOPE_MARKERS),
    }
    if args.peers:
        print(f"peers' scratch venvs: {cache_dir() / 'peers'}")
        for peer in PEERS:
            apps[peer.name] = Contender([str(installed(peer))], peer.markers, peer.quit_key)
    if args.diagnose:
        deferred = tmp / "deferred_client_creditscope.py"
        deferred.write_text(DEFERRED_CLIENT_LAUNCHER)
        apps[DEFERRED_NAME] = Contender([PYTHON, str(deferred)], CREDITSCOPE_MARKERS)
    return apps


def report(samples: dict[str, list[float]], runs: int) -> tuple[float, bool]:
    """Print each app's median and ratio to bare; (creditscope's ratio, ahead of every peer)."""
    base = median(samples[BASELINE])
    print(f"time to first frame at {SIZE[0]}x{SIZE[1]} in tmux, {runs} alternating runs each, "
          f"bytecode written; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, values in samples.items():
        shown = " ".join(f"{v:.0f}" for v in values)
        print(f"  {name:<29} median {median(values):7.1f} ms  {median(values) / base:5.2f}x bare"
              f"   runs: {shown}")
    ours = median(samples[CREDITSCOPE_NAME])
    peers = [name for name in samples if name in {peer.name for peer in PEERS}]
    ahead = all(ours < median(samples[name]) for name in peers)
    if peers:
        print(f"creditscope ahead of {' and '.join(peers)}: {'yes' if ahead else 'NO'}")
    return ours / base, ahead


def main() -> None:
    """Alternate runs of every app, print medians and ratios, the import checks, then the
    creditscope ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each app")
    parser.add_argument("--no-peers", dest="peers", action="store_false",
                        help="leave Posting and Harlequin out")
    parser.add_argument("--diagnose", action="store_true",
                        help="add a creditscope that builds its data client 3 s late")
    parser.add_argument("--no-checks", dest="checks", action="store_false",
                        help="skip the importtime and live import checks")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is required (apt-get install tmux)")
    tmux = Tmux(f"creditscope-bench-{os.getpid()}")
    with tempfile.TemporaryDirectory(prefix="cs-ff-") as tmp:
        apps = contenders(args, Path(tmp))
        samples: dict[str, list[float]] = {name: [] for name in apps}
        tmux.start()
        try:
            for app in apps.values():  # writes bytecode, warms the disk cache; not counted
                time_once(tmux, app)
            print(f"bytecode written by the warm-up runs: {'yes' if bytecode_written() else 'NO'}")
            for _ in range(args.runs):
                for name, app in apps.items():
                    samples[name].append(time_once(tmux, app))
            ratio, ahead = report(samples, args.runs)
            if args.checks:
                static_check()
                live_check(tmux)
        finally:
            tmux.stop()
    if args.diagnose:
        late = median(samples[DEFERRED_NAME]) / median(samples[BASELINE])
        print(f"\ndiagnosis: with the client built after the first frame the ratio would be "
              f"{late:.2f}")
    if args.peers:
        print_figure("first_frame_ahead_of_peers", float(ahead), "==", 1.0, digits=0)
    print_figure("first_frame_ratio", ratio, "<=", 1.2)


if __name__ == "__main__":
    main()
