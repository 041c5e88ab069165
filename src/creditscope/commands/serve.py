"""``creditscope serve``: run the built-in sandbox over real HTTP with uvicorn."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import click

from creditscope.commands import serve_start, uvicorn_patch
from creditscope.commands.bind_address import allowed_host_names, is_loopback, is_wildcard
from creditscope.commands.serve_http import DEFAULT_MAX_CONNECTIONS, HostCheck, uvicorn_limits
from creditscope.commands.serve_keys import (
    KEYS_ENV,
    keys_from_environment,
    keys_from_file,
    refuse_key_option,
)
from creditscope.private_files import write_private
from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import ASGIApp

# How `serve --workers N` hands its configuration to the worker processes it spawns:
# never the keys themselves (a process's environment is readable in /proc by its user
# and inherited by whatever it starts); each worker reads them again from --key-file,
# and those of $CREDITSCOPE_SERVE_KEYS from a private file (the variable is removed).
CONFIG_ENV = "CREDITSCOPE_SERVE_CONFIG"


def default_db_path() -> Path:
    """Where the sandbox keeps balances and provider requests between runs: the data
    directory of the settings (``CREDITSCOPE_DATA_DIR``, the config file's ``data_dir``,
    else the platform's), the same file the explorer's in-process sandbox uses."""
    from creditscope.commands.settings_loading import command_settings
    from creditscope.wiring import sandbox_db_path

    return sandbox_db_path(command_settings())


def chosen_keys(*key_files: Path | None) -> tuple[list[str], list[str]]:
    """(keys, warnings): those of ``$CREDITSCOPE_SERVE_KEYS`` and the ``key_files``, or
    the demo key when there are none."""
    chosen, warnings = keys_from_environment(), list[str]()
    for key_file in key_files:
        if key_file is not None:
            from_file, said = keys_from_file(key_file)
            chosen += from_file
            warnings += said
    return list(dict.fromkeys(chosen)) or [DEMO_KEY], warnings


@contextmanager
def environment_keys_moved_to_a_file() -> Iterator[Path | None]:
    """Take ``$CREDITSCOPE_SERVE_KEYS`` out of the environment the ``--workers``
    processes (and multiprocessing's resource tracker) inherit, where ``/proc`` shows
    it: its keys go to a 0600 file in a private (0700) temporary directory that the
    workers read as they read ``--key-file``, removed when serve ends."""
    keys = keys_from_environment()
    os.environ.pop(KEYS_ENV, None)
    if not keys:
        yield None
        return
    folder = Path(tempfile.mkdtemp(prefix="creditscope-serve-"))
    try:
        yield write_private(folder / "keys", "\n".join(keys) + "\n")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def served_app(app: FastAPI, allowed_hosts: frozenset[str]) -> ASGIApp:
    """The sandbox app behind the ``Host`` check."""
    return HostCheck(app, allowed_hosts)


def app_from_environment() -> ASGIApp:
    """The app of one ``--workers`` process, configured from ``$CREDITSCOPE_SERVE_CONFIG``.

    Every worker opens the same SQLite file; charges are atomic there, so the
    balance stays exact however requests are spread across workers.
    """
    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    config = json.loads(os.environ[CONFIG_ENV])
    key_files = (config.pop("key_file"), config.pop("environment_key_file"))
    keys, _ = chosen_keys(*(Path(name) for name in key_files if name))
    credits = config.pop("credits")
    allowed = frozenset(config.pop("allowed_hosts"))
    return served_app(create_app(SandboxConfig(keys={key: credits for key in keys}, **config)),
                      allowed)


def _rate(_: click.Context, param: click.Parameter, value: float) -> float:
    if not 0.0 <= value <= 1.0:
        raise click.BadParameter("must be between 0 and 1", param=param)
    return value


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="SQLite file for balances and provider requests [default: sandbox.sqlite3 in the"
    " data dir, $CREDITSCOPE_DATA_DIR].",
)
@click.option(
    "--key-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help=f"File of API keys to accept, one per line (or set ${KEYS_ENV}) [default: {DEMO_KEY}]."
    " Only these keys are accepted, whatever earlier runs stored.",
)
@click.option("--key", multiple=True, hidden=True, expose_value=False, callback=refuse_key_option)
@click.option(
    "--credits",
    default=DEFAULT_CREDITS,
    show_default=True,
    type=click.IntRange(0),
    help="Starting balance of each key the database has not seen before.",
)
@click.option(
    "--latency",
    default=0,
    show_default=True,
    type=click.IntRange(0),
    help="Delay every answer by MS milliseconds.",
    metavar="MS",
)
@click.option(
    "--fail-rate",
    default=0.0,
    show_default=True,
    callback=_rate,
    help="Share of requests answered 503 service_unavailable.",
    metavar="P",
)
@click.option(
    "--unavailable-rate",
    default=0.0,
    show_default=True,
    callback=_rate,
    help="Share of company pages returned as momentarily unavailable.",
    metavar="P",
)
@click.option("--seed", default=0, show_default=True, help="Seed of the injected faults.")
@click.option(
    "--max-connections",
    default=DEFAULT_MAX_CONNECTIONS,
    show_default=True,
    type=click.IntRange(1, 10_000),
    help="Connections served at once per worker; more are answered 503.",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Another host name or address clients use to reach the server (repeatable);"
    " requests naming any other host are refused.",
)
@click.option(
    "--forwarded-allow-ips",
    "trusted_proxies",
    default=None,
    metavar="ADDRESSES",
    help="Behind a reverse proxy: its addresses (comma-separated, or '*'), whose"
    " X-Forwarded-For and X-Forwarded-Proto are believed [default: believed from none].",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes sharing the database (balances stay exact across them).",
)
def command(
    host: str,
    port: int,
    db: Path | None,
    key_file: Path | None,
    credits: int,
    latency: int,
    fail_rate: float,
    unavailable_rate: float,
    seed: int,
    max_connections: int,
    allowed_hosts: tuple[str, ...],
    trusted_proxies: str | None,
    workers: int,
) -> None:
    """Run the built-in sandbox service over HTTP (OpenAPI at /openapi.json)."""
    import uvicorn

    from creditscope.sandbox.app import create_app
    from creditscope.sandbox.config import SandboxConfig

    chosen, warnings = chosen_keys(key_file)
    for warning in warnings:
        click.echo(f"warning: {warning}", err=True)
    db_path = db if db is not None else default_db_path()
    config = SandboxConfig(
        db_path=db_path,
        keys={key: credits for key in chosen},
        latency_ms=latency,
        fail_rate=fail_rate,
        unavailable_rate=unavailable_rate,
        seed=seed,
    )
    hosts = allowed_host_names(host, allowed_hosts)
    app = served_app(create_app(config), hosts)
    sock = serve_start.listening_socket(host, port)  # first: a busy port prints no URL
    base = serve_start.client_base(host, sock)
    if not is_loopback(host):
        click.echo(
            f"warning: {host} is reachable from other machines: anyone who has one of the "
            "keys can spend its (sandbox) credits, and anyone can read /catalog.", err=True,
        )
        if is_wildcard(host) and not allowed_hosts:
            click.echo("warning: only loopback host names are answered; add --allowed-host "
                       "NAME for each name or address clients use.", err=True)
    click.echo("\n".join(serve_start.banner(host, base, chosen, db_path)))
    limits = uvicorn_limits(max_connections, trusted_proxies)
    if not uvicorn_patch.applies():
        click.echo(
            f"warning: uvicorn {uvicorn.__version__} is not the version the request deadline "
            f"was checked against ({uvicorn_patch.CHECKED_UVICORN}): slow clients are bounded "
            "only by --max-connections.", err=True,
        )
    if workers == 1:
        with sock:
            serve_start.serve_on(uvicorn.Config(app, log_level="warning", **limits), sock)
        return
    # Several processes need an importable factory; the config travels in the environment.
    with environment_keys_moved_to_a_file() as environment_keys:
        os.environ[CONFIG_ENV] = json.dumps({
            "db_path": str(db_path), "latency_ms": latency, "fail_rate": fail_rate,
            "unavailable_rate": unavailable_rate, "seed": seed, "credits": credits,
            "key_file": str(key_file.resolve()) if key_file is not None else None,
            "environment_key_file": str(environment_keys) if environment_keys else None,
            "allowed_hosts": sorted(hosts),
        })
        click.echo(f"  workers:   {workers}")
        with sock:
            serve_start.serve_on(uvicorn.Config(
                "creditscope.commands.serve:app_from_environment", factory=True,
                workers=workers, log_level="warning", **limits), sock)

