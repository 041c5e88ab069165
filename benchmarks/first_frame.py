"""Time to first frame: ``creditscope`` vs a minimal Textual app, in a real terminal.

Run: ``.venv/bin/python benchmarks/first_frame.py [--runs 7]``

Each app starts as a real process in a tmux pane (120x36, its own HOME and
XDG dirs, so no config or cache carries over), and ``tmux capture-pane`` is
polled every ~5 ms until the app's first screen text is visible:

- creditscope: the header title, the nav bar and the footer
  ("creditscope", "Restaurants", "palette");
- baseline: a minimal Textual app (Header, Footer, one Static) written to a
  temp file: its title, its Static text and "Quit".

The runs alternate (one warm-up each, not counted) and the figure is the ratio
of the medians. Then two checks of what the first frame costs:

- static: ``python -X importtime`` of the modules the first frame needs (the
  CLI, ``creditscope.tui.app`` and the first area's screen), biggest first,
  and whether FastAPI, uvicorn, httpx or the sandbox's data modules are among them;
- live: the real app once more with an import audit hook, listing which heavy
  modules were imported before the first frame appeared, and on which thread
  (the data client is built in a worker thread that imports the sandbox).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
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

SIZE = TMUX_SIZE
# Header, nav bar and footer. The footer's "^p palette" rather than "Quit": once the
# Events map has focus its keys fill the footer and push "^q Quit" off a 120-wide screen.
CREDITSCOPE_MARKERS = ("creditscope", "Restaurants", "palette")
BASELINE_TEXT = "Hello from a minimal Textual app"
BASELINE_MARKERS = ("baseline", BASELINE_TEXT, "Quit")
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


def time_once(tmux: Tmux, argv: list[str], markers: tuple[str, ...]) -> float:
    """Milliseconds to the first frame of one fresh start of ``argv``."""
    with tempfile.TemporaryDirectory(prefix="cs-ff-home-") as home:
        pane, pid, started = launch(tmux, argv, isolated_env(Path(home)))
        try:
            return wait_for_text(tmux, pane, markers, started) * 1000
        finally:
            close(tmux, pane, pid)


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
                                    isolated_env(home))
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


def main() -> None:
    """Alternate runs of both apps, print medians, the import checks, then the ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each app")
    parser.add_argument("--no-diagnose", dest="diagnose", action="store_false",
                        help="skip the variant that builds the data client after the first frame")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is required (apt-get install tmux)")
    tmux = Tmux(f"creditscope-bench-{os.getpid()}")
    with tempfile.TemporaryDirectory(prefix="cs-ff-") as tmp:
        minimal = Path(tmp) / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        deferred = Path(tmp) / "deferred_client_creditscope.py"
        deferred.write_text(DEFERRED_CLIENT_LAUNCHER)
        apps = {
            "minimal Textual app": ([PYTHON, str(minimal)], BASELINE_MARKERS),
            "creditscope": ([str(CREDITSCOPE)], CREDITSCOPE_MARKERS),
        }
        if args.diagnose:
            apps["creditscope, client 3 s late"] = ([PYTHON, str(deferred)], CREDITSCOPE_MARKERS)
        samples: dict[str, list[float]] = {name: [] for name in apps}
        tmux.start()
        try:
            for argv, markers in apps.values():  # warm the disk cache; not counted
                time_once(tmux, argv, markers)
            for _ in range(args.runs):
                for name, (argv, markers) in apps.items():
                    samples[name].append(time_once(tmux, argv, markers))
            print(f"time to first frame at {SIZE[0]}x{SIZE[1]} in tmux, {args.runs} runs each")
            for name, values in samples.items():
                shown = " ".join(f"{v:.0f}" for v in values)
                print(f"  {name:<29} median {median(values):7.1f} ms   runs: {shown}")
            static_check()
            live_check(tmux)
        finally:
            tmux.stop()
    base = median(samples["minimal Textual app"])
    if args.diagnose:
        late = median(samples["creditscope, client 3 s late"]) / base
        print(f"\ndiagnosis: with the client built after the first frame the ratio would be "
              f"{late:.2f}")
    ratio = median(samples["creditscope"]) / base
    print_figure("first_frame_ratio", ratio, "<=", 1.3)


if __name__ == "__main__":
    main()
