"""Errors on the command line: in command-line words (a flag, an environment variable, a
command), never the explorer's; with ``--json``, JSON on stdout
(``{"error": {"code", "message", "next_step"}}``) with the same exit code, for every
command that has ``--json`` (``call``, ``credits``, ``check-service``, ``doctor``)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import click
import httpx
import pytest
from click.testing import CliRunner, Result

from client_fakes import FakeService, commands_talk_to, error_response
from creditscope import wiring
from creditscope.cli import main
from creditscope.commands.error_output import JsonErrorsCommand

EXPLORER_WORDS = ("open settings", "go online", "confirm to spend", "under activity",
                  "settings (6)", "see activity", "in settings")


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeService]:
    """A configured live service, answered by a fake."""
    service = FakeService()
    commands_talk_to(service, monkeypatch, "sk_live_json_errors_7777")
    monkeypatch.setattr(wiring, "service_transport", lambda settings: service.transport)
    yield service


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def json_error(result: Result, exit_code: int) -> dict[str, str]:
    """The JSON error on stdout (its only content), checked for its shape and exit code."""
    assert result.exit_code == exit_code, result.output
    error = json.loads(result.stdout)["error"]
    assert set(error) == {"code", "message", "next_step"} and error["next_step"]
    assert not any(words in json.dumps(error).lower() for words in EXPLORER_WORDS)
    return dict(error)


@pytest.mark.parametrize("args, exit_code, code, step", [
    (("call", "restaurants/nope", "--json"), 2, "usage", "creditscope call --help"),
    (("call", "restaurants/search", "--json", "--location"), 2, "usage", "--help"),
    (("call", "ticketing/discovery", "--limit", "99", "--json"), 2, "invalid_parameter",
     "nothing was charged"),
    (("call", "restaurants/search", "--location", "Hogwarts", "--json"), 2, "unknown_place",
     "--allow-unknown-place"),
    (("call", "restaurants/details", "--id", "r9", "--offline", "--json"), 4, "offline_miss",
     "CREDITSCOPE_OFFLINE=0"),
    (("call", "--from-curl", "curl https://other.example/restaurants/search?location=Rome",
      "--json"), 2, "usage", "Set CREDITSCOPE_BASE_URL to other.example's address"),
    (("credits", "--json", "--by-nothing"), 2, "usage", "creditscope credits --help"),
    (("doctor", "--json", "--timeout", "0"), 2, "usage", "creditscope doctor --help"),
    (("check-service", "--json", "--budget", "-1"), 2, "usage", "--budget"),
    (("check-service", "--json", "--budget", "ten"), 2, "usage", "--help"),
])
def test_refused_before_sending_is_a_json_error(fake: FakeService, args: tuple[str, ...],
                                                exit_code: int, code: str, step: str) -> None:
    error = json_error(run(*args), exit_code)
    assert error["code"] == code and step in error["next_step"] + error["message"]
    assert fake.requests == []


def test_service_errors_are_json_with_the_exit_codes_of_text(fake: FakeService) -> None:
    fake.script = [error_response(401, "invalid_api_key", "key revoked")]
    denied = json_error(run("call", "restaurants/details", "--id", "r1", "--json"), 3)
    assert denied["code"] == "invalid_api_key" and "key revoked" in denied["message"]
    assert "CREDITSCOPE_API_KEY" in denied["next_step"]
    fake.script = [httpx.ConnectError("refused")] * 3
    down = json_error(run("call", "restaurants/details", "--id", "r1", "--json"), 4)
    assert down["code"] == "connection_failed" and "creditscope doctor" in down["next_step"]
    fake.script = [httpx.ConnectError("refused")] * 3
    check = json_error(run("check-service", "--json"), 4)
    assert check["code"] == "connection_failed"


def test_without_json_errors_stay_words_on_stderr(fake: FakeService) -> None:
    fake.script = [error_response(401, "invalid_api_key", "key revoked")]
    denied = run("call", "restaurants/details", "--id", "r1")
    assert denied.exit_code == 3 and denied.stdout == ""
    assert denied.stderr.startswith("error: Invalid API key: [invalid_api_key] key revoked\n")
    usage = run("check-service", "--budget", "-1")
    assert usage.exit_code == 2 and usage.stderr.startswith("error: --budget must be")


def test_unusable_settings_are_a_json_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CREDITSCOPE_TIMEOUT", "soon")
    for command in ("credits", "check-service"):
        error = json_error(run(command, "--json"), 2)
        assert "timeout" in error["message"] and error["code"] == "usage"
    monkeypatch.delenv("CREDITSCOPE_TIMEOUT")
    monkeypatch.setenv("CREDITSCOPE_OFFLINE", "1")
    offline = json_error(run("check-service", "--json"), 2)
    assert offline["code"] == "offline" and "CREDITSCOPE_OFFLINE" in offline["next_step"]


def _commands() -> Iterator[tuple[str, click.Command]]:
    from creditscope.cli import LAZY_COMMANDS, LazyGroup

    for name in LAZY_COMMANDS:
        command = LazyGroup.get_command(main, click.Context(main), name)
        assert command is not None
        subcommands = command.commands if isinstance(command, click.Group) else {}
        yield name, command
        yield from ((f"{name} {sub}", cmd) for sub, cmd in subcommands.items())


def test_every_command_with_json_reports_its_errors_the_one_way() -> None:
    with_json = [name for name, command in _commands()
                 if any("--json" in param.opts for param in command.params)]
    assert {"call", "credits", "check-service", "doctor"} <= set(with_json)
    for name, command in _commands():
        if name in with_json:
            assert isinstance(command, JsonErrorsCommand), (
                f"`{name}` has --json: declare it with cls=JsonErrorsCommand")
