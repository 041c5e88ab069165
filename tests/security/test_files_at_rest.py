"""After a session, another local user can read nothing creditscope wrote:
directories it created are 0700, every file 0600 (cache, ledger, sandbox
database, config), and files an older version left readable are tightened."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from click.testing import CliRunner

from creditscope.cli import main
from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import AccountStore
from creditscope.settings import load_settings, save_settings


def modes_under(root: Path) -> dict[str, str]:
    """Every path under ``root`` (itself included) -> its permission bits, e.g. ``"0o700"``."""
    found = {str(root): oct(stat.S_IMODE(root.stat().st_mode))}
    for path in root.rglob("*"):
        found[str(path)] = oct(stat.S_IMODE(path.stat().st_mode))
    return found


def test_everything_written_in_a_session_is_private(isolated_dirs: dict[str, Path]) -> None:
    runner = CliRunner()
    for args in (
        ["call", "restaurants/search", "--location", "Lisbon", "--json"],
        ["call", "restaurants/search", "--location", "Lisbon", "--json"],  # a cache hit
        ["call", "professional_network/find_company", "--name", "Northwind Labs Ltd"],
        ["call", "restaurants/details", "--id", "rst_nowhere"],  # an error, recorded
    ):
        result = runner.invoke(main, args)
        assert result.exit_code in (0, 3), result.output
    settings, _ = load_settings()
    save_settings(settings.model_copy(update={"budget": 50}))
    AccountStore(isolated_dirs["home"] / "served" / "sandbox.sqlite3", {DEMO_KEY: 10}).close()

    written: dict[str, str] = {}
    for name in ("cache", "data", "config"):
        written |= modes_under(isolated_dirs[name] / "creditscope")
    written |= modes_under(isolated_dirs["home"] / "served")
    files = {path for path in written if Path(path).is_file()}
    assert any(path.endswith(DATABASE_NAME) for path in files)
    assert any(path.endswith("sandbox-ledger.sqlite3") for path in files)
    assert any(path.endswith("config.toml") for path in files)
    assert {path: mode for path, mode in written.items() if path in files and mode != "0o600"} == {}
    assert {path: mode for path, mode in written.items()
            if path not in files and mode != "0o700"} == {}


def test_files_an_older_version_left_readable_are_tightened(
    isolated_dirs: dict[str, Path],
) -> None:
    first = CliRunner().invoke(main, ["call", "restaurants/search", "--location", "Tokyo"])
    assert first.exit_code == 0, first.output
    data = isolated_dirs["data"] / "creditscope"
    cache = isolated_dirs["cache"] / "creditscope" / CACHE_FORMAT / DATABASE_NAME
    loosened = [*data.glob("*.sqlite3"), cache]
    for path in loosened:
        os.chmod(path, 0o644)  # as versions before this one created them
    again = CliRunner().invoke(main, ["call", "restaurants/search", "--location", "Tokyo"])
    assert again.exit_code == 0, again.output
    assert {str(path): oct(stat.S_IMODE(path.stat().st_mode)) for path in loosened} == {
        str(path): "0o600" for path in loosened
    }
