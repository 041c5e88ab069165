"""Helpers shared by the benchmark scripts: medians, percentiles, figures, ports, RSS,
and a private tmux server to run an app in a real terminal pane.

Every script prints its baseline, then its figure LAST as one line::

    FIGURE first_frame_ratio=1.12 (target <= 1.3)

so the README table (and CI) can read the figure with one ``grep ^FIGURE``.
"""

from __future__ import annotations

import math
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TESTS = REPO / "tests"
# The interpreter running the benchmark (the project's venv); subprocesses reuse it.
PYTHON = sys.executable
CREDITSCOPE = Path(PYTHON).parent / "creditscope"
# The terminal every tmux benchmark uses (columns, rows).
TMUX_SIZE = (120, 36)


def median(values: Sequence[float]) -> float:
    """The median; NaN for no samples (printed, never hidden)."""
    return statistics.median(values) if values else math.nan


def percentile(values: Sequence[float], pct: float) -> float:
    """The ``pct``-th percentile (nearest rank) of ``values``; NaN for no samples."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def meets(value: float, op: str, target: float) -> bool:
    """Whether ``value <op> target`` holds, for ``op`` in ``<``, ``<=``, ``>=``, ``==``."""
    if op == "<":
        return value < target
    if op == "<=":
        return value <= target
    if op == ">=":
        return value >= target
    if op == "==":
        return value == target
    raise ValueError(f"unknown comparison {op!r}")


def print_figure(name: str, value: float, op: str, target: float, *, digits: int = 2) -> bool:
    """Print the headline figure as the last line and return whether it meets the target."""
    ok = meets(value, op, target)
    shown = f"{value:.{digits}f}" if isinstance(value, float) else str(value)
    goal = f"{target:g}" if isinstance(target, float) else str(target)
    print(f"FIGURE {name}={shown} (target {op} {goal}){'' if ok else ' MISSED'}", flush=True)
    return ok


def free_port(host: str = "127.0.0.1", ports: range | None = None) -> int:
    """A TCP port nobody listens on right now: the first free one of ``ports`` (a
    benchmark's own range, so runs side by side do not collide), else the OS's pick."""
    for port in ports or (0,):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue
            return int(sock.getsockname()[1])
    raise RuntimeError(f"no free port in {ports}")


def wait_for_port(host: str, port: int, timeout: float = 30.0) -> None:
    """Block until something accepts connections on ``host:port``; TimeoutError otherwise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise TimeoutError(f"nothing listening on {host}:{port} after {timeout:.0f} s")


def _proc_status_kb(pid: int, field: str) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return None


def rss_mb(pid: int | None = None) -> float:
    """Current resident set size of ``pid`` (default: this process) in MB (Linux /proc)."""
    kb = _proc_status_kb(pid or os.getpid(), "VmRSS")
    return math.nan if kb is None else kb / 1024


def peak_rss_mb(pid: int | None = None) -> float:
    """Peak resident set size of ``pid`` (default: this process) in MB.

    Reads ``VmHWM`` from /proc; for this process it falls back to ``getrusage``
    (kilobytes on Linux) where /proc is missing.
    """
    kb = _proc_status_kb(pid or os.getpid(), "VmHWM")
    if kb is None and pid in (None, os.getpid()):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return math.nan if kb is None else kb / 1024


def isolated_env(home: Path, **extra: str) -> dict[str, str]:
    """Environment for a child that must not read or write the user's config, cache or data."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREDITSCOPE_")}
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        XDG_STATE_HOME=str(home / "state"),
        TERM="xterm-256color",
    )
    env.update(extra)
    return env


# --- a real terminal: a private tmux server ------------------------------------------

@dataclass
class Tmux:
    """A private tmux server (own socket, no user config) with one idle session."""

    socket: str

    def run(self, *args: str, check: bool = True) -> str:
        """Run one tmux command on this server and return its stdout."""
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True, text=True, check=False,
        )
        if check and done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args)}: {done.stderr.strip()}")
        return done.stdout

    def start(self) -> None:
        """Start the server with a session whose new windows are TMUX_SIZE."""
        width, height = TMUX_SIZE
        self.run("new-session", "-d", "-s", "bench", "-x", str(width), "-y", str(height),
                 "sleep", "86400")
        # New detached windows take default-size. (tmux 3.3a's server dies on a later
        # new-window after `window-size manual` or `default-terminal`; TERM goes via env.)
        self.run("set-option", "-g", "default-size", f"{width}x{height}")

    def stop(self) -> None:
        """Kill the server and everything still running in it."""
        self.run("kill-server", check=False)

    def screen(self, pane: str) -> str:
        """The text on ``pane`` now."""
        return self.run("capture-pane", "-p", "-t", pane, check=False)

    def keys(self, pane: str, *keys: str, literal: bool = False) -> None:
        """Send ``keys`` (tmux key names, or text with ``literal``) to ``pane``."""
        self.run("send-keys", "-t", pane, *(["-l"] if literal else []), *keys)


def launch(tmux: Tmux, argv: list[str], env: dict[str, str]) -> tuple[str, int, float]:
    """Open a fresh window running ``argv``; (pane id, pane pid, perf_counter at launch)."""
    # `env` rather than `new-window -e`: tmux 3.3a's server crashes on -e in a detached session.
    # The server took this process's environment when it started: the pane gets `env`
    # exactly, unsetting what `env` leaves out (CREDITSCOPE_*, PYTHONDONTWRITEBYTECODE).
    env_args = [arg for key in os.environ if key not in env for arg in ("-u", key)]
    env_args += [f"{key}={value}" for key, value in env.items() if os.environ.get(key) != value]
    started = time.perf_counter()
    out = tmux.run("new-window", "-d", "-t", "bench:", "-P", "-F", "#{pane_id} #{pane_pid}",
                   "--", "env", *env_args, *argv)
    pane, pid = out.split()
    return pane, int(pid), started


def wait_for_text(tmux: Tmux, pane: str, markers: Sequence[str], started: float, *,
                  poll_s: float = 0.005, timeout_s: float = 60.0) -> float:
    """Seconds from ``started`` (a perf_counter) until every marker is on ``pane``'s screen."""
    while True:
        screen = tmux.screen(pane)
        if all(marker in screen for marker in markers):
            return time.perf_counter() - started
        if time.perf_counter() - started > timeout_s:
            raise TimeoutError(f"{markers} not on screen after {timeout_s:.0f} s:\n{screen}")
        time.sleep(poll_s)


def close(tmux: Tmux, pane: str, pid: int, quit_key: str = "C-q") -> None:
    """Quit the app (``quit_key``, a tmux key name), then make sure the process we started
    is gone."""
    tmux.run("send-keys", "-t", pane, quit_key, check=False)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and _alive(pid):
        time.sleep(0.02)
    if _alive(pid):
        os.kill(pid, signal.SIGKILL)
    tmux.run("kill-pane", "-t", pane, check=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by tmux) counts as gone.
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except (OSError, IndexError):
        return False
