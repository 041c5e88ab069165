"""``creditscope tui`` (and plain ``creditscope``): open the explorer."""

from __future__ import annotations

import click

from creditscope.commands.explorer import ExplorerEnding, open_explorer
from creditscope.commands.settings_loading import echo_warnings, unusable_settings


@click.command(name="tui")
@click.pass_context
def command(ctx: click.Context) -> None:
    """Open the explorer (on the built-in sandbox unless a base URL is configured)."""
    # A bare `creditscope` ran the explorer before importing click (creditscope.entry)
    # and hands over only how it ended, so that it is told exactly as here.
    ending = ctx.find_object(ExplorerEnding) or open_explorer()
    echo_warnings(ending.warnings)
    if ending.error is not None:
        raise unusable_settings(ending.error)
