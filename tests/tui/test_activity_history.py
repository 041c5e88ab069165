"""Activity remembers: an earlier session's calls listed under their divider, searched,
labelled, reopened from the cache for free, an expired one re-fetched only at its price;
the listed calls exported as HAR, and a customer's HAR opened from Import (``i``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static, TextArea

from creditscope.client.client import DataClient
from creditscope.client.history import HistoryQuery
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.har_import import HarImportScreen
from creditscope.tui.screens.import_request import ImportRequestScreen
from creditscope.tui.widgets.json_view import JsonView
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.wiring import build_client
from pilot_support import open_with_letter, settle

from .conftest import SIZE
from .screen_text import footer_text

CHROME_EXPORT = Path(__file__).parents[1] / "support" / "fixtures" / "chrome-export.har"


async def earlier_session(settings: Settings, *calls: tuple[str, dict[str, Any]]) -> None:
    """Another run on the same files (its own session), closed before the explorer starts."""
    client = build_client(settings)
    for operation, params in calls:
        await client.call(operation, params)
    await client.aclose()
    client.ledger.close()


def explorer(settings: Settings) -> CreditscopeApp:
    """The explorer on the built-in sandbox with these files, as `creditscope` builds it."""
    return CreditscopeApp(settings, client_factory=build_client, initial_mode="activity")


def client_of(app: CreditscopeApp) -> DataClient:
    assert app.client is not None
    return app.client


def rows(app: CreditscopeApp) -> list[tuple[str, ...]]:
    table = app.screen.query_one("#activity-table", DataTable)
    return [tuple(str(cell) for cell in table.get_row_at(i)) for i in range(table.row_count)]


def text_of(app: CreditscopeApp, selector: str) -> str:
    content: Any = app.screen.query_one(selector, Static).content
    return str(getattr(content, "plain", content))


async def start(pilot: Pilot[Any]) -> None:
    await pilot.app.wait_for_client()  # type: ignore[attr-defined]
    await settle(pilot)


async def paste_into_import(pilot: Pilot[Any], text: str) -> None:
    """Start, open Import request with its key and put ``text`` in the paste box."""
    app: Any = pilot.app
    await start(pilot)
    app.screen.set_focus(None)  # `i` is a key where no text box has the cursor
    await pilot.press("i")
    await settle(pilot)
    assert isinstance(app.screen, ImportRequestScreen)
    app.screen.query_one("#import-text", TextArea).text = text
    await settle(pilot)


async def choose(pilot: Pilot[Any], operation: str) -> None:
    """Put the table's cursor on the first row of ``operation``."""
    app: Any = pilot.app
    operations = [row[1] for row in rows(app)]
    app.screen.query_one("#activity-table", DataTable).move_cursor(
        row=operations.index(operation))
    await settle(pilot)


async def test_an_earlier_sessions_calls_are_listed_reopened_labelled_and_exported(
    settings: Settings, tmp_path: Path,
) -> None:
    await earlier_session(settings, ("restaurants/search", {"location": "Lisbon",
                                                            "cuisine": "thai"}),
                          ("professional_network/find_company", {"name": "Northwind Labs"}))
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        listed = rows(app)
        assert listed[0][1].startswith("── Session · ")
        assert [row[1] for row in listed[1:]] == ["professional_network/find_company",
                                                  "restaurants/search"]
        await choose(pilot, "restaurants/search")
        assert "Answer from the cache · free" in text_of(app, "#response-detail")
        assert "Oliva Thai" in app.screen.query_one("#response-json", JsonView).document
        assert not app.screen.query_one("#activity-refetch", PriceButton).display
        assert client_of(app).ledger.session_records == []  # reopening is no call

        await open_with_letter(pilot, "l")  # a ticket label, kept in the history
        await settle(pilot)
        app.screen.query_one("#label-text", Input).value = "#4821"
        await pilot.press("enter")
        await settle(pilot)
        assert rows(app)[2][6].startswith("#4821 · ")
        [entry] = client_of(app).ledger.history.find(HistoryQuery(label="#4821"))
        assert entry.params["location"] == "Lisbon"

        app.screen.query_one("#activity-filter", Input).value = "northwind"
        await settle(pilot)
        assert [row[1] for row in rows(app)][1:] == ["professional_network/find_company"]

        await open_with_letter(pilot, "e")  # what is listed, as a HAR file
        await settle(pilot)
        target = tmp_path / "ticket.har"
        app.screen.query_one("#save-path", Input).value = str(target)
        await pilot.press("enter")
        await settle(pilot)
    exported = target.read_text()
    assert "Northwind Labs" in exported and "Lisbon" not in exported
    assert DEMO_KEY not in exported


@pytest.mark.slow
async def test_a_call_labelled_by_the_cli_in_another_process_is_reopened_free(
    settings: Settings,
) -> None:
    env = {"CREDITSCOPE_DATA_DIR": str(settings.data_dir),
           "CREDITSCOPE_CACHE_DIR": str(settings.cache_dir),
           "CREDITSCOPE_CONFIG_FILE": str(settings.config_file)}
    done = subprocess.run(
        [sys.executable, "-m", "creditscope", "call", "restaurants/search", "--location",
         "Porto", "--label", "#4821"],
        env={**os.environ, **env}, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        listed = rows(app)
        assert listed[0][1].startswith("── Session · ")
        assert listed[1][1] == "restaurants/search" and listed[1][6].startswith("#4821 · ")
        await choose(pilot, "restaurants/search")
        assert "Answer from the cache · free" in text_of(app, "#response-detail")
        assert client_of(app).ledger.session_records == []  # reopening it is no call


async def test_an_expired_answer_is_priced_and_fetched_only_when_asked(
    settings: Settings,
) -> None:
    expiring = settings.model_copy(update={"ttl": settings.ttl.model_copy(
        update={"restaurants_search": 0})})
    await earlier_session(expiring, ("restaurants/search", {"location": "Oslo"}))
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        assert "The cached answer expired" in text_of(app, "#response-detail")
        refetch = app.screen.query_one("#activity-refetch", PriceButton)
        assert refetch.display and str(refetch.label) == "Re-fetch · 2 cr · expired"
        assert client_of(app).ledger.session_spent() == 0
        await pilot.click("#activity-refetch")
        await settle(pilot)
        assert client_of(app).ledger.session_spent() == 2
        assert rows(app)[1][1] == "restaurants/search"  # this session's call, on top
        assert "Oslo" in app.screen.query_one("#response-json", JsonView).document


@pytest.fixture
def customer_har(tmp_path: Path) -> Path:
    """The browser export, its service being the sandbox this explorer talks to."""
    path = tmp_path / "customer ticket.har"
    path.write_text(CHROME_EXPORT.read_text().replace("https://api.dataservice.example",
                                                      SANDBOX_BASE_URL))
    return path


async def test_a_past_call_refused_as_invalid_offers_no_paid_retry_and_a_miss_clears(
    settings: Settings,
) -> None:
    from creditscope.client.errors import InvalidRequest

    with pytest.raises(InvalidRequest):  # refused before sending, free
        await earlier_session(settings, ("professional_network/find_company", {"name": ""}))
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        table = app.screen.query_one("#activity-table", DataTable)
        assert table.cursor_row == 1  # the call the inspector shows, not its divider
        assert "nothing to re-fetch" in text_of(app, "#response-detail")
        assert not app.screen.query_one("#activity-refetch", PriceButton).display
        assert "Replay" in footer_text(app) and "Replay · 10 cr" not in footer_text(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert not app.screen_stack[-1].is_modal  # no spend confirmation for it

        app.screen.query_one("#activity-filter", Input).value = "zzzz"
        await settle(pilot)
        assert "No call matches" in text_of(app, "#activity-empty")
        assert text_of(app, "#request-detail") == ""  # not the call no longer listed
        assert not app.screen.query_one("#inspector").display
        assert app.screen.selected is None  # type: ignore[attr-defined]


async def test_an_empty_activity_says_how_to_fill_it_and_offers_no_call_actions(
    settings: Settings,
) -> None:
    app = explorer(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        empty = text_of(app, "#activity-empty")
        assert "No calls yet" in empty and "this session" not in empty.split(".")[0]
        assert "(2)" in empty and "(i)" in empty  # what to press to make one
        assert not app.screen.query_one("#inspector").display  # no empty panes
        def usable(key: str) -> bool:
            return app.screen.active_bindings[key].enabled

        assert not any(usable(key) for key in ("c", "y", "ctrl+s", "ctrl+r", "l", "e"))  # dimmed
        await client_of(app).call("restaurants/search", {"location": "Lisbon"})
        await settle(pilot)
        assert all(usable(key) for key in ("c", "y", "ctrl+s", "ctrl+r", "l", "e"))


async def test_the_arrow_keys_step_over_session_dividers(settings: Settings) -> None:
    await earlier_session(settings, ("restaurants/search", {"location": "Oslo"}))
    await earlier_session(settings, ("restaurants/search", {"location": "Porto"}))
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        table = app.screen.query_one("#activity-table", DataTable)
        assert [row[1].startswith("──") for row in rows(app)] == [True, False, True, False]
        assert table.cursor_row == 1
        await pilot.press("down")  # past the second session's divider, onto its call
        await settle(pilot)
        assert table.cursor_row == 3 and "Oslo" in text_of(app, "#request-detail")
        await pilot.press("up")
        await settle(pilot)
        assert table.cursor_row == 1 and "Porto" in text_of(app, "#request-detail")
        await pilot.press("slash", *"oslo")
        await settle(pilot)
        await pilot.press("escape")  # out of the search box: onto what it found
        await settle(pilot)
        assert app.focused is table and [row[1] for row in rows(app)][1:] == [
            "restaurants/search"]
        await pilot.press("4")  # number keys still switch areas
        await settle(pilot)
        assert app.current_mode == "catalog"


async def test_a_customers_har_opens_from_import_priced_and_fills_an_area(
    settings: Settings, customer_har: Path,
) -> None:
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await paste_into_import(pilot, f"'{customer_har}'")
        await pilot.click("#import-open")
        await settle(pilot)
        assert isinstance(app.screen, HarImportScreen)
        assert "4 requests to" in text_of(app, "#har-summary")
        assert "4 entries for 3 other hosts skipped" in text_of(app, "#har-summary")
        listed = [tuple(str(c) for c in app.screen.query_one(DataTable).get_row_at(i))
                  for i in range(4)]
        assert [(row[2], row[3]) for row in listed[:3]] == [
            ("professional_network/find_company", "10 cr"), ("restaurants/search", "2 cr"),
            ("restaurants/details", "2 cr")]
        assert "Fetching every request not cached: 14 cr" in text_of(app, "#har-total")
        await pilot.press("down", "enter")
        await settle(pilot)
        assert app.current_mode == "restaurants"
        assert app.screen.query_one("#location", Input).value == "Lisbon"
        assert client_of(app).ledger.session_records == []  # nothing was sent


async def test_a_har_cut_short_is_reported_before_open_is_offered(settings: Settings) -> None:
    """An interrupted download pasted as a path: the dialog says what import-har says,
    and offers no Open to a list that would only say it again."""
    from creditscope.support.har_import import ImportProblem, read_har

    cut_short = CHROME_EXPORT.with_name("chrome-export-cut-short.har")
    with pytest.raises(ImportProblem) as cli_words:
        read_har(cut_short, SANDBOX_BASE_URL)
    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await paste_into_import(pilot, str(cut_short))
        assert text_of(app, "#import-result") == f"✖ {cli_words.value}"
        assert "cut short" in text_of(app, "#import-result")
        assert not app.screen.query_one("#import-open").display


async def test_a_hars_prices_are_in_view_at_80_columns(
    settings: Settings, customer_har: Path,
) -> None:
    app = explorer(settings)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        app.push_screen(HarImportScreen(customer_har))
        await settle(pilot)
        table = app.screen.query_one("#har-table", DataTable)
        assert table.row_count == 4
        now_ends = 0
        for column in table.ordered_columns:
            now_ends += column.get_render_width(table)
            if str(column.label) == "Now":
                break
        assert now_ends <= table.scrollable_content_region.width  # no scrolling to see it
        assert str(table.get_row_at(3)[3]) == "not a request"  # /favicon.ico; why, below
        await pilot.press("down", "down", "down")
        await settle(pilot)
        assert "favicon.ico" in text_of(app, "#har-detail")


def test_sessions_are_divided_and_older_pages_offered() -> None:
    """This session's divider only once past calls are listed; one per past session; a
    last row that loads older calls when more match."""
    from datetime import UTC, datetime

    from creditscope.client.history import HistoryEntry
    from creditscope.client.records import CallRecord
    from creditscope.tui.screens.activity_rows import MorePast, SessionDivider, arrange

    at = datetime(2026, 11, 24, 14, 2, tzinfo=UTC)

    def past(ident: int, session: str) -> HistoryEntry:
        return HistoryEntry(ident, session, at, "restaurants/search", "GET", {}, 200, "miss",
                            2, 0, None, None, None)

    now = CallRecord("catalog", "GET", "u", {})
    assert arrange([now], [], "me", more=False) == [now]
    items = arrange([now], [past(9, "b"), past(8, "b"), past(5, "a")], "me", more=True)
    assert [type(item).__name__ for item in items] == [
        "SessionDivider", "CallRecord", "SessionDivider", "HistoryEntry", "HistoryEntry",
        "SessionDivider", "HistoryEntry", "MorePast"]
    assert items[0] == SessionDivider("me", now.started_at, True)
    assert items[-1] == MorePast(before_id=5)


async def test_replay_asks_the_price_then_sends_the_call_again_past_the_cache(
    settings: Settings,
) -> None:
    from textual.widgets import Button

    app = explorer(settings)
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot)
        await client_of(app).call("restaurants/search", {"location": "Porto"})
        app.screen.refresh_calls()  # type: ignore[attr-defined]
        await settle(pilot)
        await choose(pilot, "restaurants/search")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert "Spend 2 cr" in str(app.screen.query_one("#confirm-yes", Button).label)
        assert client_of(app).ledger.session_totals().spent == 2  # nothing sent yet
        app.screen.query_one("#confirm-yes", Button).press()
        await settle(pilot)
        assert client_of(app).ledger.session_totals().spent == 4
        assert client_of(app).ledger.session_records[-1].credits_charged == 2  # paid, not cached
