"""Files at rest readable by their owner only: directories 0700, files 0600.

The cache holds request parameters (company names, websites) and full answers;
the ledger and the sandbox database hold what was called and spent. None of
it is for other local users. SQLite creates its ``-wal`` and ``-shm`` files
with the mode of the database file, so a database made 0600 before SQLite
first opens it stays private with everything that goes with it.

What is written at the user's request (an export, ``history --har``, ``batch --out``)
goes through :func:`replacing` (or :func:`replace_file`), which writes a new file and
renames it over the name: it never writes through a symbolic or hard link nor into a
FIFO or device. In a shared directory (``/tmp``) another user may have planted one
under the name, to have the file land where they choose (or be made 0600) or to hang
the writer.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from creditscope.outside_text import encodable

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


class NotARegularFile(OSError):
    """The path names a symbolic link, a FIFO, a device or a directory: not written."""


def private_database(path: Path) -> Path:
    """Make ``path``'s directory private and the database file 0600 before SQLite opens it.

    Creates an empty file (a valid empty SQLite database) when it does not exist,
    and tightens the file and its side files when they do.
    """
    path = Path(path).expanduser()
    private_directory(path.parent)
    for candidate in (path.with_name(path.name + s) for s in _SQLITE_SIDE_FILES):
        if candidate.exists():
            _refuse_unless_regular(os.stat(candidate).st_mode, candidate)
            os.chmod(candidate, FILE_MODE)
    # O_NONBLOCK: a FIFO under the name fails or is refused at once, where SQLite (and
    # a plain open) would wait for ever for a writer.
    descriptor = os.open(path, os.O_RDONLY | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC,
                         FILE_MODE)
    try:
        _refuse_unless_regular(os.fstat(descriptor).st_mode, path)
        os.fchmod(descriptor, FILE_MODE)
    finally:
        os.close(descriptor)
    return path


def _refuse_unless_regular(mode: int, path: Path, instead: str = "not opened as a database"
                           ) -> None:
    if not stat.S_ISREG(mode):
        raise NotARegularFile(errno.EINVAL, "not a regular file (a FIFO, a device or a "
                              f"directory); {instead}", str(path))


def _writable_kind(path: Path) -> int | None:
    """The mode of what is at ``path`` now (None when nothing is); refuses a symbolic
    link, a FIFO, a device or a directory with :class:`NotARegularFile`."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(found.st_mode):
        raise NotARegularFile(errno.ELOOP, "a symbolic link is there; not written through "
                              "it (choose another name)", str(path))
    _refuse_unless_regular(found.st_mode, path, "not written (choose another name)")
    return found.st_mode


def replace_file(path: Path, text: str, *, private: bool = True) -> Path:
    """Write ``text`` as the new content of ``path`` (see :func:`replacing`)."""
    with replacing(path, private=private) as file:
        file.write(encodable(text))  # a lone surrogate would end the write half-way
    return Path(path)


def refuse_unwritable(path: Path) -> None:
    """Raise :class:`NotARegularFile` now if :func:`replacing` would refuse ``path``
    (a symbolic link, a FIFO, a device or a directory is there): to check an output
    before anything is spent on what goes into it."""
    _writable_kind(Path(path))


@contextlib.contextmanager
def replacing(path: Path, *, private: bool = True, encoding: str = "utf-8",
              newline: str | None = None, new_mode: int = FILE_MODE) -> Iterator[TextIO]:
    """A text handle whose content becomes ``path``'s once the block ends without error:
    written into a fresh file in the same directory, then renamed over the name. So
    nothing is written through a symbolic link or a hard link another name shares (its
    inode is never touched), a FIFO never hangs the writer, and a reader never sees half
    a file. ``private`` makes it 0600; else an existing file's mode is kept (a new one
    gets ``new_mode``). Every file written at a user's request goes through here.

    Raises :class:`NotARegularFile` (an ``OSError`` whose ``strerror`` says why)."""
    path = Path(path)
    existing = _writable_kind(path)
    if existing is not None and not private:
        new_mode = stat.S_IMODE(existing)  # an existing file keeps its mode
    mode = FILE_MODE if private else new_mode
    # mkstemp: O_EXCL and 0600, so a name planted in a shared directory is never used.
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".partial")
    try:
        with os.fdopen(descriptor, "w", encoding=encoding, newline=newline) as file:
            yield file
            os.fchmod(file.fileno(), mode)
        _writable_kind(path)  # planted since the first look: still refused
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` to a new or existing file readable by its owner only (0600), never
    through a link (see :func:`replace_file`)."""
    path = Path(path).expanduser()
    private_directory(path.parent)
    return replace_file(path, text)
