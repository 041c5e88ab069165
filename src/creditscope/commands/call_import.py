"""``creditscope call --from-curl``: a pasted request turned into an operation and its params."""

from __future__ import annotations

import sys
from typing import Any

import click

from creditscope.outside_text import shown
from creditscope.support.request_import import ImportProblem, import_request
from creditscope.support.request_target import OtherService

# A pasted command is a few kilobytes; anything far larger is not one.
MAX_PASTE_CHARS = 1_000_000


def read_pasted(text: str) -> str:
    """``text`` itself, or what stdin holds when it is ``-``."""
    if text != "-":
        return text
    if sys.stdin.isatty():
        click.echo("Paste the request, then press Ctrl+D:", err=True)
    pasted = sys.stdin.read(MAX_PASTE_CHARS + 1)
    if len(pasted) > MAX_PASTE_CHARS:
        raise click.UsageError(f"stdin holds more than {MAX_PASTE_CHARS} characters; "
                               "that is not a pasted request")
    return pasted


def imported_call(text: str, client: Any, overrides: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The operation and params of a pasted request, ``--PARAM`` values on top.

    Prints what was recognised and every note (the key was replaced, an option
    ignored) on stderr; raises ``click.UsageError`` with the explanation when the
    request cannot be imported. Validation is left to the call (or the plan).
    """
    try:
        imported = import_request(read_pasted(text), client.base_url)
    except OtherService as exc:
        raise click.UsageError(f"cannot import the request: {exc} Set CREDITSCOPE_BASE_URL "
                               f"to {exc.host}'s address to debug that service, or edit the "
                               "host in the command.") from None
    except ImportProblem as exc:
        raise click.UsageError(f"cannot import the request: {shown(str(exc))}") from None
    click.echo(f"imported: {imported.operation} ({imported.title}) from a pasted "
               f"{imported.source}", err=True)
    for note in imported.notes:  # a note may quote the paste: shown, never obeyed
        click.echo(f"note: {shown(note)}", err=True)
    return imported.operation, {**imported.params, **overrides}
