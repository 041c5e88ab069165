"""``creditscope web``: serve the explorer in a web browser, for demos.

textual-serve runs one explorer process per browser tab and relays the
terminal over a WebSocket. Anyone who reaches the page is treated as a
stranger:

- the printed URL carries a secret token, required for the page, the
  WebSocket and downloads (``--no-token`` only on loopback, for a kiosk);
- loopback by default; any other address needs ``--public`` and prints a
  warning; the Host header must be an allowed name (``--allowed-host``);
- a non-loopback bind with a live API key configured is refused unless
  ``--allow-live-key``; the rule is checked again for every new tab;
- at most ``--max-tabs`` explorers at once, terminals clamped in size, and a
  tab's process ended when its socket closes;
- each tab is a web demo: read-only settings, exports delivered to the
  browser, no files written on the server at the visitor's request;
- ``--demo``: each tab plays the guided tour (``creditscope demo``), refused
  unless the built-in sandbox is configured.

See :mod:`creditscope.commands.web_server` and :mod:`creditscope.commands.web_access`.
"""

from __future__ import annotations

import shlex
import sys
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

# This module is imported only when `web` runs (see cli.LAZY_COMMANDS), so these
# imports cost nothing to the rest of the CLI.
import click

from creditscope.commands import textual_serve_patch
from creditscope.commands.web_access import AccessPolicy, is_loopback, is_wildcard, new_token
from creditscope.commands.web_server import DEFAULT_MAX_TABS, DemoServer, browser_url
from creditscope.sandbox import DEMO_KEY

if TYPE_CHECKING:
    from creditscope.settings import Settings


def explorer_command(*, demo: bool = False) -> str:
    """The command textual-serve runs per browser tab: this Python's ``creditscope tui``,
    or ``creditscope demo`` (the guided tour, looping) with ``demo``."""
    return shlex.join([sys.executable, "-m", "creditscope", "demo" if demo else "tui"])


def has_live_key(settings: Settings) -> bool:
    """True when a real service and an API key are configured (credits cost money).

    The sandbox's demo key is never live, whichever sandbox it is sent to.
    """
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    return not settings.is_sandbox and bool(key) and key != DEMO_KEY


def live_key_now() -> str | None:
    """Checked for each new tab of a public server started without ``--allow-live-key``."""
    from creditscope.settings import SettingsError, load_settings

    try:
        settings, _ = load_settings()
    except SettingsError as exc:
        return f"the settings cannot be loaded ({exc})"
    if has_live_key(settings):
        return ("a live API key is configured now; this public server was started without "
                "--allow-live-key, so it opens no more tabs")
    return None


def build_server(
    host: str,
    port: int,
    command: str | None = None,
    *,
    token: str | None = None,
    allowed_hosts: tuple[str, ...] = (),
    max_tabs: int = DEFAULT_MAX_TABS,
    check_live_key: bool = False,
) -> DemoServer:
    """A :class:`DemoServer` for ``command`` (default: the explorer) on ``host``:``port``."""
    policy = AccessPolicy.for_bind(host, port, allowed_hosts, token=token)
    return DemoServer(
        command or explorer_command(), host=host, port=port, policy=policy, max_tabs=max_tabs,
        refuse_tab=live_key_now if check_live_key else None,
    )


@click.command(name="web")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option(
    "--public",
    is_flag=True,
    help="Allow binding a non-loopback address (anyone with the printed URL can use it).",
)
@click.option(
    "--allow-live-key",
    is_flag=True,
    help="With --public: serve even though a live API key is configured.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Another host name or address browsers may use to reach the page (repeatable).",
)
@click.option(
    "--max-tabs",
    default=DEFAULT_MAX_TABS,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Most browser tabs (explorer processes) running at once.",
)
@click.option(
    "--no-token",
    is_flag=True,
    help="Serve without the URL's secret token (a kiosk; loopback addresses only).",
)
@click.option(
    "--demo",
    is_flag=True,
    help="Each browser tab plays the guided tour (the built-in sandbox only; free).",
)
def command(
    host: str,
    port: int,
    public: bool,
    allow_live_key: bool,
    allowed_hosts: tuple[str, ...],
    max_tabs: int,
    no_token: bool,
    demo: bool,
) -> None:
    """Serve the explorer in a web browser (for demos), on the sandbox unless configured.

    Each browser tab runs its own explorer on this machine, with this machine's
    settings, read-only. Open the printed URL (it carries a secret token).
    Stop with Ctrl+C.
    """
    from creditscope.commands.settings_loading import command_settings

    settings = command_settings()
    if demo:
        from creditscope.tui.tour.sandbox_only import why_not_here

        refusal = why_not_here(settings)
        if refusal is not None:
            click.echo(f"creditscope web --demo: {refusal}", err=True)
            click.get_current_context().exit(2)

    live_key = has_live_key(settings)
    loopback = is_loopback(host)
    if no_token and not loopback:
        raise click.UsageError("--no-token is for a loopback address only (a kiosk).")
    if not loopback:
        if not public:
            raise click.UsageError(
                f"--host {host} is reachable from other machines; add --public to do it anyway."
            )
        if live_key and not allow_live_key:
            raise click.UsageError(
                "a live API key is configured: anyone who reaches the page spends its "
                "credits. Use the sandbox (unset base_url), or add --allow-live-key."
            )
        click.echo(
            f"warning: {host} is reachable from other machines: anyone with the printed URL "
            "can use the explorer"
            + (" and spend the configured key's credits." if live_key else "."),
            err=True,
        )
        if is_wildcard(host) and not allowed_hosts:
            click.echo(
                "warning: only loopback host names are accepted; add --allowed-host NAME for "
                "each name or address visitors type.",
                err=True,
            )
    elif live_key:
        click.echo("note: a live API key is configured; the page spends its credits.", err=True)

    # Only the host name: a base URL may carry user:password.
    service = urlsplit(settings.base_url or "").hostname or "the configured service"
    target = "the built-in sandbox" if settings.is_sandbox else service
    what = "the guided tour" if demo else "the explorer"
    click.echo(
        f"creditscope web: {what} on {target}, one process per browser tab "
        f"(at most {max_tabs}), settings read-only."
    )
    try:
        textual_serve_patch.require()
    except RuntimeError as exc:
        raise click.ClickException(str(exc)) from None
    server = build_server(
        host, port, explorer_command(demo=demo), token=None if no_token else new_token(),
        allowed_hosts=allowed_hosts,
        max_tabs=max_tabs, check_live_key=not loopback and not allow_live_key,
    )
    try:
        server.serve()
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc}") from None


__all__ = ["browser_url", "build_server", "command", "explorer_command", "has_live_key"]
