"""The keys one ``creditscope serve`` run accepts, and how they reach it without ``ps``.

A key on the command line is visible to every local user (``ps``,
``/proc/*/cmdline``), so keys come from a file (``--key-file``, one per line)
or from ``$CREDITSCOPE_SERVE_KEYS`` (separated by spaces, commas or newlines),
and are printed masked. The public demo key is the default.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import click

from creditscope.client.curl import mask_key
from creditscope.file_reading import read_text
from creditscope.sandbox import DEMO_KEY

KEYS_ENV = "CREDITSCOPE_SERVE_KEYS"
_SEPARATORS = re.compile(r"[\s,]+")


def keys_from_file(path: Path) -> tuple[list[str], list[str]]:
    """(keys, warnings) from ``path``: one key per line; blank lines and ``#`` comments skipped."""
    try:
        text = read_text(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}", param_hint="--key-file") from None
    keys = [line.strip() for line in text.splitlines()]
    keys = [key for key in keys if key and not key.startswith("#")]
    if not keys:
        raise click.BadParameter(f"{path} holds no key", param_hint="--key-file")
    warnings = []
    if path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        warnings.append(f"{path} is readable by other users; chmod 600 it.")
    return keys, warnings


def keys_from_environment() -> list[str]:
    """The keys in ``$CREDITSCOPE_SERVE_KEYS`` (none when unset)."""
    return [key for key in _SEPARATORS.split(os.environ.get(KEYS_ENV, "")) if key]


def shown_key(key: str) -> str:
    """A key as the banner prints it: masked, except the public demo key."""
    return key if key == DEMO_KEY else mask_key(key)


def refuse_key_option(_: click.Context, __: click.Parameter, value: tuple[str, ...]) -> None:
    """``--key`` is gone: it showed the key to every local user through ``ps``."""
    if value:
        raise click.UsageError(
            "--key puts the key in the process list for every local user to read; put the "
            f"keys in a file (one per line) and pass --key-file FILE, or set ${KEYS_ENV}."
        )
