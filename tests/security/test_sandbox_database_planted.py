"""The built-in sandbox's database replaced by a directory or a link to /dev/zero
(attack report 4, item 4): every command ends with a message naming the file and what
to do (no traceback), the file is left as it is, and `doctor` reports it as a problem."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from creditscope.cli import main


def a_directory(path: Path) -> None:
    path.mkdir()


def a_link_to_dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


@pytest.mark.parametrize(("plant", "kind"), [(a_directory, "a directory"),
                                             (a_link_to_dev_zero, "a device")])
def test_an_unusable_sandbox_database_is_named_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: Callable[[Path], None], kind: str,
) -> None:
    data = tmp_path / "data-dir"
    data.mkdir()
    database = data / "sandbox.sqlite3"
    plant(database)
    before = os.lstat(database)
    monkeypatch.setenv("CREDITSCOPE_DATA_DIR", str(data))

    plain = CliRunner().invoke(main, ["call", "restaurants/search", "--location", "Lisbon"])
    as_json = CliRunner().invoke(main, ["call", "restaurants/search", "--location", "Lisbon",
                                        "--json"])
    for result in (plain, as_json):
        assert result.exit_code == 4, result.output
        assert isinstance(result.exception, SystemExit), result.exception
        assert str(database) in result.output and "move it aside" in result.output
    assert json.loads(as_json.stdout)["error"]["code"] == "client_unavailable"

    doctor = CliRunner().invoke(main, ["doctor", "--json"])
    report = json.loads(doctor.stdout)
    data_finding = next(f for f in report["checks"] if f["name"] == "data")
    assert data_finding["status"] == "problem"
    assert f"{database} is {kind}" in data_finding["summary"]
    assert os.lstat(database).st_ino == before.st_ino  # left as it is
