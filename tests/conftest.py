"""Suite-wide isolation: no test reads or writes the developer's own config,
cache or data, and none reaches the network."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

# Pilot helpers (settle) and their fixtures, shared by every test directory.
pytest_plugins = ["pilot_support"]

# Threads that are not daemons and still run when the session ends keep Python
# from exiting: the run would print its summary and then hang until CI kills it.
STRAGGLER_GRACE_SECONDS = 5.0
_stragglers: list[str] = []


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    dirs = {name: tmp_path / name for name in ("config", "cache", "data", "home")}
    for path in dirs.values():
        path.mkdir()
    monkeypatch.setenv("HOME", str(dirs["home"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(dirs["config"]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(dirs["cache"]))
    monkeypatch.setenv("XDG_DATA_HOME", str(dirs["data"]))
    for name in list(__import__("os").environ):
        if name.startswith("CREDITSCOPE_"):
            monkeypatch.delenv(name, raising=False)
    return dirs


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail, naming them, when threads that would stop Python from exiting remain."""
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(STRAGGLER_GRACE_SECONDS)
        if thread.is_alive():
            _stragglers.append(repr(thread))
    if _stragglers:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    """After the report, end the process rather than wait for those threads forever."""
    if _stragglers:
        print("\nthreads left running after the tests (Python cannot exit):", file=sys.stderr)
        for name in _stragglers:
            print(f"  {name}", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))
