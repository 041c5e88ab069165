"""``creditscope tui`` (and plain ``creditscope``): open the explorer."""

from __future__ import annotations

import click


@click.command(name="tui")
def command() -> None:
    """Open the explorer (on the built-in sandbox unless a base URL is configured)."""
    from creditscope.settings import SettingsError, load_settings

    try:
        settings, warnings = load_settings()
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    from creditscope.tui.app import CreditscopeApp

    CreditscopeApp(settings).run()
