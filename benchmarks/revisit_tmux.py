"""Cached revisits in a real terminal: key sent to tmux -> result on the pane's screen.

Run: ``.venv/bin/python benchmarks/revisit_tmux.py [--repeats 5] [--revisits 20] [--src DIR]
[--probe FILE]``

The real ``creditscope`` (built-in sandbox, its own HOME and XDG dirs) runs in a
120x36 tmux pane, as a user meets it. Three views:

- restaurant search: ``/``, type a city, Enter -> its summary line and first row;
- menu tab: Enter on the first result (the overview), ``m`` -> the menu's dishes;
- reviews tab: the same, ``r`` -> the reviews' "N reviews in all";
- company lookup: ``/``, type a name, Enter -> its query line and company card.

Each view is first called uncached (one distinct city or name per repeat; timed
too, for scale), then revisited: the clock runs from ``tmux send-keys`` of the
last key until ``capture-pane -p`` (polled every ~2 ms) shows text only that
result shows (learnt from the uncached call's screen and checked absent before
the key). A revisit must be a cache hit: the button says "cached · free"
before the key, and the header's "N cr spent" is the same afterwards.

Beside each wall time, the app's CPU time over the same span (its main thread,
from /proc/PID/schedstat): the direction of a change on a loaded machine, where
wall times swing by 2x.

Baseline, measured the same way in the same run, alternating with every sample:
a minimal Textual app whose key press changes a Static's text (the floor of tmux +
Textual from key to screen). Each view is revisited ``--revisits`` times (cycling
through its ``--repeats`` distinct results); printed: median, 95th percentile and
worst of each, beside the baseline's. The figures (issue 38): the worst view's 95th
percentile (target <= 50 ms) and the worst revisit of all (target < 100 ms).

``--probe FILE`` loads ``stall_probe/sitecustomize.py`` into the explorer (its main
thread's stack every ~2 ms, every garbage collection) and prints where the slowest
revisits spent their time (``stall_report.py``).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from _common import (
    CREDITSCOPE,
    PYTHON,
    TMUX_SIZE,
    Tmux,
    close,
    isolated_env,
    launch,
    median,
    percentile,
    print_figure,
    wait_for_text,
)
from stall_report import stall_report

STALL_PROBE = Path(__file__).parent / "stall_probe"
POLL_S = 0.002
STEP_TIMEOUT_S = 30.0
SETTLE_S = 0.4  # after a result: let the footer, meter and animations finish (untimed)
CITIES = ("Lisbon", "Paris", "Tokyo", "Berlin", "Madrid", "Rome", "London", "Sydney")
# One word each: the lookup drops words such as "Corporation" from the query it shows.
COMPANIES = ("Initech", "Globex", "Umbrella", "Hooli", "Cyberdyne", "Soylent", "Vandelay",
             "Acme")
VIEWS = ("restaurant search", "menu tab", "reviews tab", "company lookup")
SPENT = re.compile(r"([\d\s\u00a0\u202f,]+) cr spent")
CREDITSCOPE_READY = ("creditscope", "Restaurants", "palette")

KEY_APP = '''
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Footer, Header, Static


class KeyApp(App[None]):
    """A key press changes one Static's text: the floor of tmux + Textual, key to screen."""

    TITLE = "baseline"
    BINDINGS = [Binding("x", "press", "Press"), Binding("ctrl+q", "quit", "Quit", priority=True)]

    def __init__(self) -> None:
        super().__init__()
        self.presses = 0

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("ready", id="text")
        yield Footer()

    def action_press(self) -> None:
        self.presses += 1
        self.query_one("#text", Static).update(f"pressed {self.presses} times")


if __name__ == "__main__":
    KeyApp().run()
'''


@dataclass
class Pane:
    """One app in a tmux pane."""

    tmux: Tmux
    pane: str
    pid: int
    cpu_ms: float = math.nan
    """The app's CPU time during the last timed key (its main thread), in ms."""
    span: tuple[float, float] = (math.nan, math.nan)
    """The last timed key's span in ``time.monotonic()`` (for ``--probe``)."""

    def screen(self) -> str:
        """The pane's text now."""
        return self.tmux.screen(self.pane)

    def keys(self, *keys: str) -> None:
        """Send tmux key names."""
        self.tmux.keys(self.pane, *keys)

    def fill(self, text: str, ready: str) -> None:
        """``/`` (focus the form's main box, its text selected), type ``text`` a key at a
        time, until the box holds ``text`` and ``ready`` shows (the button's price)."""
        # One key at a time, 20 ms apart: keys sent in one burst right after `/` are
        # sometimes lost (see benchmarks/README.md), and a person types slower anyway.
        for attempt in range(5):
            if attempt:  # leave the box (a `/` right after Escape would read as alt+/)
                self.keys("Escape")
                time.sleep(0.3)
            self.keys("/")
            time.sleep(0.2)
            for char in text:
                self.tmux.keys(self.pane, char, literal=True)
                time.sleep(0.02)
            try:
                wait_for_text(self.tmux, self.pane, (f"▊  {text}", ready), time.perf_counter(),
                              poll_s=POLL_S, timeout_s=3)
                return
            except TimeoutError:
                continue
        raise TimeoutError(f"could not type {text!r}:\n{self.screen()}")

    def wait(self, *markers: str) -> str:
        """Wait (untimed) until every marker is on screen; the screen then."""
        wait_for_text(self.tmux, self.pane, markers, time.perf_counter(), poll_s=POLL_S,
                      timeout_s=STEP_TIMEOUT_S)
        return self.screen()

    def timed(self, key: str, markers: Sequence[str]) -> float:
        """Milliseconds from sending ``key`` until every marker is on screen."""
        on_screen = self.screen()
        already = [marker for marker in markers if marker in on_screen]
        if len(already) == len(markers):
            raise RuntimeError(f"the result {markers} is on screen before the key:\n{on_screen}")
        cpu = cpu_ns(self.pid)
        started, began = time.perf_counter(), time.monotonic()
        self.keys(key)
        took = wait_for_text(self.tmux, self.pane, markers, started, poll_s=POLL_S,
                             timeout_s=STEP_TIMEOUT_S) * 1000
        self.cpu_ms = (cpu_ns(self.pid) - cpu) / 1e6
        self.span = (began, time.monotonic())
        return took


def cpu_ns(pid: int) -> int:
    """CPU time of ``pid``'s main thread (the app's event loop) so far, in ns (Linux)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


def spent(screen: str) -> int:
    """The header's "N cr spent"."""
    match = SPENT.search(screen)
    if match is None:
        raise RuntimeError(f"no credit meter on screen:\n{screen}")
    return int(re.sub(r"\D", "", match.group(1)))


def rows_after(screen: str, heading: str) -> list[str]:
    """The non-blank lines after the line that contains ``heading``, stripped."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if heading in line) + 1
    rows = []
    for line in lines[start:]:
        if not line.strip():
            break
        rows.append(line.strip())
    return rows


@dataclass
class Samples:
    """Milliseconds per view: uncached calls, cached revisits, and the baseline beside them."""

    uncached: dict[str, list[float]] = field(default_factory=lambda: {v: [] for v in VIEWS})
    cached: dict[str, list[float]] = field(default_factory=lambda: {v: [] for v in VIEWS})
    baseline: list[float] = field(default_factory=list)
    cached_cpu: dict[str, list[float]] = field(default_factory=lambda: {v: [] for v in VIEWS})
    baseline_cpu: list[float] = field(default_factory=list)
    cached_spans: list[tuple[str, float, float, float]] = field(default_factory=list)
    """(view, start, end in time.monotonic(), ms) of every cached revisit."""


class Journey:
    """creditscope in one pane, the key app in another; each step checked on screen."""

    def __init__(self, app: Pane, base: Pane) -> None:
        self.app, self.base = app, base
        self.presses = 0
        self.search_result: dict[str, tuple[str, str]] = {}  # city -> (summary, first name)
        self.menu_result: dict[str, tuple[str, ...]] = {}  # city -> (its "N dishes" line,)
        self.reviews_result: dict[str, tuple[str, ...]] = {}  # city -> ("N reviews in all",)
        self.company_result: dict[str, tuple[str, str]] = {}  # name -> (query line, card line)

    def baseline(self) -> float:
        """One key-to-screen sample of the minimal app."""
        self.presses += 1
        return self.base.timed("x", (f"pressed {self.presses} times",))

    def cached(self, key: str, markers: Sequence[str]) -> float:
        """Time ``key`` to ``markers``, checking nothing was charged (a real cache hit)."""
        time.sleep(SETTLE_S)  # the screen idle first, as when a person presses the key
        before = spent(self.app.screen())
        took = self.app.timed(key, markers)
        time.sleep(SETTLE_S)
        after = spent(self.app.screen())
        if after != before:
            raise RuntimeError(f"a revisit was charged: {before} -> {after} cr spent")
        return took

    # --- restaurant search --------------------------------------------------------

    def type_city(self, city: str, *, cached: bool) -> None:
        self.app.keys("3")
        self.app.wait("Restaurants ›" if self.search_result else "Type a city (Tab")
        # A revisit types the place as the first search named it ("Lisbon, PT"): the
        # button can then say the search is cached before Enter.
        place = self.search_result[city][0].split("near ")[1] if cached else city
        self.app.fill(place, "Search · cached · free" if cached else "Search · 2 cr")

    def search(self, city: str, *, cached: bool) -> float:
        self.type_city(city, cached=cached)
        if cached:
            return self.cached("Enter", self.search_result[city])
        took = self.app.timed("Enter", (f"restaurants near {city}",))
        deadline = time.monotonic() + STEP_TIMEOUT_S
        while True:  # the whole result drawn: the summary names the first row's restaurant
            time.sleep(SETTLE_S)
            screen = self.app.wait("Name", "Distance")
            line = next(line for line in screen.splitlines() if f"restaurants near {city}" in line)
            first = re.split(r"\s{2,}", rows_after(screen, "Distance")[0])[0]
            if f"opens {first} ·" in line or time.monotonic() > deadline:
                break
        self.search_result[city] = (line.strip().split(" · ")[0], first)
        return took

    # --- menu tab -----------------------------------------------------------------

    def menu(self, city: str, *, cached: bool) -> float:
        return self.part(city, "m", "Get the menu", "dishes", self.menu_result, cached=cached)

    def reviews(self, city: str, *, cached: bool) -> float:
        return self.part(city, "r", "Show reviews", "reviews in all", self.reviews_result,
                         cached=cached)

    def part(self, city: str, key: str, button: str, marker: str,
             results: dict[str, tuple[str, ...]], *, cached: bool) -> float:
        """Open the first result of ``city`` (shown), then the tab ``key`` opens: bought
        with its button the first time (until ``marker`` shows), then revisited."""
        name = self.search_result[city][1]
        self.app.keys("Enter")
        self.app.wait(f"› {name} › Overview", "Opening hours")
        if cached:
            took = self.cached(key, results[city])
        else:
            self.app.keys(key)
            self.app.wait(button, "⏎ Press")
            took = self.app.timed("Enter", (marker,))
            time.sleep(SETTLE_S)
            screen = self.app.wait(marker)
            results[city] = (next(line.strip() for line in screen.splitlines()
                                  if marker in line),)
        self.app.keys("Escape")
        self.app.wait(self.search_result[city][0])
        return took

    # --- company lookup -----------------------------------------------------------

    def company(self, name: str, *, cached: bool) -> float:
        self.app.keys("2")
        self.app.wait("Look up ·")
        self.app.fill(name, "Look up · cached · free" if cached else "Look up · 10 cr")
        if cached:
            took = self.cached("Enter", self.company_result[name])
        else:
            took = self.app.timed("Enter", (f"Query {name}",))
            time.sleep(SETTLE_S)
            screen = self.app.wait("Company page")
            query = next(line.strip() for line in screen.splitlines()
                         if f"Query {name}" in line).split("·")[0].strip()
            card = next(line.strip("│ ") for line in screen.splitlines()
                        if re.match(r"\s*│ #1 ", line))
            self.company_result[name] = (query, card)
        return took


def enter_restaurants(app: Pane) -> None:
    """Leave the Events location box (focused at start) and open Restaurants."""
    deadline = time.monotonic() + STEP_TIMEOUT_S
    while "Type a city (Tab completes it)" not in app.screen():
        if time.monotonic() > deadline:
            raise TimeoutError(f"Restaurants never opened:\n{app.screen()}")
        app.keys("Escape")  # number keys switch areas once no text box has focus
        time.sleep(0.2)
        app.keys("3")
        time.sleep(0.5)


def creditscope_argv(src: Path | None, probe: Path | None = None) -> list[str]:
    """The command that starts the explorer: installed, or from another checkout's src;
    with ``probe``, the stall probe (``stall_probe/sitecustomize.py``) writes there."""
    if probe is not None:
        return ["env", f"PYTHONPATH={STALL_PROBE}", f"CREDITSCOPE_STALL_PROBE={probe}",
                *creditscope_argv(src)]
    if src is None:
        return [str(CREDITSCOPE)]
    return ["env", f"PYTHONPATH={src.resolve()}", PYTHON, "-m", "creditscope"]


def run(tmux: Tmux, home: Path, key_app: Path, repeats: int, revisits: int,
        src: Path | None, probe: Path | None = None) -> Samples:
    """Uncached calls, then rounds of cached revisits, each beside a baseline sample."""
    samples = Samples()
    env = isolated_env(home)
    app = Pane(tmux, *launch(tmux, creditscope_argv(src, probe), env)[:2])
    base = Pane(tmux, *launch(tmux, [PYTHON, str(key_app)], env)[:2])
    try:
        app.wait(*CREDITSCOPE_READY)
        base.wait("ready", "Quit")
        enter_restaurants(app)
        journey = Journey(app, base)
        cities, names = CITIES[:repeats], COMPANIES[:repeats]
        for city, name in zip(cities, names, strict=True):
            samples.uncached["restaurant search"].append(journey.search(city, cached=False))
            samples.uncached["menu tab"].append(journey.menu(city, cached=False))
            samples.uncached["reviews tab"].append(journey.reviews(city, cached=False))
            samples.uncached["company lookup"].append(journey.company(name, cached=False))
        views: dict[str, Callable[[int], float]] = {
            "restaurant search": lambda i: journey.search(cities[i], cached=True),
            "menu tab": lambda i: journey.menu(cities[i], cached=True),
            "reviews tab": lambda i: journey.reviews(cities[i], cached=True),
            "company lookup": lambda i: journey.company(names[i], cached=True),
        }
        for turn in range(revisits):
            i = turn % repeats
            for view, revisit in views.items():
                samples.baseline.append(journey.baseline())
                samples.baseline_cpu.append(base.cpu_ms)
                samples.cached[view].append(revisit(i))
                samples.cached_cpu[view].append(app.cpu_ms)
                samples.cached_spans.append((view, *app.span, samples.cached[view][-1]))
    finally:
        close(tmux, app.pane, app.pid)
        close(tmux, base.pane, base.pid)
    return samples


def ledger_summary(home: Path) -> str:
    """``creditscope credits`` for the run's HOME: what the ledger recorded."""
    done = subprocess.run([str(CREDITSCOPE), "credits"], capture_output=True, text=True,
                          env=isolated_env(home), check=False)
    lines = done.stdout.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("Last session")), 0)
    return "\n".join("  " + line for line in lines[start:start + 8])


def main() -> None:
    """Print the baseline and each view's uncached and cached medians; the worst cached last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help=f"at most {len(CITIES)}")
    parser.add_argument("--src", type=Path, metavar="DIR",
                        help="run the explorer from this src directory (e.g. an older "
                        "checkout's, for a before/after in the same conditions)")
    parser.add_argument("--revisits", type=int, default=20,
                        help="cached revisits of each view (cycling through the repeats)")
    parser.add_argument("--probe", type=Path, metavar="FILE",
                        help="load the stall probe into the explorer, write its samples "
                        "to FILE and print where the CPU of the slowest revisits went")
    args = parser.parse_args()
    if shutil.which("tmux") is None:
        sys.exit("tmux is required (apt-get install tmux)")
    repeats = max(1, min(args.repeats, len(CITIES)))
    tmux = Tmux(f"creditscope-revisit-{os.getpid()}")
    with tempfile.TemporaryDirectory(prefix="cs-rt-") as tmp:
        key_app = Path(tmp) / "key_app.py"
        key_app.write_text(KEY_APP)
        home = Path(tmp) / "home"
        home.mkdir()
        tmux.start()
        try:
            samples = run(tmux, home, key_app, repeats, args.revisits, args.src, args.probe)
        finally:
            tmux.stop()
        if args.probe is not None:
            time.sleep(1.0)  # the probe writes at the explorer's exit
            print(stall_report(args.probe, samples.cached_spans))
        ledger = ledger_summary(home)
    width, height = TMUX_SIZE
    print(f"key sent to tmux -> result on screen at {width}x{height} (ms): {args.revisits} "
          f"cached revisits of each view ({repeats} distinct), each beside a baseline key")
    print(f"  {'':<18} {'median':>7} {'95th':>7} {'worst':>7}   app CPU median   uncached median")
    print(f"  {'baseline key app':<18} {spread(samples.baseline)}   "
          f"{median(samples.baseline_cpu):6.1f}")
    worst_p95 = worst = 0.0
    for view in VIEWS:
        cached = samples.cached[view]
        worst_p95 = max(worst_p95, percentile(cached, 95))
        worst = max(worst, max(cached))
        print(f"  {view:<18} {spread(cached)}   {median(samples.cached_cpu[view]):6.1f}"
              f"           {median(samples.uncached[view]):7.1f}   runs: "
              + " ".join(f"{v:.0f}" for v in cached))
    print("ledger after the run (revisits charged nothing: checked on the meter per sample)")
    print(ledger)
    print_figure("revisit_tmux_cached_p95_ms", worst_p95, "<=", 50.0, digits=1)
    print_figure("revisit_tmux_cached_worst_ms", worst, "<", 100.0, digits=1)


def spread(values: Sequence[float]) -> str:
    """Median, 95th percentile and worst, aligned."""
    return (f"{median(values):7.1f} {percentile(values, 95):7.1f} "
            f"{max(values, default=math.nan):7.1f}")


if __name__ == "__main__":
    main()
