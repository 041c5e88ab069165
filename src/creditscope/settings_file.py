"""The config file on disk: its TOML read as it is, and written back with mode 0600.

:mod:`creditscope.settings` decides *what* to write (the file's own values plus
what the user changed); this module only turns a dict into TOML text and puts
it in place atomically, private from the first byte: the config file is the only
file the API key is ever written to.
"""

from __future__ import annotations

import datetime
import json
import os
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from creditscope.private_files import private_directory
from creditscope.settings_preview import SettingsError

HEADER = "# creditscope settings (written by creditscope; mode 0600)"
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML at ``path`` as a dict ({} when there is no file); raises
    :class:`SettingsError` when it cannot be read or does not parse."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:  # ValueError: bad TOML or not UTF-8
        raise SettingsError(f"the config file {path} cannot be read: {error}") from None


def write_private_toml(path: Path, values: Mapping[str, Any]) -> Path:
    """Replace ``path`` with ``values`` as TOML, mode 0600 from the first byte."""
    private_directory(path.parent)
    temporary = path.with_name(path.name + ".tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an old .tmp left by a crash keeps its mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(toml_text(values))
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, path)
    os.chmod(path, 0o600)
    return path


def toml_text(values: Mapping[str, Any]) -> str:
    """``values`` as TOML: plain values first, then one ``[table]`` per dict value."""
    lines = [HEADER]
    tables = {name: value for name, value in values.items() if isinstance(value, Mapping)}
    lines += [f"{_key(name)} = {_value(value)}"
              for name, value in values.items() if name not in tables]
    for name, table in tables.items():
        lines += ["", f"[{_key(name)}]"]
        lines += [f"{_key(key)} = {_value(value)}" for key, value in table.items()]
    return "\n".join(lines) + "\n"


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else _string(name)


def _string(text: str) -> str:
    # JSON's escapes are TOML's; TOML also wants DEL escaped, which JSON leaves raw.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):  # before int: a bool is an int
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int | float):
        return repr(value)  # repr keeps every digit; inf and nan are TOML too
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")
