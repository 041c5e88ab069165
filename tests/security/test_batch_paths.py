"""`batch` files an attacker plants (attack report 4, item 3): under the name ``--out``
writes, a FIFO, a symbolic link to the terminal's descriptor or to a file elsewhere is
refused before anything is sent, and left as it was (as `history --har` refuses them,
through the same writer); an input that is a FIFO with no writer is refused at once
instead of hanging the command."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from test_hostile_files import BOUND_S, creditscope

TARGET_TEXT = "the presenter's notes\n"


def fifo(at: Path, _: Path) -> None:
    os.mkfifo(at)


def link_to_stdout(at: Path, _: Path) -> None:
    at.symlink_to("/proc/self/fd/1")


def link_elsewhere(at: Path, elsewhere: Path) -> None:
    at.symlink_to(elsewhere)


@pytest.mark.slow
@pytest.mark.parametrize(("plant", "said"), [
    (fifo, "not a regular file"),
    (link_to_stdout, "a symbolic link is there"),
    (link_elsewhere, "a symbolic link is there"),
])
def test_a_planted_out_is_refused_and_left_as_it_was(
    tmp_path: Path, plant: Callable[[Path, Path], None], said: str,
) -> None:
    source = tmp_path / "places.csv"
    source.write_text("location\nLisbon\nPorto\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere" / "notes.txt"
    elsewhere.parent.mkdir()
    elsewhere.write_text(TARGET_TEXT, encoding="utf-8")
    shared = tmp_path / "shared"
    shared.mkdir()
    out = shared / "results.csv"
    plant(out, elsewhere)
    before = os.lstat(out)

    result = creditscope("batch", "restaurants/search", str(source), "--out", str(out),
                         "--dry-run")
    assert result.returncode == 2, result.stdout + result.stderr
    assert said in result.stderr and str(out) in result.stderr, result.stderr
    after = os.lstat(out)
    assert (stat.S_IFMT(after.st_mode), after.st_ino) == (stat.S_IFMT(before.st_mode),
                                                          before.st_ino)
    assert elsewhere.read_text(encoding="utf-8") == TARGET_TEXT
    assert "Lisbon" not in result.stdout  # nothing went to the terminal through the link
    assert [p.name for p in shared.iterdir()] == ["results.csv"]  # no leftover


@pytest.mark.slow
def test_an_input_fifo_without_a_writer_is_refused_at_once(tmp_path: Path) -> None:
    source = tmp_path / "places.csv"
    os.mkfifo(source)
    result = creditscope("batch", "restaurants/search", str(source), "--dry-run",
                         timeout=BOUND_S)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "a FIFO, not a regular file" in result.stderr, result.stderr
    assert stat.S_ISFIFO(os.lstat(source).st_mode)
