"""How every command loads the settings: warnings on stderr, and an unusable value
(an invalid ``CREDITSCOPE_*`` variable) a usage error, exit status 2, the same for all.

A config file that does not parse or holds an invalid value is not an error: it
is ignored with a warning, as the explorer does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from creditscope.settings import Settings
    from creditscope.settings_preview import SettingsError


def command_settings() -> Settings:
    """The settings (defaults < file < environment); exits 2 on an unusable value."""
    from creditscope.settings import SettingsError, load_settings

    try:
        settings, warnings = load_settings()
    except SettingsError as error:
        raise unusable_settings(error) from None
    echo_warnings(warnings)
    return settings


def unusable_settings(error: SettingsError) -> click.UsageError:
    """The usage error (exit status 2) every command raises for ``error``."""
    return click.UsageError(f"{error}. Correct or unset it, then try again.")


def echo_warnings(warnings: Iterable[str]) -> None:
    """Each warning about the settings on stderr, on its own line."""
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
