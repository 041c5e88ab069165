"""Doctor's storage checks: the cache and data directories, and the credit ledger.

Read-only where it matters: nothing is created, rebuilt or set aside here (the
other commands do that on first use). Writability is tried, not guessed from
permission bits (root passes every permission check): a temporary file is
created and removed in the directory, or in its nearest existing parent when
the directory does not exist yet.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import tempfile
from pathlib import Path
from typing import Any

from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME, cache_size_bytes
from creditscope.doctor.report import Finding
from creditscope.file_reading import file_kind
from creditscope.settings import ENV_PREFIX, Settings
from creditscope.wiring import cache_directory, ledger_path, sandbox_db_path
from creditscope.wording import byte_size

# Bounds, so a huge or looping tree cannot stall doctor.
MAX_FILES_WALKED = 50_000
SHOWN_ENTRIES = 6
CORRUPT_MARK = ".corrupt-"
# Cache directories of earlier formats (v1: diskcache's pickles), never opened again.
EARLIER_CACHE_FORMATS = ("v1",)


def check_storage(settings: Settings) -> list[Finding]:
    """Findings for the cache directory, the data directory and the ledger."""
    return [
        check_cache(settings),
        check_data_dir(settings),
        check_ledger(ledger_path(settings)),
    ]


def check_cache(settings: Settings) -> Finding:
    """The response cache: where, how big, how many answers, writable, readable."""
    directory = cache_directory(settings)
    problem = _unwritable(directory)
    details = _directory_details(directory)
    details["size_bytes"] = cache_size_bytes(directory)  # the figure `cache stats` prints
    details["writable"] = problem is None
    set_aside = _set_aside(directory.parent, directory.name)
    details["set_aside"] = set_aside
    earlier = _earlier_caches(directory)
    details["earlier_formats"] = earlier
    if problem is not None:
        return Finding("cache", "problem", f"{directory}: {problem}",
                       fix=_fix_directory("CACHE_DIR", "cache_dir", directory), details=details)
    if not directory.exists():
        return Finding("cache", "ok", f"{directory}: not created yet (on first call), writable",
                       details=details)
    responses, damage = _cached_responses(directory)
    details["responses"] = responses
    size = byte_size(details["size_bytes"])
    if damage is not None:
        return Finding("cache", "problem", f"{directory}: the index is damaged ({damage})",
                       fix="Run `creditscope cache clear`: it moves the damaged cache aside and"
                       " starts an empty one (cached answers will be fetched, and paid, again).",
                       details=details)
    summary = f"{directory}: {responses} responses, {size}, writable"
    if set_aside:
        return Finding("cache", "note", summary + f"; {len(set_aside)} damaged copies set aside",
                       fix=f"Delete them when no longer needed: {', '.join(set_aside)}",
                       details=details)
    if earlier:
        return Finding("cache", "note", summary + "; an earlier version's cache is left"
                       " beside it (no longer read)",
                       fix=f"Delete it to free the space: {', '.join(earlier)}", details=details)
    return Finding("cache", "ok", summary, details=details)


def _earlier_caches(directory: Path) -> list[str]:
    """Cache directories an earlier version wrote beside this format's, if any."""
    if directory.name != CACHE_FORMAT:
        return []  # not the standard layout: nothing to compare with
    return [str(directory.parent / name) for name in EARLIER_CACHE_FORMATS
            if (directory.parent / name).is_dir()]


def check_data_dir(settings: Settings) -> Finding:
    """The data directory (ledgers, sandbox database): where, how big, what, writable."""
    directory = settings.data_dir
    problem = _unwritable(directory)
    details = _directory_details(directory)
    details["writable"] = problem is None
    if problem is not None:
        return Finding("data", "problem", f"{directory}: {problem}",
                       fix=_fix_directory("DATA_DIR", "data_dir", directory), details=details)
    if not directory.exists():
        return Finding("data", "ok", f"{directory}: not created yet (on first call), writable",
                       details=details)
    unusable = _sandbox_db_problem(settings)
    if unusable is not None:
        return Finding("data", "problem", unusable, details=details,
                       fix="Move it aside (or delete it): the next start makes a new one.")
    entries = details["entries"]
    listed = ", ".join(entries[:SHOWN_ENTRIES]) + (", …" if len(entries) > SHOWN_ENTRIES else "")
    summary = (f"{directory}: {len(entries)} entries ({listed or 'empty'}), "
               f"{byte_size(details['size_bytes'])}, writable")
    return Finding("data", "ok", summary, details=details)


def _sandbox_db_problem(settings: Settings) -> str | None:
    """Why the sandbox's database file cannot be opened as one (a directory, a link to a
    device), if it cannot; the explorer and every command would refuse to start."""
    path = sandbox_db_path(settings)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None  # made on first use
    except OSError as exc:
        return f"the built-in sandbox's database {path} cannot be read ({exc.strerror or exc})"
    if stat.S_ISREG(mode):
        return None
    return f"the built-in sandbox's database {path} is {file_kind(mode)}, not a database file"


def check_ledger(path: Path) -> Finding:
    """The lifetime credit ledger of the configured service: intact, and what it holds."""
    set_aside = _set_aside(path.parent, path.name)
    details: dict[str, Any] = {"path": path, "exists": path.exists(), "set_aside": set_aside}
    if not path.exists():
        return Finding("ledger", "ok", f"{path.name}: no calls recorded yet", details=details)
    try:
        totals = _ledger_totals(path)
    except sqlite3.Error as error:
        details["error"] = str(error)
        return Finding("ledger", "problem", f"{path} is damaged ({error})",
                       fix="Run `creditscope credits`: it moves the damaged ledger aside (to"
                       " *.corrupt-…), carries over every readable row and starts a new one.",
                       details=details)
    details.update(totals)
    summary = (f"{path.name}: intact, {totals['calls']} calls, {totals['spent']} credits spent,"
               f" {totals['saved']} saved")
    if set_aside:
        return Finding("ledger", "note", summary + f"; {len(set_aside)} damaged copies set aside",
                       fix=f"Delete them when no longer needed: {', '.join(set_aside)}",
                       details=details)
    return Finding("ledger", "ok", summary, details=details)


def _ledger_totals(path: Path) -> dict[str, Any]:
    # mode=rw: never create a missing file; no write is made, the app's own schema is read.
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=2)
    try:
        check = db.execute("PRAGMA quick_check").fetchone()
        if check is None or check[0] != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {check[0] if check else '?'}")
        calls, spent, saved, last = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(credits_charged), 0), COALESCE(SUM(credits_saved), 0),"
            " MAX(at) FROM calls"
        ).fetchone()
    finally:
        db.close()
    return {"calls": int(calls), "spent": int(spent), "saved": int(saved), "last_call": last}


def _cached_responses(directory: Path) -> tuple[int | None, str | None]:
    """How many answers the cache holds, or why its index cannot be read."""
    index = directory / DATABASE_NAME
    if not index.exists():
        return 0, None
    try:
        db = sqlite3.connect(f"{index.resolve().as_uri()}?mode=rw", uri=True, timeout=2)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                return None, f"integrity check failed: {check[0] if check else '?'}"
            (count,) = db.execute("SELECT COUNT(*) FROM responses").fetchone()
        finally:
            db.close()
    except sqlite3.Error as error:
        return None, str(error)
    return int(count), None


def _unwritable(directory: Path) -> str | None:
    """Why files cannot be written in ``directory`` (or created there), or None."""
    target = directory
    while not target.exists():
        if target.parent == target:
            break
        target = target.parent
    if not target.is_dir():
        where = "is" if target == directory else f"cannot be created: {target} is"
        return f"{where} not a directory"
    try:
        handle, probe = tempfile.mkstemp(prefix=".creditscope-doctor-", dir=target)
    except OSError as error:
        reason = error.strerror or str(error)
        return (f"not writable ({reason})" if target == directory
                else f"cannot be created: {target} is not writable ({reason})")
    os.close(handle)
    os.unlink(probe)
    return None


def _directory_details(directory: Path) -> dict[str, Any]:
    details: dict[str, Any] = {"path": directory, "exists": directory.is_dir()}
    if not directory.is_dir():
        return details | {"size_bytes": 0, "entries": []}
    try:
        entries = sorted(entry.name for entry in directory.iterdir())
    except OSError as error:
        return details | {"size_bytes": 0, "entries": [], "error": str(error)}
    return details | {"size_bytes": _tree_size(directory), "entries": entries}


def _tree_size(directory: Path) -> int:
    total = walked = 0
    for root, _dirs, files in os.walk(directory):
        for name in files:
            walked += 1
            if walked > MAX_FILES_WALKED:
                return total
            try:
                total += (Path(root) / name).lstat().st_size
            except OSError:
                continue
    return total


def _set_aside(parent: Path, name: str) -> list[str]:
    """Damaged copies the app moved aside: ``<name>.corrupt-<time>`` next to it."""
    try:
        return sorted(str(p) for p in parent.glob(f"{name}{CORRUPT_MARK}*") if "-wal" not in p.name
                      and "-shm" not in p.name)
    except OSError:
        return []


def _fix_directory(env_suffix: str, setting: str, directory: Path) -> str:
    return (f"Make {directory} a writable directory, or point {setting} elsewhere"
            f" ({ENV_PREFIX}{env_suffix} or the config file).")

