"""Files at rest readable by their owner only: directories 0700, files 0600.

The cache holds request parameters (company names, websites) and full answers;
the ledger and the sandbox database hold what was called and spent. None of
it is for other local users. SQLite creates its ``-wal`` and ``-shm`` files
with the mode of the database file, so a database made 0600 before SQLite
first opens it stays private with everything that goes with it.

What is written at the user's request (an export, ``history --har``) goes through
:func:`open_for_writing`, which never follows a symbolic link nor writes into a FIFO
or device: in a shared directory (``/tmp``) another user may have planted one under
the name, to have the file land where they choose or to hang the writer.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

DIRECTORY_MODE = 0o700
FILE_MODE = 0o600
# Files SQLite keeps beside a database.
_SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")


def private_directory(path: Path) -> Path:
    """Create ``path`` (and missing parents) with mode 0700.

    A directory that already exists keeps its mode: it may be the user's own
    (``--db ./sandbox.sqlite3``); the files in it are made 0600 instead.
    """
    path = Path(path).expanduser()
    missing = []
    parent = path
    while not parent.exists() and parent != parent.parent:
        missing.append(parent)
        parent = parent.parent
    path.mkdir(parents=True, exist_ok=True, mode=DIRECTORY_MODE)
    # mkdir(parents=True) gives the parents it creates the default mode.
    for created in missing:
        os.chmod(created, DIRECTORY_MODE)
    return path


def private_database(path: Path) -> Path:
    """Make ``path``'s directory private and the database file 0600 before SQLite opens it.

    Creates an empty file (a valid empty SQLite database) when it does not exist,
    and tightens the file and its side files when they do.
    """
    path = Path(path).expanduser()
    private_directory(path.parent)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE))
    for candidate in (path, *(path.with_name(path.name + s) for s in _SQLITE_SIDE_FILES)):
        if candidate.exists():
            os.chmod(candidate, FILE_MODE)
    return path


class NotARegularFile(OSError):
    """The path names a symbolic link, a FIFO, a device or a directory: not written."""


def open_for_writing(path: Path, *, private: bool = True) -> int:
    """A descriptor for writing ``path`` from its start (created 0600 if new): never
    through a symbolic link, never into anything but a regular file. ``private``
    makes an existing file 0600 too; else it keeps the mode its owner gave it.

    Raises :class:`NotARegularFile` (an ``OSError`` whose ``strerror`` says why)."""
    try:
        # O_NONBLOCK: a FIFO with no reader fails at once instead of hanging the writer.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                             | os.O_CLOEXEC, FILE_MODE)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.ENXIO):
            raise NotARegularFile(error.errno, "a symbolic link or FIFO is there; not "
                                  "written through it (choose another name)", str(path)) from None
        raise
    kind = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(kind):
        os.close(descriptor)
        raise NotARegularFile(errno.EINVAL, "not a regular file (a device or FIFO); not "
                              "written (choose another name)", str(path))
    os.set_blocking(descriptor, True)
    os.ftruncate(descriptor, 0)
    if private:
        os.fchmod(descriptor, FILE_MODE)
    return descriptor


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` to a new or existing file readable by its owner only (0600), never
    through a symbolic link (see :func:`open_for_writing`)."""
    path = Path(path).expanduser()
    private_directory(path.parent)
    with os.fdopen(open_for_writing(path), "w", encoding="utf-8") as file:
        file.write(text)
    return path
