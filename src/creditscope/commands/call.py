"""``creditscope call OPERATION [--PARAM VALUE ...]``: one request, its result and its cost.

A table on a terminal, JSON with ``--json`` or when piped; one summary line on
stderr ("2 credits · cache miss · 38 ms · 9 998 left"). ``--dry-run`` shows the
request (key masked) and its price without sending it.
Exit codes: 0 ok, 2 usage or validation, 3 API error, 4 transport error or not
cached while offline.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Any

import click
from pydantic import BaseModel

from creditscope import operations
from creditscope.commands.error_output import CommandProblem, JsonErrorsCommand
from creditscope.commands.remedies import EXIT_INTERRUPTED, EXIT_USAGE
from creditscope.outside_text import json_text, shown
from creditscope.wording import possibly_charged

if TYPE_CHECKING:  # imported where used: `creditscope --help` stays fast
    from creditscope.client.client import DataClient
    from creditscope.client.records import CallRecord, Result

MAX_COLUMNS = 8


def parse_params(args: list[str]) -> dict[str, str]:
    """``["--location", "Lisbon", "--limit=5"]`` -> ``{"location": "Lisbon", "limit": "5"}``."""
    params: dict[str, str] = {}
    index = 0
    while index < len(args):
        token = args[index]
        if not token.startswith("--") or token == "--":
            raise click.UsageError(f"expected --PARAM VALUE, got {token!r}")
        name, has_value, value = token[2:].partition("=")
        if not has_value:
            if index + 1 >= len(args):
                raise click.UsageError(f"--{name} needs a value")
            index += 1
            value = args[index]
        if not name:
            raise click.UsageError(f"expected --PARAM VALUE, got {token!r}")
        params[name.replace("-", "_")] = value
        index += 1
    return params


def thousands(value: int) -> str:
    """``9998`` -> ``9 998``."""
    return f"{value:,}".replace(",", " ")


def summary_line(record: CallRecord, remaining: int | None) -> str:
    """The stderr line: credits, cache status, latency, balance."""
    credits = record.credits_charged
    parts = [f"{credits} credit{'s' if credits != 1 else ''}"]
    if record.credits_saved:
        parts[0] += f" (saved {record.credits_saved})"
    parts.append(f"cache {record.cache}")
    parts.append(f"{record.latency_ms:.0f} ms")
    if remaining is not None:
        parts.append(f"{thousands(remaining)} left")
    return " · ".join(parts)


def render_table(data: BaseModel) -> str:
    """A readable plain-text view: the top-level scalars, then the main list as a table."""
    payload = data.model_dump(mode="json")
    lines: list[str] = []
    rows: list[dict[str, Any]] | None = None
    for raw_key, value in payload.items():
        key = shown(raw_key)  # unknown fields are kept: their names are the service's too
        is_rows = isinstance(value, list) and value and all(isinstance(v, dict) for v in value)
        if is_rows and rows is None:
            rows = [_flatten(v) for v in value]
            continue
        if isinstance(value, dict):
            for sub, inner in _flatten(value).items():
                lines.append(f"{key}.{sub}: {_cell(inner)}")
        else:
            lines.append(f"{key}: {_cell(value)}")
    if rows:
        first = rows[0]
        # Links and nested lists make a terminal table unreadable; --json has them.
        columns = [
            c for c in first
            if not isinstance(first[c], list | dict)
            and not (isinstance(first[c], str) and first[c].startswith(("http://", "https://")))
        ][:MAX_COLUMNS]
        table = [columns] + [[_cell(row.get(c)) for c in columns] for row in rows]
        widths = [max(len(r[i]) for r in table) for i in range(len(columns))]
        lines.append("")
        for number, row in enumerate(table):
            lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
            if number == 0:
                lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _flatten(value: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """One level of nesting as ``outer.inner`` keys, each shown: a key is the service's
    text as much as a value (``hours`` is keyed by whatever the service sends)."""
    flat: dict[str, Any] = {}
    for key, inner in value.items():
        if isinstance(inner, dict) and not prefix:
            flat.update(_flatten(inner, f"{shown(key)}."))
        else:
            flat[prefix + shown(key)] = inner
    return flat


def _cell(value: Any, width: int = 40) -> str:
    if value is None:
        return "-"
    # The service's text, shown: an escape sequence in a name is printed, never obeyed.
    text = shown(", ".join(map(str, value)) if isinstance(value, list) else str(value))
    return text if len(text) <= width else text[: width - 1] + "…"


HELP = (
    "Call one OPERATION and print the result and its cost.\n\n"
    "Parameters are given as --NAME VALUE, e.g.\n\n"
    "\b\n"
    "  creditscope call restaurants/search --location Lisbon --cuisine thai\n"
    "  creditscope call professional_network/find_company --name Northwind --dry-run\n"
    "  creditscope call --from-curl 'curl …' --dry-run   (a pasted request; '-' reads stdin)\n\n"
    "\b\nOperations (credits):\n"
    + "\n".join(f"  {op.name:<36}{op.credits:>3}  {op.title}" for op in operations.OPERATIONS)
    + "\n\nA table on a terminal, JSON with --json or when piped, and one summary line on "
    "stderr. Exit codes: 0 ok, 2 usage or validation (nothing sent), 3 API error, "
    "4 transport error or not cached while offline."
)


@click.command(
    cls=JsonErrorsCommand,
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
    help=HELP,
)
@click.argument("operation", required=False)
@click.option("--from-curl", "from_curl", metavar="'curl …'|-",
              help="Import a pasted curl command, URL or JSON body ('-' reads stdin).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON even on a terminal.")
@click.option("--refresh", is_flag=True, help="Bypass the cache (costs credits).")
@click.option("--offline", is_flag=True, help="Answer from the cache only; send nothing.")
@click.option("--dry-run", is_flag=True, help="Show the request and its price; send nothing.")
@click.option("--label", metavar="TICKET",
              help="A ticket label kept with the call in the history (e.g. '#4821').")
@click.option("--allow-unknown-place", is_flag=True,
              help="Send a location the built-in place list does not know (a live service"
                   " may know it; the sandbox finds nothing, and charges).")
@click.pass_context
def command(
    ctx: click.Context, operation: str | None, from_curl: str | None, as_json: bool,
    refresh: bool, offline: bool, dry_run: bool, label: str | None, allow_unknown_place: bool,
) -> None:
    """Call one operation and print the result."""
    from creditscope.client.history import clean_label
    from creditscope.commands.settings_loading import command_settings
    from creditscope.name_characters import fold_notes
    from creditscope.wiring import build_client

    if from_curl is not None and operation is not None:
        operation = _param_value_back(ctx, operation)
    if (operation is None) == (from_curl is None):
        raise click.UsageError("give an OPERATION, or --from-curl with a pasted request")
    try:
        op_name = operations.get(operation).name if operation else ""
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    params: dict[str, Any] = parse_params(list(ctx.args))
    settings = command_settings()
    if offline:
        settings = settings.model_copy(update={"offline": True})
    try:
        ticket = clean_label(label)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--label") from None
    client = build_client(settings)
    client.ledger.label = ticket
    for warning in client.storage_warnings:  # a damaged cache or ledger was set aside
        click.echo(f"warning: {warning}", err=True)
    try:
        if from_curl is not None:
            from creditscope.commands.call_import import imported_call

            op_name, params = imported_call(from_curl, client, params)
        for note in fold_notes(params):  # sent folded: say so, as it is not what was typed
            click.echo(f"note: {shown(note)}", err=True)
        refusal = None if allow_unknown_place else _place_refusal(client, op_name, params)
        if refusal is not None:
            raise CommandProblem("unknown_place", refusal, "Correct the location, or add "
                                 "--allow-unknown-place to send it anyway.", EXIT_USAGE,
                                 says_step=True)
        if dry_run:
            _print_plan(client, op_name, params)
            return
        try:
            result = asyncio.run(_call(client, op_name, params, refresh))
        except (KeyboardInterrupt, asyncio.CancelledError):  # click: "Aborted!", exit 1
            click.echo(err=True)  # past the terminal's echoed ^C
            raise CommandProblem(
                "interrupted", "Stopped (Ctrl+C) before the answer came back.",
                _interrupted_step(client), EXIT_INTERRUPTED) from None
        remaining = result.record.remaining
        if remaining is None:  # answered from the cache: the account's last balance on file
            remaining = client.store.call(client.ledger.lifetime_totals,
                                          client.account).remaining
    finally:  # a client error goes on to JsonErrorsCommand, which words it
        client.close_files()
    if as_json or not sys.stdout.isatty():
        click.echo(json_text(result.data.model_dump(mode="json"), indent=2))
    else:
        click.echo(render_table(result.data))
    click.echo(summary_line(result.record, remaining), err=True)
    if result.record.note:  # e.g. rows past the limit were dropped
        click.echo(f"note: {result.record.note}", err=True)


def _interrupted_step(client: DataClient) -> str:
    """What an interrupted call may have cost, and where that is settled."""
    lost = client.ledger.session.uncertain
    if not lost:
        return "Nothing was charged: the request had not left."
    return (f"The request had left: {possibly_charged(lost)}. `creditscope credits` shows it"
            " until the service's next balance settles it.")


def _place_refusal(client: DataClient, operation: str, params: dict[str, Any]) -> str | None:
    """Why a search for an unknown place is not sent, checked on valid params only (an
    invalid request is refused, and recorded, by the client as usual)."""
    from creditscope.client.errors import InvalidRequest
    from creditscope.place_check import place_refusal

    try:
        clean = client.validate(operation, params)
    except InvalidRequest:
        return None
    return place_refusal(operation, clean)


def _param_value_back(ctx: click.Context, operation: str) -> str | None:
    """With --from-curl there is no OPERATION: the first bare word click took for one is
    the value of a ``--PARAM`` (``--limit 3``), put back in its place."""
    if operation.startswith("--"):  # click takes an unknown first option for the argument
        ctx.args.insert(0, operation)
        return None
    for index, token in enumerate(ctx.args):
        if token.startswith("--") and "=" not in token and (
            index + 1 == len(ctx.args) or ctx.args[index + 1].startswith("--")
        ):
            ctx.args.insert(index + 1, operation)
            return None
    return operation


async def _call(
    client: DataClient, operation: str, params: dict[str, Any], refresh: bool
) -> Result[Any]:
    from creditscope.commands.interrupts import two_step_interrupt

    def wait_for_answer() -> None:
        click.echo("\nWaiting for the answer already on its way: the request may be charged,"
                   " so its answer is kept (Ctrl+C again stops now).", err=True)

    with two_step_interrupt(wait_for_answer, client.abandon):
        async with client:
            return await client.call(operation, params, refresh=refresh)


def _print_plan(client: DataClient, operation: str, params: dict[str, Any]) -> None:
    plan = client.plan(operation, params)
    click.echo(f"{plan.method} {shown(plan.url)}")
    for name, value in plan.headers.items():
        click.echo(f"{shown(name)}: {shown(value)}")
    if plan.body is not None:
        click.echo("")
        click.echo(json_text(plan.body))
    click.echo(f"\n{plan.words.sentence()}")
    click.echo("dry run: nothing was sent", err=True)
