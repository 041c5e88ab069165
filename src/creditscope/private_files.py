"""Files at rest readable by their owner only: directories 0700, files 0600.

The cache holds request parameters (company names, websites) and full answers;
the ledger and the sandbox database hold what was called and spent. None of
it is for other local users. SQLite creates its ``-wal`` and ``-shm`` files
with the mode of the database file, so a database made 0600 before SQLite
first opens it stays private with everything that goes with it.
"""

from __future__ import annotations

import os
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


def write_private(path: Path, text: str) -> Path:
    """Write ``text`` to a new or existing file readable by its owner only (0600)."""
    path = Path(path).expanduser()
    private_directory(path.parent)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
    os.chmod(path, FILE_MODE)
    return path
