"""No silent failure: background work that fails is shown (with its next step) and logged."""

from __future__ import annotations

import logging
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from creditscope.tui.app import CreditscopeApp
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


@dataclass(frozen=True)
class Notice:
    text: str
    title: str
    severity: str


@pytest.fixture
def notices(monkeypatch: pytest.MonkeyPatch) -> list[Notice]:
    """Every notification the app shows, in order."""
    shown: list[Notice] = []
    original = CreditscopeApp.notify

    def notify(self: CreditscopeApp, message: str, *, title: str = "",
               severity: Any = "information", **kwargs: Any) -> None:
        shown.append(Notice(str(message), title, str(severity)))
        original(self, message, title=title, severity=severity, **kwargs)

    monkeypatch.setattr(CreditscopeApp, "notify", notify)
    return shown


def errors_in(notices: list[Notice]) -> list[Notice]:
    return [notice for notice in notices if notice.severity == "error"]


async def test_saving_the_theme_to_an_unwritable_config_shows_an_error(
    make_app: MakeApp, tmp_path: Path, notices: list[Notice], caplog: pytest.LogCaptureFixture,
) -> None:
    # A file where the config's folder should be: no one (root included) can write there.
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    app = make_app(theme="textual-dark", config_file=blocker / "config.toml")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        assert errors_in(notices) == []
        with caplog.at_level(logging.ERROR, logger="creditscope.tui"):
            app.theme = "textual-light"
            await settle(pilot)
        [error] = errors_in(notices)
        assert error.title == "Save settings failed"
        assert str(blocker) in error.text and "Check that the file" in error.text
        assert any("Save settings failed" in record.getMessage() for record in caplog.records)
        assert app.theme == "textual-light"  # the explorer carries on


@pytest.mark.widget_errors  # the worker's failure is the point
async def test_a_failing_screen_worker_reaches_the_app_handler(
    make_app: MakeApp, notices: list[Notice], caplog: pytest.LogCaptureFixture,
) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await settle(pilot)

        async def export() -> None:
            raise RuntimeError("the disk went away")

        with caplog.at_level(logging.ERROR, logger="creditscope.tui"):
            app.screen.run_worker(export(), description="Export the catalog",
                                  exit_on_error=False)
            await settle(pilot)
        [error] = errors_in(notices)
        assert error.title == "Export the catalog failed"
        assert "the disk went away" in error.text
        assert "report it" in error.text  # the next step
        assert [r.exc_info[1] for r in caplog.records if r.exc_info] and app.is_running


async def test_a_failing_app_worker_is_shown_too(make_app: MakeApp, notices: list[Notice]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def check() -> None:
            raise PermissionError(13, "Permission denied", "/var/creditscope/ledger.db")

        app.run_worker(check, thread=True, description="Check the ledger", exit_on_error=False)
        await settle(pilot)
        [error] = errors_in(notices)
        assert error.title == "Check the ledger failed"
        assert "/var/creditscope/ledger.db: Permission denied" in error.text


@pytest.mark.widget_errors  # the widget's bug is the point
async def test_a_widget_bug_leaves_a_0600_report_file_the_notice_names(
    make_app: MakeApp, notices: list[Notice],
) -> None:
    """An action that raises: the notice names a report file in `<data dir>/reports/`,
    which exists, is readable by its owner only, and holds the traceback but not the key."""
    from .test_restaurants_screens import search

    key = "sk_live_customer_NOT_IN_REPORTS_77"
    app = make_app(api_key=key)
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot)
        await press_a_broken_key(pilot)
        assert app.is_running
    [notice] = [n for n in notices if "A report is in" in n.text]
    reports = sorted((app.settings.data_dir / "reports").iterdir())
    assert len(reports) == 1 and str(reports[0]) in notice.text
    assert stat.S_IMODE(reports[0].stat().st_mode) == 0o600
    text = reports[0].read_text()
    assert "RuntimeError: a bug in a handler" in text and key not in text


async def press_a_broken_key(pilot: Any) -> None:
    """Sort the restaurant results (`s`) with its action replaced by one that raises: a
    bug in a key's handler, as a user would meet it."""
    from creditscope.tui.screens.restaurants.results_table import RestaurantResults

    def broken(*_: object) -> None:
        raise RuntimeError("a bug in a handler")

    table = pilot.app.screen.query_one(RestaurantResults)
    table.action_cycle_sort = broken
    table.focus()
    await pilot.press("s")
    await settle(pilot)
