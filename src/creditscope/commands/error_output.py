"""How every command reports an error: on stderr in words, or, when the command was given
``--json``, as ``{"error": {"code", "message", "next_step"}}`` on stdout; the exit code is
the same either way.

One mechanism for all: a command declared with ``cls=JsonErrorsCommand`` (any command
with a ``--json`` flag) gets it for click's usage errors, for ``CommandProblem`` and for
every client exception it lets through (worded by ``commands.remedies``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from creditscope.client.errors import CreditscopeError
from creditscope.commands.remedies import remedy_for
from creditscope.outside_text import json_text, shown_lines
from creditscope.wording import lost_answer_sentence

JSON_FLAG = "--json"
_WANTS_JSON = "creditscope.json_errors"


class CommandProblem(Exception):
    """An error a command reports itself: a code, what happened, what to do, an exit code.
    Raise it from a ``JsonErrorsCommand``, which shows it and exits."""

    def __init__(self, code: str, message: str, next_step: str = "", exit_code: int = 2,
                 *, text: str | None = None, says_step: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.next_step = next_step
        self.exit_code = exit_code
        self.text = text or message  # the line on stderr, when it says more than the message
        self.says_step = says_step  # the message already says the next step (in words)

    def show(self, as_json: bool) -> None:
        """JSON on stdout, or "error: message" and the next step on stderr."""
        if as_json:
            click.echo(json_text({"error": {"code": self.code, "message": self.message,
                                            "next_step": self.next_step}}))
            return
        # A message may quote the service or a file: shown, never obeyed by the terminal.
        click.echo(f"error: {shown_lines(self.text)}", err=True)
        if self.next_step and not self.says_step:
            click.echo(shown_lines(self.next_step), err=True)


def client_problem(error: CreditscopeError) -> CommandProblem:
    """A client exception in the command line's words (``commands.remedies``)."""
    remedy = remedy_for(error)
    code = error.code or _snake(type(error).__name__)
    # A lost answer says what it may have cost, on the line and in the JSON message.
    lost = f" {lost_answer_sentence(error.possibly_charged)}" if error.possibly_charged else ""
    return CommandProblem(code, f"{remedy.title}: {error.message}{lost}",
                          remedy.step_for(error), remedy.exit_code_for(error),
                          text=f"{remedy.title}: {error}{lost}")


def usage_problem(error: click.ClickException, command_path: str) -> CommandProblem:
    """click's own error (a bad option, a missing argument) with its exit code."""
    # The program is `creditscope` however it was started (python -m, a test runner).
    shown = " ".join(["creditscope", *command_path.split()[1:]])
    return CommandProblem("usage", error.format_message(),
                          f"Run `{shown} --help` for the options.", error.exit_code)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class JsonErrorsCommand(click.Command):
    """A click command whose errors follow its ``--json`` flag (see the module)."""

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        wants_json = _asks_for_json(args)
        try:
            ctx = super().make_context(info_name, list(args), parent, **extra)
        except click.ClickException as error:
            if not wants_json:
                raise
            path = " ".join(filter(None, [parent.command_path if parent else "", info_name]))
            _exit_with(usage_problem(error, path), wants_json)
        ctx.meta[_WANTS_JSON] = wants_json
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        wants_json = bool(ctx.meta.get(_WANTS_JSON))
        try:
            return super().invoke(ctx)
        except CreditscopeError as error:
            _exit_with(client_problem(error), wants_json)
        except CommandProblem as problem:
            _exit_with(problem, wants_json)
        except click.ClickException as error:
            if not wants_json:
                raise
            _exit_with(usage_problem(error, ctx.command_path), wants_json)


def _exit_with(problem: CommandProblem, wants_json: bool) -> NoReturn:
    problem.show(wants_json)
    raise click.exceptions.Exit(problem.exit_code)


def _asks_for_json(args: Sequence[str]) -> bool:
    """``--json`` before any ``--`` (after it, a value, not the flag)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == JSON_FLAG:
            return True
    return False
