"""``creditscope tui`` (and plain ``creditscope``): open the explorer."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from creditscope.client.client import DataClient
    from creditscope.settings import Settings


@click.command(name="tui")
def command() -> None:
    """Open the explorer (on the built-in sandbox unless a base URL is configured)."""
    # Step one of loading settings only (file + env, no pydantic): the first frame
    # needs just a few of them. The app validates the rest right after that frame,
    # and exits with the error if the environment holds an invalid value.
    from creditscope.settings_layers import SettingsError, read_settings_layers

    try:
        layers = read_settings_layers()
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    for warning in layers.warnings:
        click.echo(f"warning: {warning}", err=True)
    from creditscope.tui.app import CreditscopeApp

    app = CreditscopeApp(layers, client_factory=_build_client)
    app.run()
    # Found while validating, after the first frame (the app showed the warnings too).
    for warning in app.settings_warnings[len(layers.warnings):]:
        click.echo(f"warning: {warning}", err=True)
    if app.settings_error is not None:
        raise click.ClickException(str(app.settings_error))


def _build_client(settings: Settings) -> DataClient:
    """The explorer's client, built in its worker thread after the first frame: importing
    the wiring pulls in httpx, pydantic and (for the sandbox) FastAPI, all slow."""
    from creditscope.wiring import build_client

    return build_client(settings)
