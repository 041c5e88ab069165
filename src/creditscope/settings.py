"""User settings, and where each value came from.

Precedence, lowest first::

    defaults < config file (TOML) < environment (CREDITSCOPE_*) < command-line flags
                                                                  and explorer choices

:func:`load_settings` is the way in. It reads the config file (from
``CREDITSCOPE_CONFIG_FILE`` or the user config dir) and the environment with
pydantic-settings' own sources (``TomlConfigSettingsSource``; ``EnvSettingsSource``
with the ``CREDITSCOPE_`` prefix, ``__`` for nesting, JSON for a dict or model
field), merges them and validates the result once. A config file that does not
parse or holds an invalid value is ignored as a whole, with a warning; an invalid
environment variable is a :class:`SettingsError`. What it returns carries its
:class:`Provenance`: the file's own values and what the environment set.

Command-line flags and choices made in the explorer are changes to loaded
settings (``settings.model_copy(update=...)``), so they win over both.
:func:`save_settings` writes only those changes, on top of the file's own
values: a value that came from the environment never lands in the file. It
writes with mode 0600: the config file is the only file that may hold the key.

``Settings(...)`` built directly is exactly its arguments plus defaults (it reads
neither the file nor the environment), so saving it writes every value it sets.

The explorer's first frame does not wait for any of this (pydantic is slow to
import): it reads a preview, :mod:`creditscope.settings_preview`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import platformdirs
from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
    create_model,
    field_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings import SettingsError as SourceError

from creditscope import operations
from creditscope.outside_text import escaped, hidden
from creditscope.settings_file import read_toml, write_private_toml
from creditscope.settings_preview import (
    CONFIG_FILE_ENV,
    ENV_PREFIX,
    SettingsError,
    default_config_file,
    is_sandbox,
)
from creditscope.web_demo import refuse_in_web_demo

__all__ = [
    "CONFIG_FILE_ENV", "ENV_PREFIX", "MAX_TIMEOUT_S", "Provenance", "Settings", "SettingsError",
    "Sources", "TTLSettings", "TTLTable", "default_config_file", "load_settings",
    "read_config_file", "read_env", "read_sources", "save_settings", "settings_from_sources",
    "ttl_settings_model",
]


class TTLTable(BaseModel):
    """Cache lifetime in seconds per cached operation: one field per operation of the
    table with a TTL, named ``Operation.ttl_setting`` (``[ttl] restaurants_search = 60``
    in the config file, ``CREDITSCOPE_TTL__RESTAURANTS_SEARCH``), defaulting to its TTL."""

    def by_operation(self) -> dict[str, int]:
        """``{"restaurants/search": 3600, ...}`` for ``DataClient(ttls=...)``."""
        return {name: getattr(self, field) for name, field in self.fields()}

    def fields(self) -> tuple[tuple[str, str], ...]:
        """``(operation name, field name)`` of every lifetime, in the table's order."""
        return tuple((op.name, op.ttl_setting) for op in operations.OPERATIONS
                     if op.ttl_setting in type(self).model_fields)

    if TYPE_CHECKING:  # a field per cached operation, each an int
        def __getattr__(self, name: str) -> int: ...


def ttl_settings_model(table: tuple[operations.Operation[Any], ...]) -> type[TTLTable]:
    """The TTL settings model for ``table``: a field per operation with a TTL."""
    fields: dict[str, Any] = {
        op.ttl_setting: (int, Field(default=op.ttl, ge=0)) for op in table if op.ttl is not None
    }
    return create_model("TTLSettings", __base__=TTLTable, __module__=__name__, **fields)


if TYPE_CHECKING:
    TTLSettings = TTLTable
else:
    TTLSettings = ttl_settings_model(operations.OPERATIONS)


DEFAULT_TIMEOUT_S = 30.0
DEFAULT_HISTORY_DAYS = 90
MAX_TIMEOUT_S = 600.0


@dataclass(frozen=True, repr=False)
class Provenance:
    """Where a ``Settings`` came from, and what :func:`save_settings` compares against."""

    file: Mapping[str, Any]  # the config file's values as loaded ({} when none or ignored)
    env: Mapping[str, Any]  # what CREDITSCOPE_* set, as read (nested for dict/model fields)
    loaded: Mapping[str, Any]  # every value as loaded (see _values)
    baseline: Mapping[str, Any]  # every value as loaded or last saved: changes are from here

    def __repr__(self) -> str:
        # Names only: the file's values may hold the API key in clear.
        return f"Provenance(file={sorted(self.file)}, env={sorted(self.env)})"


def _default_directories() -> tuple[Path, Path]:
    return (Path(platformdirs.user_data_dir("creditscope")),
            Path(platformdirs.user_cache_dir("creditscope")))


def _creatable(directory: Path) -> None:
    """Raise ValueError unless ``directory``'s nearest existing ancestor is a directory
    this user may create entries in (``/dev/null/x``, ``/proc/self/x`` are not)."""
    ancestor = directory.absolute()
    while not ancestor.exists() and ancestor != ancestor.parent:
        if ancestor.is_symlink():  # there, but leading nowhere (dangling, or a loop)
            raise ValueError(f"{directory} cannot be created: {ancestor} is a link that "
                             "leads nowhere")
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"{directory} cannot be created: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"{directory} cannot be created: {ancestor} is not writable")


class Settings(BaseSettings):
    """Everything the user can configure. Build with :func:`load_settings`."""

    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_nested_delimiter="__", extra="ignore", validate_default=True
    )

    base_url: str | None = None  # None = the built-in sandbox
    api_key: SecretStr | None = None
    cache_dir: Path = Field(
        default_factory=lambda: Path(platformdirs.user_cache_dir("creditscope"))
    )
    data_dir: Path = Field(default_factory=lambda: Path(platformdirs.user_data_dir("creditscope")))
    config_file: Path = Field(default_factory=default_config_file)
    offline: bool = False
    budget: int | None = Field(default=None, ge=0)  # session budget in credits
    # Seconds to wait for an answer (CREDITSCOPE_TIMEOUT), as the official SDKs offer.
    timeout: float = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=MAX_TIMEOUT_S, allow_inf_nan=False)
    ttl: TTLSettings = Field(default_factory=TTLSettings)
    # Days the history keeps each call's parameters and label (costs stay for ever).
    history_days: int = Field(default=DEFAULT_HISTORY_DAYS, ge=1, le=36_500)
    theme: str | None = None
    keys: dict[str, str] = Field(default_factory=dict)  # binding id -> key, e.g. "nav.catalog"

    _provenance: Provenance | None = PrivateAttr(default=None)

    @field_validator("base_url")
    @classmethod
    def _blank_is_none(cls, value: str | None) -> str | None:
        url = (value or "").strip() or None
        # No address holds a control character (httpx would refuse it mid-call with a
        # traceback): a usage error naming the setting, the character shown.
        if url is not None and (bad := next((c for c in url if hidden(c)), None)):
            raise ValueError(f"holds the control character {escaped(bad)}: retype the address")
        return url

    @field_validator("data_dir", "cache_dir", mode="before")
    @classmethod
    def _not_blank(cls, value: object) -> object:
        # An empty value would be the current directory, " " a directory named " ".
        if isinstance(value, str) and not value.strip():
            raise ValueError("is empty: give a directory, or unset it for the default")
        return value

    @field_validator("data_dir", "cache_dir")
    @classmethod
    def _usable_directory(cls, value: Path) -> Path:
        # Checked here, so a bad one is a usage error naming it, not a traceback later.
        try:
            return cls._checked_directory(value)
        except OSError as error:  # a name too long, a loop the checks themselves met
            raise ValueError(f"{value} cannot be used: {error.strerror or error}") from None

    @classmethod
    def _checked_directory(cls, value: Path) -> Path:
        if str(value).startswith("~"):
            raise ValueError(f"{value} starts with ~, which is not expanded here: give the "
                             "full path (in a shell, leave the ~ unquoted)")
        if value.exists() and not value.is_dir():
            raise ValueError(f"{value} is not a directory")
        # The platform's default is not refused: with a read-only home the ledger is kept
        # in memory (with a warning) as before; a value the user gave must be usable.
        if not value.exists() and value not in _default_directories():
            _creatable(value)
        return value

    @property
    def is_sandbox(self) -> bool:
        """True when the built-in sandbox is used (the one rule: settings_preview.is_sandbox)."""
        return is_sandbox(self.base_url)

    @property
    def provenance(self) -> Provenance:
        """Where these settings came from; built directly, everything is the caller's."""
        if self._provenance is None:
            defaults = _defaults(self.config_file)
            self._provenance = Provenance(file={}, env={}, loaded=defaults, baseline=defaults)
        return self._provenance

    def using_sandbox(self) -> Settings:
        """These settings switched to the built-in sandbox: no base URL, online, and no API
        key (the sandbox uses its demo key: what is saved is what the next call uses)."""
        return self.model_copy(update={"base_url": None, "offline": False, "api_key": None})

    def env_overrides(self) -> list[str]:
        """The environment variables that will win again, at the next start, over a value
        changed here (e.g. ``CREDITSCOPE_API_KEY`` after the key was replaced)."""
        now, loaded = _values(self), self.provenance.loaded
        return sorted(
            ENV_PREFIX + "__".join(path).upper()
            for path in _paths(self.provenance.env)
            if _at(now, path) != _at(loaded, path)
        )

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Only the arguments: load_settings reads the file and the environment itself,
        # so that it knows which value came from where.
        return (init_settings,)


# --- loading ------------------------------------------------------------------------


@dataclass(frozen=True)
class Sources:
    """The config file's values and the environment's, as pydantic-settings read them."""

    config_file: Path
    file: dict[str, Any]
    env: dict[str, Any]
    warnings: tuple[str, ...] = ()  # about the file (it does not parse)


def read_sources() -> Sources:
    """The config file and the ``CREDITSCOPE_*`` environment, read but not validated.

    Raises :class:`SettingsError` when a dict variable is not JSON (``CREDITSCOPE_KEYS``).
    """
    env = read_env()
    path = Path(env.get("config_file") or default_config_file())
    file, warnings = read_config_file(path)
    return Sources(path, file, env, tuple(warnings))


def read_env(environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The ``CREDITSCOPE_*`` variables of ``environ`` (default: this process's), as
    pydantic-settings reads them: nested by ``__``, dict fields decoded from JSON."""
    source = EnvSettingsSource(Settings)
    if environ is not None:  # names are case-insensitive, as pydantic-settings reads them
        source.env_vars = {name.lower(): value for name, value in environ.items()}
    try:
        return source()
    except SourceError as error:
        raise SettingsError(f"Invalid {ENV_PREFIX}* environment variable: {error}") from None


def read_config_file(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The config file's values ({} when there is none) and a warning if it does not parse."""
    try:
        file = TomlConfigSettingsSource(Settings, toml_file=path)()
    except (OSError, ValueError) as error:  # ValueError: bad TOML or not UTF-8
        return {}, [_ignored(path, str(error))]
    file.pop("config_file", None)  # a file does not move itself
    return file, []


def settings_from_sources(sources: Sources) -> tuple[Settings, list[str]]:
    """Validated ``Settings`` from ``sources`` (env over file over defaults), plus warnings.

    An invalid value in the file: the file is ignored, with a warning. An invalid
    environment variable: :class:`SettingsError`.
    """
    warnings = list(sources.warnings)
    file = sources.file
    try:
        settings = Settings(**_merged(file, sources.env))
    except ValidationError as error:
        if not file:
            raise _env_error(error) from None
        try:
            settings = Settings(**sources.env)
        except ValidationError as env_error:
            raise _env_error(env_error) from None
        warnings.append(_ignored(sources.config_file, _first_error(error)))
        file = {}
    values = _values(settings)
    settings._provenance = Provenance(file=file, env=sources.env, loaded=values, baseline=values)
    return settings, warnings


def load_settings() -> tuple[Settings, list[str]]:
    """Settings from defaults, the config file and the environment, plus warnings."""
    return settings_from_sources(read_sources())


def _merged(file: Mapping[str, Any], env: Mapping[str, Any]) -> dict[str, Any]:
    merged = dict(file)
    for name, value in env.items():
        below = merged.get(name)
        if isinstance(value, Mapping) and isinstance(below, Mapping):
            value = {**below, **value}  # a table is merged entry by entry
        merged[name] = value
    return merged


def _ignored(path: Path, reason: str) -> str:
    return f"Ignoring the config file {path}: {reason}. Using defaults."


def _env_error(error: ValidationError) -> SettingsError:
    return SettingsError(f"Invalid {ENV_PREFIX}* environment variable: {_first_error(error)}")


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


# --- saving -------------------------------------------------------------------------


def save_settings(settings: Settings) -> Path:
    """Write what changed in ``settings`` since they were loaded (or last saved) on top of
    the config file's own values, with mode 0600; return the file's path.

    A value that came from the environment and was not changed is not written. A value
    changed back to none (no budget, no key) is removed from the file. Refuses, with
    :class:`SettingsError`, to write over a file that does not parse or would be invalid
    (it is the user's; loading ignored it). The saved values become the new baseline.
    """
    refuse_in_web_demo("The configuration")
    path = settings.config_file
    now = _values(settings)
    changes = _changes(settings.provenance.baseline, now, _defaults(path))
    file = _apply(read_toml(path), changes)
    try:
        Settings(**file)
    except ValidationError as error:
        raise SettingsError(f"the config file {path} holds an invalid value"
                            f" ({_first_error(error)}); correct it there first") from None
    write_private_toml(path, file)
    settings._provenance = dataclasses.replace(settings.provenance, file=file, baseline=now)
    return path


def _defaults(config_file: Path) -> dict[str, Any]:
    return _values(Settings(config_file=config_file))


def _values(settings: Settings) -> dict[str, Any]:
    """Every value as the file holds it (paths as text; the key stays a SecretStr)."""
    values = settings.model_dump(exclude={"config_file"})
    return {name: str(value) if isinstance(value, Path) else value
            for name, value in values.items()}


def _changes(
    before: Mapping[str, Any], after: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """What differs in ``after``; for a table, only its changed entries. A value changed
    to its default is None: removed from the file, which then says only what was set."""
    changes: dict[str, Any] = {}
    for name, value in after.items():
        old, default = before.get(name), defaults.get(name)
        if isinstance(value, dict) and isinstance(old, dict):
            default_table = default if isinstance(default, dict) else {}
            table = {key: None if item == default_table.get(key) else item
                     for key, item in value.items() if old.get(key) != item}
            table |= {key: None for key in old.keys() - value.keys()}
            if table:
                changes[name] = table
        elif value != old:
            changes[name] = None if value == default else value
    return changes


def _apply(file: dict[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    """The file's values with ``changes`` made; None removes a value or table entry."""
    result = dict(file)
    for name, value in changes.items():
        if isinstance(value, dict):
            below = result.get(name)
            table = dict(below) if isinstance(below, dict) else {}
            for key, item in value.items():
                if item is None:
                    table.pop(key, None)
                else:
                    table[key] = item
            value = table or None
        if value is None:
            result.pop(name, None)
        else:  # the one place the key is taken out of its SecretStr: to be written
            result[name] = value.get_secret_value() if isinstance(value, SecretStr) else value
    return result


def _paths(values: Mapping[str, Any], prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every leaf value in nested ``values``: ``[("ttl", "catalog"), ...]``."""
    paths: list[tuple[str, ...]] = []
    for name, value in values.items():
        if isinstance(value, Mapping):
            paths += _paths(value, (*prefix, name))
        else:
            paths.append((*prefix, name))
    return paths


def _at(values: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    found: Any = values
    for part in path:
        found = found.get(part) if isinstance(found, Mapping) else None
    return found

