"""The ``creditscope`` command. Subcommands live in ``creditscope.commands`` and
are imported only when invoked, so ``creditscope --help`` and the explorer's
first frame do not pay for FastAPI, uvicorn or httpx.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl+C

# name -> "module:attribute" of a click command, loaded on first use.
LAZY_COMMANDS: dict[str, tuple[str, str]] = {
    "tui": ("creditscope.commands.tui", "Open the explorer (the default)."),
    "serve": ("creditscope.commands.serve", "Run the built-in sandbox service over HTTP."),
    "call": ("creditscope.commands.call", "Call one operation and print the result."),
    "batch": ("creditscope.commands.batch", "Run one operation for every row of a file."),
    "credits": ("creditscope.commands.credits", "Show credits spent and saved."),
    "history": ("creditscope.commands.history", "Search past calls; export them as HAR."),
    "import-har": ("creditscope.commands.import_har", "List a HAR file's requests, priced."),
    "cache": ("creditscope.commands.cache", "Inspect or clear the response cache."),
    "check-service": ("creditscope.commands.check_service",
                      "Check the service against the API contract, within a credit budget."),
    "web": ("creditscope.commands.web", "Serve the explorer in a web browser."),
    "demo": ("creditscope.commands.demo", "Play a guided tour of the explorer (sandbox, free)."),
    "doctor": ("creditscope.commands.doctor", "Check settings, storage, terminal and service."),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported when used, not at start-up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [name for name in LAZY_COMMANDS if _module_exists(LAZY_COMMANDS[name][0])]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in LAZY_COMMANDS:
            return None
        module_name, _ = LAZY_COMMANDS[cmd_name]
        if not _module_exists(module_name):
            return None
        module = importlib.import_module(module_name)
        command: click.Command = module.command
        return command

    def invoke(self, ctx: click.Context) -> Any:
        # Ctrl+C while a command starts (its imports, reading its files) is an interrupt,
        # exit 130 as a shell expects, not click's "Aborted!" with exit 1.
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("\nInterrupted (Ctrl+C).", err=True)
            ctx.exit(INTERRUPTED)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help from the table, so --help imports no subcommand module.
        rows = [(name, LAZY_COMMANDS[name][1]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _module_exists(module_name: str) -> bool:
    from importlib.util import find_spec

    return find_spec(module_name) is not None


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        from creditscope.about import version_line

        click.echo(version_line())
        ctx.exit()


@click.group(cls=LazyGroup, invoke_without_command=True)
@click.option(
    "--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
    help="Show the version, and Textual's and Python's, and exit.",
)
@click.pass_context
def main(ctx: click.Context, **_: Any) -> None:
    """creditscope: explore a credit-metered data API without spending a credit twice.

    With no command, opens the explorer (on the built-in sandbox unless a base
    URL is configured).
    """
    if ctx.invoked_subcommand is None:
        tui = LazyGroup.get_command(main, ctx, "tui")
        if tui is None:
            raise click.UsageError("the explorer is not installed in this build")
        ctx.invoke(tui)
