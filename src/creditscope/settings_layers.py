"""Step one of loading settings, without pydantic: the config file and the environment.

``read_settings_layers()`` locates and parses the TOML config file and reads the
``CREDITSCOPE_*`` environment variables, and :meth:`SettingsLayers.merged` merges
them once (defaults < file < env). That is cheap (no pydantic, ~1 ms), so the
explorer reads the few values its first frame needs (theme, keys, base URL,
offline) from here, and validates later, off the first frame: step two,
:meth:`SettingsLayers.load`, is ``creditscope.settings.validate_layers``, which
turns the same merged dict into ``Settings``. ``load_settings()`` is both steps
at once.

The environment is read the way pydantic-settings reads it for ``Settings``:
names are case-insensitive, ``__`` nests into a complex (dict or model) field
(``CREDITSCOPE_TTL__CATALOG=9``), and a complex field's own value is JSON
(``CREDITSCOPE_KEYS='{"nav.catalog": "c"}'``).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from creditscope.settings import Settings

ENV_PREFIX = "CREDITSCOPE_"
CONFIG_FILE_ENV = ENV_PREFIX + "CONFIG_FILE"
ENV_NESTED_DELIMITER = "__"
# Settings' dict and model fields (creditscope.settings checks this against the model).
COMPLEX_FIELDS = frozenset({"ttl", "keys"})
# The strings pydantic reads as True (the rest of its bool strings are False or invalid).
_TRUE_STRINGS = frozenset({"1", "on", "t", "true", "y", "yes"})


class SettingsError(ValueError):
    """The environment holds a setting that cannot be used."""


def default_config_file() -> Path:
    """``<user config dir>/creditscope/config.toml``, or ``$CREDITSCOPE_CONFIG_FILE``."""
    override = os.environ.get(CONFIG_FILE_ENV)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir("creditscope")) / "config.toml"


def read_config_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The TOML at ``path`` as a dict (empty if missing) and any warnings about it."""
    if not path.exists():
        return {}, []
    try:
        return tomllib.loads(path.read_text(encoding="utf-8")), []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return {}, [f"Ignoring the config file {path}: {exc}. Using defaults."]


def read_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``CREDITSCOPE_*`` variables as a dict of raw values, nested and decoded as above."""
    environ = os.environ if environ is None else environ
    prefix = ENV_PREFIX.lower()
    values: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    for key, value in environ.items():
        name = key.lower()
        if not name.startswith(prefix):
            continue
        field, _, rest = name[len(prefix):].partition(ENV_NESTED_DELIMITER)
        if not rest:
            values[field] = value
        elif field in COMPLEX_FIELDS:  # "__" under a simple field is ignored, as by pydantic
            *parents, leaf = rest.split(ENV_NESTED_DELIMITER)
            target = nested.setdefault(field, {})
            for part in parents:
                child = target.get(part)
                target = target[part] = child if isinstance(child, dict) else {}
            target[leaf] = value
    for field in COMPLEX_FIELDS & (values.keys() | nested.keys()):
        decoded = _decode_json(field, values[field]) if field in values else {}
        values[field] = _deep_merge(decoded, nested[field]) if field in nested else decoded
    return values


def _decode_json(field: str, raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise SettingsError(
            f"Invalid {ENV_PREFIX}* environment variable: {field}: not valid JSON ({exc})"
        ) from None


def _deep_merge(base: Any, override: Any) -> Any:
    """``override`` over ``base``; dicts are merged key by key, at every depth."""
    if not (isinstance(base, dict) and isinstance(override, dict)):
        return override
    merged = dict(base)
    for key, value in override.items():
        merged[key] = _deep_merge(merged[key], value) if key in merged else value
    return merged


@dataclass(frozen=True)
class SettingsLayers:
    """The raw config file and environment; the first frame reads them before validation.

    ``theme``, ``keys``, ``base_url``, ``offline`` and ``config_file`` have the same
    names as on ``Settings``, so the app reads either; they come from
    :meth:`merged`, the dict ``Settings`` validates, so they match it unless it is
    invalid (then ``load`` says so).
    """

    path: Path  # where the config file was looked for
    file: dict[str, Any]  # its TOML ({} when missing or broken)
    env: dict[str, Any]  # from read_env()
    warnings: tuple[str, ...] = ()  # about the file (broken TOML)

    def merged(self, *, with_file: bool = True) -> dict[str, Any]:
        """Defaults < file < env, as one dict (``with_file=False``: the file ignored)."""
        base: dict[str, Any] = {"config_file": str(self.path)}
        if with_file:
            base = {**base, **self.file}
        merged: dict[str, Any] = _deep_merge(base, self.env)
        return merged

    def load(self) -> tuple[Settings, list[str]]:
        """Step two: validate into ``Settings`` (imports pydantic), plus all warnings."""
        from creditscope.settings import validate_layers

        return validate_layers(self)

    @property
    def theme(self) -> str | None:
        """The theme the first frame uses."""
        theme = self.merged().get("theme")
        return theme if isinstance(theme, str) and theme else None

    @property
    def keys(self) -> dict[str, str]:
        """The keymap the first frame uses (binding id -> key)."""
        keys = self.merged().get("keys")
        return {str(k): str(v) for k, v in keys.items()} if isinstance(keys, dict) else {}

    @property
    def base_url(self) -> str | None:
        """The base URL the header badge shows (None: the built-in sandbox)."""
        base_url = self.merged().get("base_url")
        return base_url if isinstance(base_url, str) else None

    @property
    def offline(self) -> bool:
        """Whether the header badge says OFFLINE."""
        offline = self.merged().get("offline")
        if isinstance(offline, str):
            return offline.strip().lower() in _TRUE_STRINGS
        return offline is True

    @property
    def config_file(self) -> Path:
        """Where settings are saved."""
        return Path(self.merged()["config_file"])


def read_settings_layers() -> SettingsLayers:
    """Step one: the config file (from ``CREDITSCOPE_CONFIG_FILE`` or the user config
    dir) and the environment. Raises :class:`SettingsError` for a bad JSON value."""
    path = default_config_file()
    data, warnings = read_config_file(path)
    return SettingsLayers(path, data, read_env(), tuple(warnings))
