"""User settings: defaults < TOML config file < ``CREDITSCOPE_*`` environment variables.

``load_settings`` is the way in: it reads the config file (from
``CREDITSCOPE_CONFIG_FILE`` or the user config dir) and falls back to defaults
with a warning when the file is broken. ``save_settings`` writes the file with
mode 0600; it is the only place the API key is ever written.

Loading has two steps: :mod:`creditscope.settings_layers` reads the file and the
environment without pydantic (the explorer's first frame reads its few settings
from there), and :func:`validate_layers` validates them into ``Settings``.
``load_settings`` runs both.
"""

from __future__ import annotations

import json
import os
import typing
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import platformdirs
from pydantic import BaseModel, Field, SecretStr, ValidationError
from pydantic_settings import (
    BaseSettings,
    InitSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from creditscope import operations
from creditscope.private_files import private_directory
from creditscope.settings_layers import (
    COMPLEX_FIELDS,
    CONFIG_FILE_ENV,
    ENV_PREFIX,
    SettingsError,
    SettingsLayers,
    default_config_file,
    read_config_file,
    read_env,
    read_settings_layers,
)
from creditscope.web_demo import refuse_in_web_demo

__all__ = [
    "CONFIG_FILE_ENV", "ENV_PREFIX", "Settings", "SettingsError", "SettingsLayers", "TTLSettings",
    "default_config_file", "load_settings", "read_config_file", "save_settings",
    "settings_toml", "validate_layers",
]

# The merged layers (file + env) of the settings being built by ``validate_layers``
# (None otherwise: ``Settings(...)`` built directly reads the environment alone).
_layers: ContextVar[dict[str, Any] | None] = ContextVar("creditscope_settings_layers", default=None)


def _default_ttl(operation: str) -> int:
    ttl = operations.get(operation).ttl
    assert ttl is not None
    return ttl


class TTLSettings(BaseModel):
    """Cache lifetime in seconds per operation; field names are ``Operation.ttl_setting``."""

    ticketing_discovery: int = Field(default=_default_ttl("ticketing/discovery"), ge=0)
    professional_network_find_company: int = Field(
        default=_default_ttl("professional_network/find_company"), ge=0
    )
    restaurants_search: int = Field(default=_default_ttl("restaurants/search"), ge=0)
    restaurants_details: int = Field(default=_default_ttl("restaurants/details"), ge=0)
    restaurants_menu: int = Field(default=_default_ttl("restaurants/menu"), ge=0)
    restaurants_reviews: int = Field(default=_default_ttl("restaurants/reviews"), ge=0)
    catalog: int = Field(default=_default_ttl("catalog"), ge=0)

    def by_operation(self) -> dict[str, int]:
        """``{"restaurants/search": 3600, ...}`` for ``DataClient(ttls=...)``."""
        return {
            op.name: getattr(self, op.ttl_setting)
            for op in operations.OPERATIONS
            if op.ttl is not None
        }


DEFAULT_TIMEOUT_S = 30.0
MAX_TIMEOUT_S = 600.0


class Settings(BaseSettings):
    """Everything the user can configure. Build with ``load_settings()``."""

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
    theme: str | None = None
    keys: dict[str, str] = Field(default_factory=dict)  # binding id -> key, e.g. "nav.catalog"

    @property
    def is_sandbox(self) -> bool:
        """True when no base URL is configured: the built-in sandbox is used."""
        return not (self.base_url and self.base_url.strip())

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Explicit arguments win, then the layers merged by settings_layers (env over file):
        # one merge, shared with the explorer's first frame.
        layers = _layers.get()
        if layers is None:
            layers = read_env()
        return (init_settings, InitSettingsSource(settings_cls, init_kwargs=dict(layers)))


def _complex_fields() -> frozenset[str]:
    """Settings' dict and model fields: the ones settings_layers JSON-decodes and nests."""
    return frozenset(
        name for name, info in Settings.model_fields.items()
        if typing.get_origin(info.annotation) is dict
        or (isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel))
    )


# settings_layers reads the environment without the model; keep it in step with it.
if _complex_fields() != COMPLEX_FIELDS:  # pragma: no cover - a developer error
    raise RuntimeError(f"settings_layers.COMPLEX_FIELDS must be {sorted(_complex_fields())}")


def validate_layers(layers: SettingsLayers) -> tuple[Settings, list[str]]:
    """Step two of loading: ``Settings`` from the merged layers, plus warnings.

    A file with an invalid value is ignored as a whole, with a warning; an invalid
    environment variable raises :class:`SettingsError`.
    """
    warnings = list(layers.warnings)
    token = _layers.set(layers.merged())
    try:
        try:
            return Settings(), warnings
        except ValidationError as exc:
            if not layers.file:
                raise
            warnings.append(
                f"Ignoring the config file {layers.path}: {_first_error(exc)}. Using defaults."
            )
        _layers.set(layers.merged(with_file=False))
        return Settings(), warnings
    except ValidationError as exc:
        message = f"Invalid {ENV_PREFIX}* environment variable: {_first_error(exc)}"
        raise SettingsError(message) from None
    finally:
        _layers.reset(token)


def load_settings() -> tuple[Settings, list[str]]:
    """Settings from defaults, the config file and the environment, plus warnings."""
    return validate_layers(read_settings_layers())


def _first_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def save_settings(settings: Settings, path: Path | None = None) -> Path:
    """Write ``settings`` as TOML with mode 0600 (the only file that may hold the key)."""
    target = path or settings.config_file
    refuse_in_web_demo("The configuration")
    private_directory(target.parent)
    text = settings_toml(settings)
    temporary = target.with_name(target.name + ".tmp")
    # Created 0600 from the first byte, so the key is never readable by others.
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, target)
    os.chmod(target, 0o600)
    return target


def settings_toml(settings: Settings) -> str:
    """The TOML text of ``settings``: set values only, defaults left out."""
    defaults = Settings()
    lines = ["# creditscope settings (written by creditscope; mode 0600)"]
    if settings.base_url:
        lines.append(f"base_url = {_toml_string(settings.base_url)}")
    if settings.api_key is not None and settings.api_key.get_secret_value():
        lines.append(f"api_key = {_toml_string(settings.api_key.get_secret_value())}")
    if settings.cache_dir != defaults.cache_dir:
        lines.append(f"cache_dir = {_toml_string(str(settings.cache_dir))}")
    if settings.data_dir != defaults.data_dir:
        lines.append(f"data_dir = {_toml_string(str(settings.data_dir))}")
    if settings.offline:
        lines.append("offline = true")
    if settings.budget is not None:
        lines.append(f"budget = {settings.budget}")
    if settings.timeout != DEFAULT_TIMEOUT_S:
        lines.append(f"timeout = {settings.timeout:g}")
    if settings.theme:
        lines.append(f"theme = {_toml_string(settings.theme)}")
    ttl_defaults = TTLSettings()
    changed = {
        name: value
        for name, value in settings.ttl.model_dump().items()
        if value != getattr(ttl_defaults, name)
    }
    if changed:
        lines += ["", "[ttl]"] + [f"{name} = {value}" for name, value in changed.items()]
    if settings.keys:
        lines += ["", "[keys]"] + [
            f"{_toml_string(binding)} = {_toml_string(key)}"
            for binding, key in sorted(settings.keys.items())
        ]
    return "\n".join(lines) + "\n"


def _toml_string(value: str) -> str:
    # JSON string escapes (\", \\, \n, \uXXXX) are valid TOML basic-string escapes.
    return json.dumps(value, ensure_ascii=False)
