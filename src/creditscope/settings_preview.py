"""What the explorer's first frame needs from the settings, read without pydantic.

The first frame (header, nav bar, footer) shows the theme, the key bindings and
the service badge before the settings are loaded: importing pydantic would
delay it. :func:`read_settings_preview` reads those few values from the config
file and the ``CREDITSCOPE_*`` environment, with the same precedence as the full
load (defaults < file < environment), in a few lines and without parsing the
environment the way pydantic-settings does. It is a preview: right after the
first frame :func:`creditscope.settings.load_settings` loads everything, and what
it finds replaces the preview (a keymap given as ``CREDITSCOPE_KEYS__...``, say).

Also here, because both the preview and the full load need them without pydantic:
where the config file is, the one rule for "is this the built-in sandbox?", and
the error for a setting that cannot be used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from creditscope.file_reading import read_text
from creditscope.sandbox import SANDBOX_BASE_URL

ENV_PREFIX = "CREDITSCOPE_"
CONFIG_FILE_ENV = ENV_PREFIX + "CONFIG_FILE"
# The strings pydantic reads as True for a bool.
_TRUE_STRINGS = frozenset({"1", "on", "t", "true", "y", "yes"})


class SettingsError(ValueError):
    """A setting cannot be used: an invalid environment variable, or a config file
    that cannot be saved over (it does not parse, or holds an invalid value)."""


def default_config_file() -> Path:
    """``$CREDITSCOPE_CONFIG_FILE``, else ``<user config dir>/creditscope/config.toml``."""
    override = os.environ.get(CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("creditscope")) / "config.toml"


def is_sandbox(base_url: str | None) -> bool:
    """True when ``base_url`` means the built-in sandbox: none (or blank), or the
    sandbox's own placeholder address (``.invalid`` never resolves: no real service)."""
    url = (base_url or "").strip().rstrip("/")
    return not url or url == SANDBOX_BASE_URL


@dataclass(frozen=True)
class SettingsPreview:
    """The theme, keymap and badge of the first frame, and where settings are saved.

    The names are those of ``Settings``, so the app reads either the same way.
    """

    config_file: Path
    theme: str | None = None
    keys: dict[str, str] = field(default_factory=dict)
    base_url: str | None = None
    offline: bool = False

    @property
    def is_sandbox(self) -> bool:
        """Whether the badge says SANDBOX (see :func:`is_sandbox`)."""
        return is_sandbox(self.base_url)


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's table; {} when it is missing, unreadable or not TOML. tomllib is
    imported only when there is a file (~5 ms of the first frame; many starts have none)."""
    try:
        text = read_text(path)
    except (OSError, ValueError):  # ValueError: not UTF-8
        return {}
    import tomllib

    try:
        return tomllib.loads(text)
    except ValueError:  # not TOML
        return {}


def read_settings_preview(environ: Mapping[str, str] | None = None) -> SettingsPreview:
    """The preview from the config file and the environment; never raises.

    A broken file or value is left out here: the full load reports it.
    """
    env = os.environ if environ is None else environ
    path = default_config_file()
    file = _read_toml(path)

    def value(name: str) -> Any:
        return env.get(ENV_PREFIX + name.upper(), file.get(name))

    keys = file.get("keys")
    keys = dict(keys) if isinstance(keys, dict) else {}
    try:  # a keymap in the environment, as JSON, goes over the file's
        from_env = json.loads(env[ENV_PREFIX + "KEYS"])
    except (KeyError, ValueError):
        from_env = None
    if isinstance(from_env, dict):
        keys.update(from_env)
    theme, base_url, offline = value("theme"), value("base_url"), value("offline")
    return SettingsPreview(
        config_file=path,
        theme=theme if isinstance(theme, str) and theme else None,
        keys={str(k): str(v) for k, v in keys.items()},
        base_url=(base_url.strip() or None) if isinstance(base_url, str) else None,
        offline=offline is True or str(offline).strip().lower() in _TRUE_STRINGS,
    )
