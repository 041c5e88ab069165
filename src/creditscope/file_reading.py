"""Reading a file someone handed over (a customer's HAR): a regular file, and only so much;
and reading a text file a person wrote (a key file, the config) as they meant it.

A path may name a FIFO (reading waits for ever), a device (``/dev/zero`` never
ends) or a symbolic link to one; none is read. The file is opened without
blocking, checked with ``fstat`` on the open descriptor (no race with a swap of
the name), and read up to its limit: a file that grows while read is cut there
and refused, so memory stays bounded whatever the file does. Pure: every layer
may use it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO


class FileRefused(ValueError):
    """The file was not read; the message says why, naming it."""


class FileTooBig(FileRefused):
    """The file is larger than its reader takes."""

    def __init__(self, path: Path, max_bytes: int, advice: str = "") -> None:
        super().__init__(f"{path} is over {max_bytes // 2**20} MB; larger files are not read."
                         f"{advice}")


def open_regular_file(path: Path) -> BinaryIO:
    """``path`` opened for reading if it is a regular file; :class:`FileRefused` for
    anything else (checked on the open descriptor, opened without waiting for a FIFO's
    writer). What ``open`` itself raises (a missing file, no permission) goes through."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        kind = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(kind):
            raise FileRefused(f"{path} is {file_kind(kind)}, not a regular file; it was not read.")
        os.set_blocking(descriptor, True)
        return os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise


def read_regular_file(path: Path, max_bytes: int, *, advice: str = "") -> bytes:
    """The bytes of the regular file at ``path``; :class:`FileRefused` for anything else
    or for more than ``max_bytes`` (``advice`` follows that message)."""
    too_big = FileTooBig(path, max_bytes, advice)
    try:
        with open_regular_file(path) as file:
            if os.fstat(file.fileno()).st_size > max_bytes:
                raise too_big
            data = file.read(max_bytes + 1)
    except OSError as error:
        raise FileRefused(f"Cannot read {path}: {error.strerror or error}.") from None
    if len(data) > max_bytes:
        raise too_big
    return data


def read_text(path: Path) -> str:
    """The UTF-8 text of ``path`` without a leading byte order mark: Notepad and other
    Windows editors start a file with one, which is no character of its first line (a
    key file's first key would never match, a config's first line would not parse)."""
    return path.read_text(encoding="utf-8-sig")


def file_kind(mode: int) -> str:
    """What a file of ``mode`` is, in words ("a directory", "a FIFO", "a device")."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"
