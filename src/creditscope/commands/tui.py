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
    # Only the settings preview (no pydantic) before the first frame; the app loads
    # the settings right after it, and exits with the error if one is unusable.
    from creditscope.commands.settings_loading import echo_warnings, unusable_settings
    from creditscope.settings_preview import read_settings_preview
    from creditscope.tui.app import CreditscopeApp

    app = CreditscopeApp(read_settings_preview(), client_factory=explorer_client)
    app.run()
    echo_warnings(app.settings_warnings)  # the app showed them too; they outlive its screen
    if app.settings_error is not None:
        raise unusable_settings(app.settings_error)


def explorer_client(settings: Settings) -> DataClient:
    """The explorer's client, built in its worker thread after the first frame: importing
    the wiring pulls in httpx, pydantic and (for the sandbox) FastAPI, all slow."""
    from creditscope.wiring import build_client, explorer_transport

    return build_client(settings, transport=explorer_transport(settings))
