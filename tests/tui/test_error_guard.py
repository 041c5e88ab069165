"""The guard itself (tests/error_guard.py): a handler that raises, in a test that does not
say it expects it, fails that test, naming the exception. Run in a child pytest, since the
failure it proves is the child test's."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .conftest import SIZE

PROBE = "CREDITSCOPE_ERROR_GUARD_PROBE"
HERE = Path(__file__)


@pytest.mark.skipif(PROBE not in os.environ, reason="run by the test below, in a child pytest")
async def test_probe_a_key_whose_action_raises(make_app: Callable[..., CreditscopeApp]) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def broken() -> None:
            raise RuntimeError("probe: a bug in a key's action")

        app.action_help = broken  # type: ignore[method-assign]
        await pilot.press("f1")
        await settle(pilot)
        assert app.is_running  # the user keeps the session; the test must still fail


def test_an_exception_turned_into_a_notice_fails_the_test_that_caused_it() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         f"{HERE}::test_probe_a_key_whose_action_raises"],
        env={**os.environ, PROBE: "1"}, cwd=HERE.parents[2], capture_output=True, text=True,
        timeout=120, check=False,
    )
    assert done.returncode == 1, done.stdout[-2000:]
    assert "the explorer reported an unexpected error" in done.stdout
    assert "RuntimeError: probe: a bug in a key's action" in done.stdout
