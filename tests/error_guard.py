"""No error is swallowed in tests: an exception the explorer would turn into a notice
for a user (a handler's bug, a worker's unexpected failure) fails the test that caused
it, naming the exception, instead of passing behind a toast.

Users are right to get a notice and a report file (``tui/failures.py``); a test is not.
A test that provokes such an error on purpose says so with
``@pytest.mark.widget_errors`` and asserts what the user was told.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator
from typing import Any

import pytest


def _described(where: str, error: BaseException) -> str:
    frames = "".join(traceback.format_exception(error)[-6:])
    return f"in {where}: {type(error).__name__}: {error}\n{frames}"


def _is_a_bug(error: BaseException) -> bool:
    """A worker failure that a user is meant to be told about (a file they cannot write,
    an unusable setting, a service's answer) is not a bug; anything else is."""
    from creditscope.settings_preview import SettingsError
    from creditscope.tui.remedies import UNEXPECTED, remedy_for

    if isinstance(error, OSError | SettingsError):
        return False
    return remedy_for(error) is UNEXPECTED


@pytest.fixture(autouse=True)
def no_swallowed_errors(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[str]]:
    """Fail the test when the explorer reported an unexpected error during it."""
    # Imported once per worker (Textual's app module): every test is guarded, whichever
    # part of the product it drives.
    from creditscope.tui import failures

    swallowed: list[str] = []
    unexpected, failure = failures.report_unexpected, failures.report_failure

    def report_unexpected(app: Any, where: str, error: Exception) -> None:
        swallowed.append(_described(where, error))
        unexpected(app, where, error)

    def report_failure(app: Any, what: str, error: BaseException) -> None:
        if _is_a_bug(error):
            swallowed.append(_described(f"the worker {what!r}", error))
        failure(app, what, error)

    monkeypatch.setattr(failures, "report_unexpected", report_unexpected)
    monkeypatch.setattr(failures, "report_failure", report_failure)
    yield swallowed
    if swallowed and request.node.get_closest_marker("widget_errors") is None:
        pytest.fail("the explorer reported an unexpected error (a user would have seen a "
                    "notice; mark the test widget_errors if that is its point):\n"
                    + "\n".join(swallowed), pytrace=False)
