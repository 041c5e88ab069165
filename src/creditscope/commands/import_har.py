"""``creditscope import-har FILE``: the requests a customer's HAR file made to the
service, each with its price and what it would return now. Nothing is sent.

Each listed request comes with the ``creditscope call`` command that runs it
(cached: free), so the desk chooses what to spend on, and with every note
``--json`` gives it (a note all requests share is said once, above them). Other
hosts' entries are counted and skipped, or, on the built-in sandbox, replayed
there when they are the customer's service (``support/har_import.py``).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from creditscope.commands.error_output import CommandProblem, JsonErrorsCommand
from creditscope.outside_text import SHOWN_VALUE_LIMIT, json_text, shown, shown_value

if TYPE_CHECKING:
    from creditscope.support.har_import import HarReading, PricedRequest

SAVE_A_HAR = ("Pass the path of a HAR file: a browser saves one from its developer tools "
              "(Network tab, right-click a request, Save all as HAR).")


def call_command(item: PricedRequest) -> str:
    """``creditscope call restaurants/search --location Lisbon``; ``""`` when not sendable."""
    imported = item.request.imported
    if imported is None or imported.problem is not None:
        return ""
    words = ["creditscope", "call", imported.operation]
    for name, value in imported.params.items():
        text = value if isinstance(value, str) else json.dumps(value)
        # A value read as an option ("--help", "-5") joins its name: "--location=--help".
        words += [f"--{name}={text}"] if text.startswith("-") else [f"--{name}", text]
    return shlex.join(words)


def shared_notes(items: list[PricedRequest]) -> list[str]:
    """The notes every recognised request has, when there are several (said once)."""
    notes = [list(item.request.imported.notes) for item in items if item.request.imported]
    if len(notes) < 2:
        return []
    return [note for note in notes[0] if all(note in others for others in notes[1:])]


def listing_lines(items: list[PricedRequest], said: list[str] | None = None) -> list[str]:
    """One line per request: its entry number, what the browser got, the operation,
    the parameters, and what sending it now would do; its notes (but those ``said``
    already); then how to run it."""
    lines: list[str] = []
    for item in items:
        request = item.request
        seen = "—" if request.status_seen is None else str(request.status_seen)
        imported = request.imported
        # The HAR's text, shown: an escape sequence in a URL is printed, never obeyed, and
        # a value of a million characters is cut (``--json`` keeps it whole).
        what = (f"{imported.operation} " + " ".join(f"{shown_value(k)}={shown_value(str(v))}"
                                                    for k, v in imported.params.items())
                if imported else f"{shown_value(request.method)} {shown_value(request.path)}")
        # shown() again over the whole line: what is shown already is plain, so only a
        # field a HAR controls and nobody escaped (a method, a status) is changed.
        lines.append(shown(f"#{request.number:<5} seen {seen:<4} {what.strip()}"))
        lines.append(f"       now: {shown_value(item.now, 4 * SHOWN_VALUE_LIMIT)}")
        lines += [f"      note: {shown(note)}" for note in (imported.notes if imported else ())
                  if note not in (said or ())]
        if command := call_command(item):  # valid, so its values are of bounded length
            lines.append(f"       run: {shown(command)}")
    return lines


def listing_json(path: Path, service: str, reading: HarReading, items: list[PricedRequest],
                 total: int) -> dict[str, Any]:
    """The listing as ``--json`` prints it."""
    def one(item: PricedRequest) -> dict[str, Any]:
        request, imported = item.request, item.request.imported
        return {"entry": request.number, "started": request.started, "method": request.method,
                "path": request.path, "status_seen": request.status_seen,
                "operation": imported.operation if imported else None,
                "params": imported.params if imported else None,
                "notes": list(imported.notes) if imported else [],
                "problem": request.problem or (
                    imported.problem.message if imported and imported.problem else None),
                "price": item.price, "cost_now": item.cost, "now": item.now,
                "call": call_command(item) or None}

    return {"file": str(path), "service": service, "requests": [one(i) for i in items],
            "other_hosts": dict(reading.other_hosts.most_common()),
            "unreadable": reading.unreadable, "preflights": reading.preflights,
            "cost_to_fetch": total}


@click.command(cls=JsonErrorsCommand)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def command(file: Path, as_json: bool) -> None:
    """List FILE's requests to the configured service, priced; sends nothing."""
    from creditscope.commands.settings_loading import command_settings
    from creditscope.support.curl_parse import ImportProblem
    from creditscope.support.har_file import HarRefused
    from creditscope.support.har_import import cost_to_fetch, priced, read_har
    from creditscope.wiring import build_client
    from creditscope.wording import counted

    settings = command_settings()
    client = build_client(settings)
    try:
        reading = read_har(file, client.base_url)
        items = priced(client, reading.requests)
    except HarRefused as refused:  # a HAR too big or cut short: its own next step
        raise CommandProblem("bad_file", refused.why, refused.next_step) from None
    except ImportProblem as problem:  # the file, not the command line: no usage text
        raise CommandProblem("bad_file", str(problem), SAVE_A_HAR) from None
    finally:
        client.close_files()
    total = cost_to_fetch(items)
    if as_json:
        click.echo(json_text(listing_json(file, client.base_url, reading, items, total),
                             indent=2))
        return
    service = f"the built-in sandbox ({client.base_url})" if settings.is_sandbox else (
        client.base_url)
    click.echo(shown(f"{file}: {counted(len(items), 'request')} to {service}."))
    if skipped := reading.skipped_text():
        click.echo(shown(skipped + "."))
    if reading.preflights:
        click.echo(f"{counted(reading.preflights, 'CORS preflight')} (OPTIONS) skipped.")
    if reading.unreadable:
        click.echo(f"{counted(reading.unreadable, 'entry', 'entries')} without a readable"
                   " request skipped.")
    if items:
        said = shared_notes(items)
        for note in said:  # a note may quote the file: shown, never obeyed
            click.echo(f"Every request: {shown(note)}")
        click.echo("")
        click.echo("\n".join(listing_lines(items, said)))
        click.echo(f"\nFetching every request not cached: {total} credits. Nothing was sent.")
