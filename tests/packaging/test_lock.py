"""The lock file is what the tests run on: uv.lock matches pyproject.toml, and this
environment holds exactly the lock's versions (``make`` installs it with
``uv sync --locked``; ``make lock`` is the only thing that moves a pin)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Exact pins on purpose (the UI is tested against them); every other runtime dependency
# is a range, since creditscope is also a library others install beside their own pins.
EXACT_RUNTIME_PINS = {"textual", "textual-serve"}


def _uv() -> str:
    found = shutil.which("uv", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("uv is not in this environment; `make .venv/.installed` installs uv.lock")
    return found


def test_this_environment_is_the_lock() -> None:
    # --locked: uv.lock agrees with pyproject.toml; --check: nothing would change here.
    # (--inexact --no-install-project: the editable project itself is not a pinned package.)
    env = dict(os.environ, UV_PROJECT_ENVIRONMENT=str(Path(sys.prefix)), UV_NO_CONFIG="1")
    done = subprocess.run(
        [_uv(), "sync", "--locked", "--group", "dev", "--check", "--inexact",
         "--no-install-project", "--offline"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_lock_pins_the_dev_tools_and_textual_exactly() -> None:
    lock = tomllib.loads((REPO / "uv.lock").read_text(encoding="utf-8"))
    versions = {package["name"]: package.get("version") for package in lock["package"]}
    for tool in ("pytest", "hypothesis", "mypy", "playwright", "schemathesis", "ruff", "build",
                 "deptry", "uv"):
        assert versions.get(tool), f"{tool} is not in uv.lock"
    assert versions["textual"] == "8.2.8"


def test_runtime_dependencies_stay_ranges() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    for requirement in project["dependencies"]:
        name = re.split(r"[<>=!~ ;\[]", requirement, maxsplit=1)[0].lower()
        exact = "==" in requirement
        assert exact == (name in EXACT_RUNTIME_PINS), requirement
