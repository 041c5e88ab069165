"""Helpers shared by the benchmark scripts: medians, percentiles, figures, ports, RSS.

Every script prints its baseline, then its figure LAST as one line::

    FIGURE first_frame_ratio=1.12 (target <= 1.3)

so the README table (and CI) can read the figure with one ``grep ^FIGURE``.
"""

from __future__ import annotations

import math
import os
import resource
import socket
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# The interpreter running the benchmark (the project's venv); subprocesses reuse it.
PYTHON = sys.executable


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
    """Whether ``value <op> target`` holds, for ``op`` in ``<=``, ``>=``, ``==``."""
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


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


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
