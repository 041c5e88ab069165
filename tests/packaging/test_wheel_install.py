"""The wheel, as users install it: built from the sources (sdist, then the wheel from the
sdist, as ``python -m build`` does), installed with ``uv tool install`` into an empty
tool environment (never editable), and run from there: ``--version``, ``call catalog``,
``doctor``, and the explorer in a pseudo-terminal through every area.

Every other test runs from the editable install, which reads stylesheets and data
straight from ``src/``; only this one notices a file the wheel forgot. The installed
dependencies are the lock's versions (exported from ``uv.lock``), installed from the
package index as a user's install does; uv's cache only saves downloads, so the test
passes on a fresh machine with an empty cache (``.ci/run`` gives it one).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import creditscope
from terminal_harness import Terminal

# One worker builds and installs the wheel once for the module (pytest-xdist: a group).
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "creditscope"
# What a clean clone holds that the build reads; nothing generated, nothing local.
BUILD_INPUTS = ("pyproject.toml", "README.md", "LICENSE", "src")
JUNK = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*")
STEP_TIMEOUT = 180  # seconds; the whole module takes well under a minute here

# Key -> text only that area draws once it works (its data included: the catalog's
# rows come from the sandbox, the activity from the catalog call).
AREAS = {
    "2": r"Company name.*Look up · 10 cr",
    "3": r"City, e\.g\. Lisbon.*Search · 2 cr",
    "4": r"/professional_network/find_company\s+10 cr",
    "5": r"Response.*x-credits-charged",
    "6": r"Base URL.*API key",
    "1": r"Select an event in the feed",
}
BROKEN = re.compile(r"Traceback|Error:|is unavailable|Could not start the data client")


@dataclass(frozen=True)
class Installed:
    """The built artifacts and the tool environment the wheel went into."""

    wheel: Path
    sdist: Path
    tool_dir: Path
    bin_dir: Path
    env: dict[str, str]

    @property
    def creditscope(self) -> str:
        return str(self.bin_dir / "creditscope")


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"{name} is not in this environment; `make .venv/.installed` installs uv.lock")
    return found


def _run(args: list[str], env: dict[str, str], cwd: Path | None = None,
         ) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=STEP_TIMEOUT, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


def _clean_env(home: Path) -> dict[str, str]:
    """A plain user's environment: no venv, no PYTHONPATH, no settings of ours."""
    keep = ("PATH", "LANG", "LC_ALL", "SSL_CERT_FILE", "SSL_CERT_DIR", "HTTPS_PROXY",
            "HTTP_PROXY", "NO_PROXY", "https_proxy", "http_proxy", "no_proxy")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    path = [p for p in env.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if Path(p).resolve() != Path(sys.executable).parent.resolve()]
    env["PATH"] = os.pathsep.join(path)
    env["HOME"] = str(home)
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """Build sdist + wheel from a copy of the sources, then ``uv tool install`` the wheel."""
    root = tmp_path_factory.mktemp("wheel")
    # Module scope runs before the suite's per-test isolation: this is the real uv cache.
    uv = _tool("uv")
    cache = _run([uv, "cache", "dir"], dict(os.environ)).stdout.strip()
    source = root / "source"
    source.mkdir()
    for name in BUILD_INPUTS:
        origin = REPO / name
        if origin.is_dir():
            shutil.copytree(origin, source / name, ignore=JUNK)
        elif origin.exists():
            shutil.copy2(origin, source / name)
    env = _clean_env(root / "home")
    env.update(UV_CACHE_DIR=cache, UV_PYTHON_DOWNLOADS="never", UV_NO_CONFIG="1")
    dist = root / "dist"
    # No isolation: setuptools and wheel come from the lock instead of a fresh download.
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(source)],
         env)
    constraints = root / "constraints.txt"
    _run([uv, "export", "--frozen", "--no-hashes", "--no-emit-project", "--no-header",
          "--output-file", str(constraints)], dict(os.environ, UV_NO_CONFIG="1"), cwd=REPO)
    env.update(UV_TOOL_DIR=str(root / "tools"), UV_TOOL_BIN_DIR=str(root / "bin"))
    wheel = next(dist.glob("*.whl"))
    # As a user installs it: from the package index, at the lock's versions. uv's cache
    # (the one `make` filled, empty on a new machine) only saves downloads: `--offline`
    # needed index pages that `uv sync --locked` never fetches, so it failed on a fresh
    # machine. The index is the only host reached (tests/conftest.py's guard cannot see
    # into this subprocess).
    _run([uv, "tool", "install", "--python", sys.executable,
          "--constraints", str(constraints), str(wheel)], env)
    user_dirs = {"CONFIG_FILE": root / "user" / "config.toml", "CACHE_DIR": root / "user" / "cache",
                 "DATA_DIR": root / "user" / "data"}
    env.update({f"CREDITSCOPE_{name}": str(path) for name, path in user_dirs.items()})
    yield Installed(wheel, next(dist.glob("*.tar.gz")), root / "tools", root / "bin", env)


def _package_files() -> set[str]:
    """Every file of the source package, as ``creditscope/...`` paths."""
    return {
        path.relative_to(PACKAGE.parent).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }


def test_the_wheel_and_the_sdist_hold_every_file_of_the_package(installed: Installed) -> None:
    expected = _package_files()
    assert any(name.endswith(".tcss") and "/screens/" in name for name in expected)
    with zipfile.ZipFile(installed.wheel) as wheel:
        in_wheel = set(wheel.namelist())
    assert sorted(expected - in_wheel) == []
    with tarfile.open(installed.sdist) as sdist:
        top = f"{installed.sdist.name.removesuffix('.tar.gz')}/src/"
        in_sdist = {member.name.removeprefix(top) for member in sdist.getmembers()}
    assert sorted(expected - in_sdist) == []


def test_the_installed_wheel_is_not_the_source_tree(installed: Installed) -> None:
    python = next((installed.tool_dir / "creditscope" / "bin").glob("python"))
    where = _run([str(python), "-c", "import creditscope; print(creditscope.__file__)"],
                 installed.env).stdout.strip()
    assert Path(where).is_relative_to(installed.tool_dir), where


def test_version_from_the_installed_wheel(installed: Installed) -> None:
    out = _run([installed.creditscope, "--version"], installed.env).stdout.strip()
    assert re.fullmatch(
        rf"creditscope {re.escape(creditscope.__version__)} "
        r"\(Textual 8\.2\.8, Python 3\.\d+\.\d+\)",
        out,
    ), out


def test_call_catalog_and_doctor_from_the_installed_wheel(installed: Installed) -> None:
    out = _run([installed.creditscope, "call", "catalog", "--json"], installed.env).stdout
    catalog = json.loads(out)
    paths = {e["path"] for p in catalog["providers"] for e in p["endpoints"]}
    assert "/professional_network/find_company" in paths and len(paths) == 8
    report = json.loads(_run([installed.creditscope, "doctor", "--json"], installed.env).stdout)
    assert report["ok"] is True, report["first_problem"]
    assert report["versions"]["package_dir"].startswith(str(installed.tool_dir))


def test_every_area_of_the_explorer_draws_from_the_installed_wheel(installed: Installed) -> None:
    env = dict(installed.env, TERM="xterm-256color", COLORTERM="truecolor")
    term = Terminal([installed.creditscope], env)
    try:
        term.wait_for(AREAS["1"], timeout=30)
        # The Events map is drawn from the packaged land data (Braille cells).
        term.wait_for(r"[\u2801-\u28ff]{3}", timeout=15)
        # A cold start has the cursor in the location box: Escape leaves it, and digits
        # switch areas.
        term.press_escape()
        for key, drawn in AREAS.items():
            term.send(key.encode())
            term.wait_for(drawn, timeout=20)
            term.settle()
            assert term.child.isalive(), f"the explorer exited after key {key}"
            assert not BROKEN.search(term.text()), term.text()
    finally:
        code = term.quit()
    assert code == 0, term.text()
