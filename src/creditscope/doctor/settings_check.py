"""Doctor's settings checks: the config file, where each value came from, the service, the key.

Loads settings the way every command does (:func:`creditscope.settings.read_sources`,
then :func:`creditscope.settings.settings_from_sources`) but keeps going past what
would stop them: a broken file or an invalid environment variable is a finding,
and the remaining checks run on what creditscope would actually use.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from creditscope.client.curl import mask_key
from creditscope.doctor.report import Finding
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY
from creditscope.settings import (
    ENV_PREFIX,
    Settings,
    SettingsError,
    Sources,
    default_config_file,
    read_config_file,
    read_env,
    settings_from_sources,
)
from creditscope.shown_url import shown_url

Source = Literal["env", "file", "default"]

FIX_KEY_IN_SETTINGS = (
    f"Set it in the explorer's Settings (key 6) or in {ENV_PREFIX}API_KEY."
)
FIX_BASE_URL = (
    f"Set base_url to the service's https:// address (Settings, key 6, or {ENV_PREFIX}BASE_URL),"
    " or remove it to use the built-in sandbox."
)


@dataclass
class SettingsDiagnosis:
    """The settings the other checks use, what was found about them, and each value's source."""

    settings: Settings
    findings: list[Finding] = field(default_factory=list)
    sources: dict[str, Source] = field(default_factory=dict)


def diagnose_settings() -> SettingsDiagnosis:
    """Config file, settings sources, service and API key, as findings."""
    path = default_config_file()
    file_data, parse_warnings = read_config_file(path)
    env, env_problems = _usable_env(path, file_data)
    try:
        settings, warnings = settings_from_sources(
            Sources(path, file_data, env, tuple(parse_warnings)))
    except SettingsError as error:  # valid one by one, invalid together (rare): drop them all
        env_problems.append(str(error))
        settings, warnings = settings_from_sources(
            Sources(path, file_data, {}, tuple(parse_warnings)))
    file_ignored = [w for w in warnings if w not in parse_warnings]
    sources = _sources(settings.provenance.file, settings.provenance.env)
    findings = [
        _config_file_finding(path, file_data, parse_warnings, file_ignored),
        _sources_finding(sources, env_problems),
        _service_finding(settings),
        _key_finding(settings, sources.get("api_key", "default")),
    ]
    return SettingsDiagnosis(settings, findings, sources)


def _usable_env(path: Path, file_data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The ``CREDITSCOPE_*`` values every command would accept, and why any other was left out.

    Every command stops at an invalid variable; doctor names it and checks the rest
    with the others, so the directories and service it looks at are still the user's.
    """
    ours = {name: value for name, value in os.environ.items()
            if name.upper().startswith(ENV_PREFIX)}
    problems: list[str] = []
    for name in sorted(ours):
        try:
            alone = read_env({name: ours[name]})
            settings_from_sources(Sources(path, file_data, alone))
        except SettingsError as error:
            # "Invalid CREDITSCOPE_* environment variable: budget: REASON" -> REASON
            message = str(error).removeprefix(f"Invalid {ENV_PREFIX}* environment variable: ")
            reason = message.partition(": ")[2] or message
            problems.append(f"{name} is invalid: {reason}")
            del ours[name]
    return read_env(ours), problems


def _sources(file_data: Mapping[str, Any], env: Mapping[str, Any]) -> dict[str, Source]:
    """``{"api_key": "env", "theme": "file", ...}`` for every value not left at its default."""
    found: dict[str, Source] = {}
    for name in Settings.model_fields:
        if name in env:
            found[name] = "env"
        elif name in file_data:
            found[name] = "file"
    return found


def _config_file_finding(
    path: Path, data: dict[str, Any], parse_warnings: list[str], ignored: list[str]
) -> Finding:
    details: dict[str, Any] = {"path": path, "exists": path.exists()}
    if not path.exists():
        return Finding("config file", "ok", f"{path}: none yet (defaults and environment)",
                       details=details)
    if path.is_dir():
        return Finding("config file", "problem", f"{path} is a directory, not a file",
                       fix=f"Move the directory away; creditscope writes its settings to {path}.",
                       details=details)
    mode = stat.S_IMODE(path.stat().st_mode)
    holds_key = "api_key" in data
    details.update(mode=f"{mode:04o}", parses=not parse_warnings, valid=not ignored,
                   holds_api_key=holds_key, sets=sorted(data),
                   unknown_keys=sorted(set(data) - set(Settings.model_fields)))
    where = f"{path} (mode {mode:04o})"
    if parse_warnings:
        return Finding("config file", "problem",
                       f"{where} does not parse: {_reason(parse_warnings)}",
                       fix=f"Correct it, or move it away to start from defaults: {path}",
                       details=details)
    if ignored:
        return Finding("config file", "problem",
                       f"{where} has an invalid value, so all of it is ignored: {_reason(ignored)}",
                       fix=f"Correct that value in {path}, or set it again in Settings (key 6).",
                       details=details)
    if holds_key and mode & 0o077:
        return Finding("config file", "problem",
                       f"{where} holds the API key and other users can read it",
                       fix=f"chmod 600 {path}", details=details)
    unknown = details["unknown_keys"]
    if unknown:
        return Finding("config file", "note",
                       f"{where} parses; unknown names ignored: {', '.join(unknown)}",
                       fix="Check their spelling against the README's configuration table.",
                       details=details)
    return Finding("config file", "ok", f"{where} parses", details=details)


def _reason(warnings: list[str]) -> str:
    # "Ignoring the config file PATH: REASON. Using defaults." -> "REASON"
    text = warnings[0]
    _, _, reason = text.partition(": ")
    return reason.removesuffix(" Using defaults.").rstrip(".") or text


def _sources_finding(sources: dict[str, Source], env_problems: list[str]) -> Finding:
    by_source = {
        where: sorted(name for name, source in sources.items() if source == where)
        for where in ("env", "file")
    }
    summary = " · ".join(
        f"{where}: {', '.join(by_source[where]) or 'nothing'}" for where in ("env", "file")
    ) + " · the rest default"
    details = {"from_env": by_source["env"], "from_file": by_source["file"]}
    if env_problems:
        details["invalid_env"] = env_problems
        return Finding("settings", "problem",
                       f"{env_problems[0]} (every command stops on it; left out here)",
                       fix=f"Correct or unset {env_problems[0].split(' ', 1)[0]}.",
                       details=details)
    return Finding("settings", "ok", summary, details=details)


def _service_finding(settings: Settings) -> Finding:
    if settings.is_sandbox:
        return Finding("service", "ok", "the built-in sandbox (in-process, no network)",
                       details={"sandbox": True, "offline": settings.offline})
    raw = (settings.base_url or "").strip()
    parts = urlsplit(raw)
    shown = shown_url(raw)
    details: dict[str, Any] = {"sandbox": False, "base_url": shown, "offline": settings.offline}
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return Finding("service", "problem", f"base URL {shown!r} is not an http(s):// address",
                       fix=FIX_BASE_URL, details=details)
    notes = []
    if parts.username or parts.password:
        notes.append("it carries a user name or password (not shown)")
    if parts.scheme == "http" and parts.hostname not in ("localhost", "127.0.0.1", "::1"):
        notes.append("plain http: the API key travels unencrypted")
    if settings.offline:
        notes.append("offline mode is on: only cached answers are shown")
    summary = shown + (f" ({'; '.join(notes)})" if notes else "")
    return Finding("service", "note" if notes else "ok", summary, details=details)


def _key_finding(settings: Settings, source: Source) -> Finding:
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    origin = {"env": f"from {ENV_PREFIX}API_KEY", "file": "from the config file",
              "default": "not set"}[source]
    details = {"masked": mask_key(key) or None, "source": source}
    if settings.is_sandbox:
        if key in ("", DEMO_KEY):
            return Finding("API key", "ok", f"{mask_key(DEMO_KEY)}, the sandbox's demo key",
                           details=details)
        if key == REVOKED_KEY:
            return Finding("API key", "note",
                           f"{mask_key(key)} {origin}: the sandbox's revoked key, so every paid"
                           " call is refused (the invalid-key demo)", details=details)
        return Finding("API key", "note",
                       f"{mask_key(key)} {origin}; the sandbox uses its demo key instead (a real"
                       " key is never sent to it)", details=details)
    if not key:
        return Finding("API key", "problem", "none: every paid call will be refused",
                       fix=FIX_KEY_IN_SETTINGS, details=details)
    if key != key.strip():
        return Finding("API key", "problem",
                       f"{mask_key(key.strip())} {origin} has spaces or a line break around it",
                       fix="Set it again without the surrounding whitespace. "
                       + FIX_KEY_IN_SETTINGS, details=details)
    # Not checked against the service: only paid calls check a key.
    return Finding("API key", "ok", f"{mask_key(key)} {origin} (not checked: that costs credits)",
                   details=details)
