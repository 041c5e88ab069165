"""The config file on disk: its TOML read as it is, and written back with mode 0600.

:mod:`creditscope.settings` decides *what* to write (the file's own values plus
what the user changed); this module edits the file's TOML to hold those values
(tomlkit: the user's comments, blank lines, order and unknown keys stay) and puts
it in place atomically, private from the first byte: the config file is the only
file the API key is ever written to.
"""

from __future__ import annotations

import datetime
import os
import tomllib
from collections.abc import Mapping, MutableMapping
from pathlib import Path
from typing import Any

import tomlkit
import tomlkit.exceptions

from creditscope.file_reading import read_text
from creditscope.private_files import private_directory
from creditscope.settings_preview import SettingsError

HEADER = "# creditscope settings (written by creditscope; mode 0600)"


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML at ``path`` as a dict ({} when there is no file); raises
    :class:`SettingsError` when it cannot be read or does not parse."""
    try:
        return tomllib.loads(read_text(path))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:  # ValueError: bad TOML or not UTF-8
        raise SettingsError(f"the config file {path} cannot be read: {error}") from None


def write_private_toml(path: Path, values: Mapping[str, Any]) -> Path:
    """Make the TOML at ``path`` hold ``values``, mode 0600 from the first byte.

    The file is edited, not rewritten: only the values that differ are written, and the
    user's comments, blank lines and order stay as they were (tomlkit). A new file starts
    with :data:`HEADER`.
    """
    private_directory(path.parent)
    temporary = path.with_name(path.name + ".tmp")
    text = toml_text(values, _existing_text(path))
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an old .tmp left by a crash keeps its mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, path)
    os.chmod(path, 0o600)
    return path


def _existing_text(path: Path) -> str | None:
    try:
        return read_text(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise SettingsError(f"the config file {path} cannot be read: {error}") from None


def toml_text(values: Mapping[str, Any], existing: str | None = None) -> str:
    """The TOML text ``existing`` (a new file when None) edited to hold exactly ``values``:
    values that differ replaced, missing ones added, others removed; the rest, comments
    included, untouched."""
    if existing is None:
        document = tomlkit.document()
        document.add(tomlkit.comment(HEADER.removeprefix("# ")))
    else:
        try:
            document = tomlkit.parse(existing)
        except tomlkit.exceptions.ParseError as error:
            raise SettingsError(f"the config file does not parse: {error}") from None
    _edit(document, values)
    return document.as_string()


def _edit(container: MutableMapping[str, Any], values: Mapping[str, Any]) -> None:
    for name in [name for name in container if name not in values]:
        del container[name]
    for name, value in values.items():
        if isinstance(value, Mapping):
            current = container.get(name)
            if isinstance(current, MutableMapping):
                _edit(current, value)
            else:
                table = tomlkit.table()
                _edit(table, value)
                container[name] = table
        elif name not in container or not _same(_plain(container[name]), value):
            container[name] = _item(value)


def _plain(item: Any) -> Any:
    return item.unwrap() if hasattr(item, "unwrap") else item


def _same(old: Any, new: Any) -> bool:
    # type too: True == 1 and 1 == 1.0, but the file should say what the user set.
    return type(old) is type(new) and old == new


def _item(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if not isinstance(value, bool | int | float | str | list | datetime.date | datetime.time):
        raise TypeError(f"cannot write {type(value).__name__} to TOML")
    return value
