"""Other Textual apps to measure beside creditscope, each installed on demand into its own
scratch venv under a cache dir (never committed, never the project's venv).

The cache dir is ``$CREDITSCOPE_BENCH_CACHE`` if set, else
``$XDG_CACHE_HOME/creditscope-benchmarks`` (``~/.cache/creditscope-benchmarks``); each
peer lives in ``peers/<slug>`` there, with a stamp of what was installed, so later runs
reuse it and a changed pin reinstalls it. The venvs are made with the project's uv (the one
``make`` puts in ``.venv/bin``) on the benchmark's own interpreter, or with ``venv`` and pip
where there is no uv.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from _common import PYTHON


@dataclass(frozen=True)
class PeerApp:
    """A published Textual app: what to install, what to run, and its first screen's text."""

    name: str
    slug: str
    requirements: tuple[str, ...]
    script: str
    # Text only its first real screen shows (title, panels, footer), all at once.
    markers: tuple[str, ...]
    # The key that quits it (tmux key name).
    quit_key: str


PEERS = (
    # tree-sitter 0.26 segfaults under Posting here; 0.25.x is what it was built against.
    PeerApp("Posting 2.11.1", "posting-2.11.1", ("posting==2.11.1", "tree-sitter==0.25.*"),
            "posting", ("Posting", "Collection", "Request", "Response", "Send"), "C-c"),
    # Harlequin opens an in-memory DuckDB when given no database.
    PeerApp("Harlequin 2.17.0", "harlequin-2.17.0", ("harlequin==2.17.0",),
            "harlequin", ("Data Catalog", "Query Editor", "Query Results", "Run Query"), "C-q"),
)


def cache_dir() -> Path:
    """Where scratch installs live (outside the repository)."""
    named = os.environ.get("CREDITSCOPE_BENCH_CACHE")
    if named:
        return Path(named)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "creditscope-benchmarks"


def installed(peer: PeerApp) -> Path:
    """The peer's command, installing it first if its venv is missing or stale."""
    venv = cache_dir() / "peers" / peer.slug
    command = venv / "bin" / peer.script
    stamp = venv / "installed.txt"
    wanted = "\n".join(peer.requirements)
    if command.exists() and stamp.exists() and stamp.read_text() == wanted:
        return command
    print(f"installing {peer.name} into {venv} ...", flush=True)
    uv = Path(PYTHON).parent / "uv"
    if uv.exists() or shutil.which("uv"):
        uv_cmd = str(uv) if uv.exists() else "uv"
        subprocess.run([uv_cmd, "venv", "--quiet", "--clear", "--python", PYTHON, str(venv)],
                       check=True)
        subprocess.run([uv_cmd, "pip", "install", "--quiet", "--python",
                        str(venv / "bin" / "python"), *peer.requirements], check=True)
    else:
        subprocess.run([PYTHON, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        *peer.requirements], check=True)
    stamp.write_text(wanted)
    return command
