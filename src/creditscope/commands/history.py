"""``creditscope history``: past calls of every session, newest first, searchable;
``--har FILE`` writes them as a HAR file (key masked).

The same history as the explorer's Activity (``client/history.py``): the search
matches every word against the operation, parameters, outcome, status, cache,
label and date; ``--label`` and ``--since`` narrow it. Nothing is sent.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from creditscope.client.history import DEFAULT_PAGE, HistoryEntry, HistoryQuery, params_text
from creditscope.commands.error_output import JsonErrorsCommand
from creditscope.outside_text import json_text, shown

if TYPE_CHECKING:
    from creditscope.client.history import CallHistory


def parse_since(text: str) -> datetime:
    """``2026-11-24`` (local midnight) or an ISO date and time; BadParameter otherwise."""
    try:
        if len(text) == 10:
            return datetime.combine(datetime.strptime(text, "%Y-%m-%d").date(), time()
                                    ).astimezone()
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date: use YYYY-MM-DD or "
                                 "YYYY-MM-DDTHH:MM", param_hint="--since") from None
    return moment if moment.tzinfo else moment.astimezone()


def label_wanted(text: str | None) -> str | None:
    """``--label``: as labels are kept (trimmed); a blank one is refused, not a filter
    that finds nothing."""
    if text is None:
        return None
    from creditscope.client.history import clean_label

    try:
        label = clean_label(text)
    except ValueError as problem:
        raise click.BadParameter(str(problem), param_hint="--label") from None
    if label is None:
        raise click.BadParameter("give the label to list, such as '#4821'",
                                 param_hint="--label")
    return label


def credits_cell(entry: HistoryEntry) -> str:
    """``2 cr``, ``free`` (saved N) or ``0``."""
    if entry.credits_charged:
        return f"{entry.credits_charged} cr"
    return f"free (saved {entry.credits_saved})" if entry.credits_saved else "0"


def history_lines(entries: list[HistoryEntry]) -> list[str]:
    """The entries as text, a divider line wherever the session changes."""
    lines: list[str] = []
    session = None
    for entry in entries:
        if entry.session != session:
            session = entry.session
            # Its time reads at a glance; the id matches the explorer's and the HAR's.
            lines.append(f"── session {session[:8]} · {entry.at.astimezone():%a %d %b %H:%M} ──")
        result = entry.outcome if entry.status is None else f"{entry.outcome} {entry.status}"
        if entry.error_code:
            result += f" {entry.error_code}"
        label = f"[{entry.label}]  " if entry.label else ""
        # Parameters and error codes came from outside: shown, never obeyed by the terminal.
        lines.append(shown(f"{entry.id:>7}  {entry.at.astimezone():%Y-%m-%d %H:%M:%S}  "
                           f"{entry.operation:<35} {result:<29} {credits_cell(entry):<15} "
                           f"{entry.cache:<8}{label}{params_text(entry.params)}".rstrip()))
    return lines


@click.command(cls=JsonErrorsCommand)
@click.option("--search", default="", metavar="TEXT",
              help="Words every listed call matches (operation, a parameter's value, "
                   "ok/error/refused, a status, a date like 2026-11-24).")
@click.option("--label", default=None, metavar="L",
              callback=lambda _ctx, _param, text: label_wanted(text),
              help="Only calls with this ticket label.")
@click.option("--since", default=None, metavar="DATE", help="Only calls from DATE on.")
@click.option("--limit", default=DEFAULT_PAGE, show_default=True, type=click.IntRange(1, 100_000),
              help="At most this many calls, newest first.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--har", "har_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the listed calls to this HAR 1.2 file (key masked).")
def command(search: str, label: str | None, since: str | None, limit: int, as_json: bool,
            har_file: Path | None) -> None:
    """Show past calls of every session, newest first (nothing is sent)."""
    from creditscope.commands.settings_loading import command_settings
    from creditscope.support.har_export import HarExport, har_export
    from creditscope.wiring import build_client, ledger_path, open_ledger

    query = HistoryQuery(search=search, label=label, limit=limit + 1,
                         since=parse_since(since) if since else None)
    settings = command_settings()
    if har_file is not None:
        client = build_client(settings)  # for URLs, prices and cached answers

        async def exported() -> HarExport:
            try:
                found = await client.store.run(_found, client.ledger.history, query, limit)
                return await har_export(client, [(entry, None) for entry in found])
            finally:
                await client.aclose(close_files=True)

        export = asyncio.run(exported())
        _write_har(har_file, export.text())
        click.echo(shown(f"Wrote {export.written} call{'s' if export.written != 1 else ''} to "
                         f"{har_file}" + (f" ({export.not_sent} not sent, left out)"
                                          if export.not_sent else "") + "."), err=True)
        return
    path = ledger_path(settings)
    if not path.exists():
        click.echo("[]" if as_json else shown(f"No calls recorded yet ({path})."))
        return
    ledger = open_ledger(settings)
    for warning in ledger.warnings:
        click.echo(f"warning: {warning}", err=True)
    try:
        ledger.history.prune(settings.history_days)
        entries = _found(ledger.history, query, limit)
    finally:
        ledger.close()
    if as_json:
        click.echo(json_text([entry.as_json() for entry in entries], indent=2))
    elif entries:
        click.echo("\n".join(history_lines(entries)))
    else:
        click.echo("No call matches." if search or label or since else "No calls in the history.")


def _found(history: CallHistory, query: HistoryQuery, limit: int) -> list[HistoryEntry]:
    """At most ``limit`` matches; says on stderr when there are more."""
    entries = history.find(query)
    if len(entries) > limit:
        click.echo(f"(the newest {limit} shown; more match: narrow the search or raise --limit)",
                   err=True)
    return entries[:limit]


def _write_har(path: Path, text: str) -> None:
    from creditscope.private_files import write_private

    try:
        write_private(path, text)
    except OSError as error:
        raise click.FileError(str(path), hint=error.strerror or str(error)) from None
