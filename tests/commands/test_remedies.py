"""The command line's remedy table covers every client exception, in its own words."""

from __future__ import annotations

import re

import pytest

from client_fakes import exception_classes
from creditscope.client import errors
from creditscope.commands import remedies


@pytest.mark.parametrize("cls", exception_classes(), ids=lambda cls: cls.__name__)
def test_every_client_exception_has_a_command_line_remedy(
    cls: type[errors.CreditscopeError],
) -> None:
    assert cls in remedies.REMEDIES, f"add {cls.__name__} to commands/remedies.py"


@pytest.mark.parametrize("cls", exception_classes(), ids=lambda cls: cls.__name__)
def test_command_line_remedies_never_send_the_user_to_the_explorer(
    cls: type[errors.CreditscopeError],
) -> None:
    error = cls("it failed")
    step = remedies.remedy_for(error).step_for(error).lower()
    for words in ("open settings", "go online", "confirm to spend", "settings (", "activity",
                  "in settings"):
        assert words not in step, f"{cls.__name__}: {step}"
    # A command-line next step: a flag, an environment variable, a command, or a retry.
    cli_step = r"--\w|CREDITSCOPE_|`creditscope|retry|try again|top up|the id|run the command"
    assert re.search(cli_step, step, re.IGNORECASE), step


def test_exit_codes_follow_the_readme() -> None:
    code = lambda error: remedies.remedy_for(error).exit_code_for(error)  # noqa: E731
    assert code(errors.InvalidRequest("bad")) == remedies.EXIT_USAGE  # refused locally
    assert code(errors.InvalidRequest("bad", status=422)) == remedies.EXIT_API
    assert code(errors.BudgetExceeded("over", price=5, spent=8, budget=10)) == 2
    assert code(errors.InvalidApiKey("no", status=401)) == remedies.EXIT_API
    assert code(errors.ConnectionFailed("down")) == remedies.EXIT_TRANSPORT
    assert code(errors.OfflineMiss("not cached", price=10)) == remedies.EXIT_TRANSPORT


def test_steps_use_the_exception_data() -> None:
    step = lambda error: remedies.remedy_for(error).step_for(error)  # noqa: E731
    assert step(errors.RateLimited("slow", retry_after=7)) == "Retry in 7 s."
    assert "10 credits" in step(errors.OfflineMiss("not cached", price=10))
    assert "CREDITSCOPE_BUDGET" in step(errors.BudgetExceeded("over", price=5, spent=8,
                                                              budget=10))
