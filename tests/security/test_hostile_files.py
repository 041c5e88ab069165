"""Files an attacker hands over or plants: a HAR nested too deep, of a million tiny
objects, a link to /dev/zero or a FIFO; a symbolic link or FIFO planted in a shared
directory under the name `history --har` writes; a data directory that is no
directory; a ledger that cannot be opened (not damaged). Each ends in a clear message,
bounded in time and memory, and nothing is read, written or moved that should not be.
"""

from __future__ import annotations

import os
import resource
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.client.ledger import CreditLedger
from creditscope.support.curl_parse import ImportProblem
from creditscope.support.har_import import parse_har

SERVICE = "https://api.dataservice.example"
BOUND_S = 20  # no hostile file may hold a command longer


def creditscope(*args: str, timeout: float = BOUND_S) -> subprocess.CompletedProcess[str]:
    """`creditscope ARGS` in a child whose memory is capped (2 GB), so that a reader
    without limits fails here instead of taking the machine; killed after ``timeout``."""

    def cap_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    try:
        return subprocess.run([sys.executable, "-m", "creditscope", *args], capture_output=True,
                              text=True, timeout=timeout, preexec_fn=cap_memory, check=False)
    except subprocess.TimeoutExpired:
        command = " ".join(args)
        raise AssertionError(f"`creditscope {command}` still ran after {timeout} s") from None


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 200_000, "nested deeper"),
    ('{"log": {"entries": [' + ",".join(['{"request": {}}'] * 700_000) + "]}}", "JSON objects"),
])
def test_a_har_past_the_limits_is_refused_with_a_clear_message(text: str, words: str) -> None:
    with pytest.raises(ImportProblem, match=words):
        parse_har(text, SERVICE)


def test_import_har_of_a_deep_file_says_why_without_a_traceback(tmp_path: Path) -> None:
    deep = tmp_path / "deep.har"
    deep.write_text('{"log": {"entries": ' + "[" * 200_000)
    result = CliRunner().invoke(main, ["import-har", str(deep)])
    assert result.exit_code == 2 and "nested deeper" in result.output, result.output
    assert not isinstance(result.exception, RecursionError)


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["link to /dev/zero", "FIFO", "directory", "over 50 MB"])
def test_only_a_regular_har_file_of_bounded_size_is_read(tmp_path: Path, kind: str) -> None:
    started = time.monotonic()
    har = tmp_path / "customer.har"
    if kind == "link to /dev/zero":
        har.symlink_to("/dev/zero")
    elif kind == "FIFO":
        os.mkfifo(har)
    elif kind == "directory":
        har.mkdir()
    else:
        with har.open("wb") as sparse:  # 51 MB that take no room on disk
            sparse.truncate(51 * 2**20)
    result = creditscope("import-har", str(har))
    said = result.stdout + result.stderr
    assert result.returncode == 2, said  # the file named on the command line is unusable
    assert "Traceback" not in said
    why = {"over 50 MB": "over 50 MB", "directory": "is a directory"}
    assert why.get(kind, "not a regular file") in said, said
    assert time.monotonic() - started < BOUND_S


def test_history_har_does_not_write_through_a_planted_link(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o1777)
    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    planted = shared / "case-4821.har"
    planted.symlink_to(victim)
    result = CliRunner().invoke(main, ["history", "--har", str(planted)])
    assert result.exit_code == 1, result.output
    assert "symbolic link" in result.output and "Traceback" not in result.output
    assert victim.read_text() == "the victim's own file\n"
    assert planted.is_symlink()


@pytest.mark.parametrize("writer", ["history --har", "explorer export"])
def test_an_output_does_not_write_through_a_planted_hard_link(
    tmp_path: Path, writer: str
) -> None:
    """Another name for the victim's file, planted where the output goes: the victim's
    file keeps its content and its mode (it was overwritten and made 0600)."""
    from creditscope.tui.web_tab import save_text

    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    victim.chmod(0o644)
    planted = tmp_path / "case-4821.har"
    os.link(victim, planted)
    if writer == "history --har":
        result = CliRunner().invoke(main, ["history", "--har", str(planted)])
        assert result.exit_code == 0, result.output
    else:
        class Explorer:  # in a terminal, not a web tab: the export is written here
            is_web = False

        save_text(Explorer(), planted, "name,website\n")  # type: ignore[arg-type]
    assert victim.read_text() == "the victim's own file\n"
    assert victim.stat().st_mode & 0o777 == 0o644
    assert not planted.samefile(victim) and planted.read_text() != victim.read_text()
    assert [p.name for p in tmp_path.iterdir() if ".partial" in p.name] == []


def test_an_explorer_export_does_not_write_through_a_planted_link(tmp_path: Path) -> None:
    from creditscope.tui.web_tab import save_text

    class Explorer:  # in a terminal, not a web tab: the export is written here
        is_web = False

    victim = tmp_path / "victim.txt"
    victim.write_text("the victim's own file\n")
    planted = tmp_path / "matches.csv"
    planted.symlink_to(victim)
    with pytest.raises(OSError, match="symbolic link"):
        save_text(Explorer(), planted, "name,website\n")  # type: ignore[arg-type]
    assert victim.read_text() == "the victim's own file\n"


@pytest.mark.slow
def test_history_har_does_not_hang_on_a_planted_fifo(tmp_path: Path) -> None:
    planted = tmp_path / "case-4821.har"
    os.mkfifo(planted)
    result = creditscope("history", "--har", str(planted))
    assert result.returncode == 1 and "FIFO" in result.stderr, result.stderr


@pytest.mark.parametrize("variable", ["CREDITSCOPE_DATA_DIR", "CREDITSCOPE_CACHE_DIR"])
@pytest.mark.parametrize("value", ["~/creditscope-data", "/dev/null", "a file", "/dev/null/x",
                                   "/proc/self/x", "", " ", "a file/below", "a loop",
                                   "a loop/below", "a long name"])
def test_a_bad_data_dir_is_a_usage_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, value: str, variable: str
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    (here / "notes.txt").write_text("not a directory\n")
    if value.startswith("a file"):
        value = str(here / "notes.txt" / value.removeprefix("a file").lstrip("/"))
    if value.startswith("a loop"):  # two links that lead to each other
        os.symlink(here / "loop2", here / "loop1")
        os.symlink(here / "loop1", here / "loop2")
        value = str(here / "loop1" / value.removeprefix("a loop").lstrip("/"))
    if value == "a long name":  # a component over the file system's 255 bytes
        value = str(here / ("x" * 300))
    monkeypatch.chdir(here)
    monkeypatch.setenv(variable, value)
    for command in (["credits"], ["call", "restaurants/search", "--location", "Lisbon"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code == 2, (command, result.output)
        named = variable.removeprefix("CREDITSCOPE_").lower()
        assert "CREDITSCOPE_" in result.output and named in result.output
        assert value.strip() in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    # Nothing made in the current directory (an empty value was taken to mean it).
    assert [p.name for p in here.iterdir() if not p.is_symlink()] == ["notes.txt"]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["sandbox-ledger.sqlite3", "sandbox-ledger.sqlite3-wal"])
def test_a_fifo_planted_as_the_ledger_is_refused_without_hanging(
    tmp_path: Path, name: str
) -> None:
    data = tmp_path / "ledgers"
    data.mkdir()
    os.mkfifo(data / name)
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "creditscope", "call", "restaurants/search", "--location",
         "Lisbon", "--limit", "1"],
        env={**os.environ, "CREDITSCOPE_DATA_DIR": str(data)},
        capture_output=True, text=True, timeout=60, check=False)
    assert time.monotonic() - started < 60
    assert "not a regular file" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert stat.S_ISFIFO(os.lstat(data / name).st_mode)  # left as it is


def test_a_ledger_that_cannot_be_opened_is_left_in_place(tmp_path: Path) -> None:
    folder = tmp_path / "ledgers"
    folder.mkdir()
    path = folder / "ledger.sqlite3"
    CreditLedger(path).close()
    # Its write-ahead log cannot be made (a directory holds the name): an open error.
    (folder / "ledger.sqlite3-wal").mkdir()
    ledger = CreditLedger(path)
    [warning] = ledger.warnings
    assert "could not be opened" in warning and "damaged" not in warning
    ledger.close()
    assert sorted(p.name for p in folder.iterdir()) == ["ledger.sqlite3", "ledger.sqlite3-wal"]


def test_a_damaged_ledger_is_still_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "ledger.sqlite3"
    path.write_bytes(b"not a database " * 512)
    ledger = CreditLedger(path)
    [warning] = ledger.warnings
    assert "damaged" in warning
    ledger.close()
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())
