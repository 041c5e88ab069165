"""Where ``batch --out`` writes, checked before anything is sent, written whole at the end.

The checks run before the first request: ``--out`` naming the input itself (also
through a symlink or a hard link) would destroy the customer's list, and a
directory that cannot be written would only be found after spending. The results
go to a temporary file beside the target and replace it in one step
(``private_files.replacing``, as every export), so an earlier results file survives a
declined or failed run intact, and a symbolic link, a FIFO or a device under the name
is refused before anything is sent, never replaced.

For Excel, a CSV starts with a UTF-8 byte-order mark (Excel reads UTF-8 without
one as the local code page): when the input came from Excel (a workbook, a BOM,
UTF-16, or an 8-bit code page such as cp1252 or Mac Roman) or ``--excel`` is given.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO, cast

from creditscope.outside_text import shown
from creditscope.private_files import refuse_unwritable, replacing

STDOUT = "-"
# Names that promise a format not written here (results go to .csv, .xlsx or .jsonl):
# refused before anything is sent, never a CSV under a workbook's name.
UNWRITTEN = frozenset({".xls", ".xlsm", ".xlsb", ".ods", ".numbers"})


class DestinationProblem(ValueError):
    """``--out`` cannot be used; the message says why (nothing has been sent)."""


class ResultFile:
    """A checked ``--out``: ``write`` streams rows into it (``-``: standard output)."""

    def __init__(self, out: Path, source: Path) -> None:
        self.path = out
        self.to_stdout = str(out) == STDOUT
        if not self.to_stdout:
            _check(out, source)

    def write(self, fill: Callable[[TextIO], int], *, bom: bool) -> int:
        """Call ``fill`` with an open text handle; returns what it returns (rows written).
        The target is replaced only once ``fill`` has finished."""
        if self.to_stdout:
            # On a terminal, the service's cells are shown, never obeyed (a file keeps
            # the exact data: it is read by programs, and formulas are neutralised).
            return fill(cast("TextIO", _TerminalText(sys.stdout)) if sys.stdout.isatty()
                        else sys.stdout)
        with replacing(self.path, private=False, encoding="utf-8-sig" if bom else "utf-8",
                       newline="", new_mode=_plain_open_mode()) as text:
            return fill(text)


class _TerminalText:
    """A text handle that writes to a terminal with every hidden character shown
    (``\\x1b``), line breaks kept."""

    def __init__(self, terminal: TextIO) -> None:
        self._terminal = terminal

    def write(self, text: str) -> int:
        return self._terminal.write(shown(text, keep="\r\n"))

    def flush(self) -> None:
        self._terminal.flush()


def _check(out: Path, source: Path) -> None:
    if out.suffix.lower() in UNWRITTEN:
        raise DestinationProblem(
            f"--out {out}: a {out.suffix} file is not written here; name an .xlsx workbook "
            f"or a CSV instead (e.g. --out {out.with_suffix('.xlsx').name} or "
            f"--out {out.with_suffix('.csv').name})")
    if _same_file(out, source):
        raise DestinationProblem(
            f"--out {out} is the input file: writing results there would destroy it. "
            "Name another file, e.g. --out results.csv")
    if out.is_dir():
        raise DestinationProblem(f"--out {out} is a directory; name a file in it")
    if any(parent.is_file() for parent in out.parents):
        raise DestinationProblem(f"--out {out}: {out.parent} is a file, not a directory")
    try:
        refuse_unwritable(out)  # a symbolic link, a FIFO or a device: never replaced
    except OSError as exc:
        raise DestinationProblem(f"--out {out}: {exc.strerror}") from None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    except OSError as exc:
        raise DestinationProblem(
            f"--out {out}: cannot write in {out.parent} ({exc.strerror or exc})") from None
    os.close(handle)
    Path(probe).unlink()
    if out.exists() and not os.access(out, os.W_OK):
        raise DestinationProblem(f"--out {out} exists and is read-only")


def _same_file(out: Path, source: Path) -> bool:
    if out.resolve() == source.resolve():  # the same path, through symlinks too
        return True
    with contextlib.suppress(OSError):
        return os.path.samefile(out, source)  # a hard link
    return False


def _plain_open_mode() -> int:
    """What a plain ``open`` gives a new file (0666 less umask): results are to share."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
