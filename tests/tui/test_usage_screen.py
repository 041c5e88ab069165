"""Usage: the charts at 80x24 and 120x36 in both themes on a fixed ledger, the empty state,
and the figures on screen being the ledger's."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from creditscope.client.account_id import account_fingerprint
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import UNEXPLAINED, CacheStatus, CallRecord
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.wiring import configured_account
from pilot_support import settle

from .areas import DARK_THEME, LIGHT_THEME, SIZES
from .conftest import FROZEN_NOW, sandbox_client_factory
from .contrast import low_contrast_runs

# (days before now, hour, operation, charged, saved, status, error, attempts, grade)
Entry = tuple[int, int, str, int, int, int | None, str | None, int, str | None]
LOOKUP = "professional_network/find_company"
LIVE_URL = "http://127.0.0.1:19701"
PAST_CALLS: list[Entry] = [
    (13, 9, "restaurants/search", 2, 0, 200, None, 1, None),
    (12, 10, LOOKUP, 10, 0, 200, None, 1, "high"),
    (12, 11, LOOKUP, 0, 10, 200, None, 0, None),
    (10, 14, "ticketing/discovery", 3, 0, 200, None, 1, None),
    (9, 8, "restaurants/menu", 5, 0, 200, None, 1, None),
    (9, 9, "restaurants/search", 0, 2, 200, None, 0, None),
    (7, 16, LOOKUP, 10, 0, 200, None, 1, "medium"),
    (7, 17, LOOKUP, 10, 0, 200, None, 1, "none"),
    (6, 10, "restaurants/reviews", 3, 0, 200, None, 1, None),
    (5, 12, "restaurants/search", 0, 0, 503, "service_unavailable", 2, None),
    (4, 9, "restaurants/details", 0, 0, None, "invalid_parameter", 0, None),
    (3, 15, LOOKUP, 10, 0, 200, None, 1, "high"),
    (3, 15, UNEXPLAINED, 4, 0, None, None, 0, None),
    (2, 11, "ticketing/discovery", 3, 0, 200, None, 1, None),
    (1, 10, "restaurants/menu", 5, 0, 200, None, 1, None),
    (1, 11, "restaurants/menu", 0, 5, 200, None, 0, None),
    (0, 9, LOOKUP, 10, 0, 200, None, 1, "low"),
    (0, 11, "restaurants/search", 2, 0, 200, None, 1, None),
]


def write_ledger(path: Path, entries: list[Entry], account: str) -> None:
    """A ledger file holding ``entries`` as earlier sessions on ``account`` recorded them."""
    ledger = CreditLedger(path)
    midnight = FROZEN_NOW.replace(hour=0, minute=0)
    for days, hour, operation, charged, saved, status, error, attempts, grade in entries:
        ledger.record(CallRecord(
            operation=operation, method="GET", url="u", params={}, status=status,
            credits_charged=charged, credits_saved=saved, error_code=error, attempts=attempts,
            cache=CacheStatus.HIT if saved else CacheStatus.MISS, match_grade=grade,
            started_at=midnight - timedelta(days=days) + timedelta(hours=hour),
            account=account,
        ))
    ledger.close()


@pytest.fixture
def usage_app(tmp_path: Path, settings: Settings) -> Callable[..., CreditscopeApp]:
    """``usage_app(entries, theme, other_account)``: the explorer on Usage, over a ledger
    of ``entries`` on the configured account (and ``other_account``'s on another key)."""

    def make(entries: list[Entry], theme: str = DARK_THEME,
             other_account: list[Entry] | None = None) -> CreditscopeApp:
        path = tmp_path / "ledger.sqlite3"
        write_ledger(path, entries, configured_account(settings))
        if other_account:  # another key's calls, written to the same file
            write_ledger(path, other_account, account_fingerprint(LIVE_URL, "sk_live_other"))
        build = sandbox_client_factory(tmp_path)

        def with_the_ledger(chosen: Settings) -> Any:
            client = build(chosen)
            client.ledger = CreditLedger(path)
            return client

        return CreditscopeApp(settings.model_copy(update={"theme": theme}),
                              client_factory=with_the_ledger, clock=lambda: FROZEN_NOW,
                              initial_mode="usage")

    return make


async def _ready(pilot: Any) -> None:
    await pilot.app.wait_for_client()
    await settle(pilot)


VARIANTS = {
    "80x24-dark": (SIZES["80x24"], DARK_THEME),
    "80x24-light": (SIZES["80x24"], LIGHT_THEME),
    "120x36-dark": (SIZES["120x36"], DARK_THEME),
    "120x36-light": (SIZES["120x36"], LIGHT_THEME),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_usage_charts(snap_compare: Any, usage_app: Callable[..., CreditscopeApp],
                      variant: str) -> None:
    size, theme = VARIANTS[variant]
    assert snap_compare(usage_app(PAST_CALLS, theme), terminal_size=size, run_before=_ready)


def test_usage_empty_state(snap_compare: Any, usage_app: Callable[..., CreditscopeApp]) -> None:
    assert snap_compare(usage_app([]), terminal_size=SIZES["80x24"], run_before=_ready)


def _text(app: CreditscopeApp, selector: str) -> str:
    return str(app.screen.query_one(selector).render())


async def test_the_figures_on_screen_are_the_ledgers(
    usage_app: Callable[..., CreditscopeApp],
) -> None:
    app = usage_app(PAST_CALLS)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await _ready(pilot)
        totals = app.client.ledger.lifetime_totals()  # type: ignore[union-attr]
        summary = _text(app, "#usage-summary")
        assert f"{totals.spent} cr spent" in summary
        assert f"{totals.saved} cr saved by the cache (3 answers)" in summary
        assert "ok 15  █ error 1  █ refused 1  █ unexplained 1" in _text(app, "#usage-outcomes")
        assert "(5)  high 40% · medium 20% · low 20% · no match 20%" in _text(app, "#usage-grades")
        # d: the last 24 hours, per hour: only today's two calls
        await pilot.press("d")
        await settle(pilot)
        assert "Last 24 hours:  █ 12 cr spent" in _text(app, "#usage-summary")
        # a new call is counted at once
        client: Any = app.client
        await client.call("restaurants/search", {"location": "Lisbon"})
        await settle(pilot)
        assert "14 cr spent" in _text(app, "#usage-summary")
        # a call made while another area is shown: counted when Usage is shown again
        await app.switch_mode("catalog")
        await settle(pilot)
        await client.call("restaurants/search", {"location": "Porto"})
        await settle(pilot)
        await app.switch_mode("usage")
        await settle(pilot)
        assert "16 cr spent" in _text(app, "#usage-summary")


@pytest.mark.parametrize("theme", [DARK_THEME, LIGHT_THEME])
async def test_usage_reads_in_both_themes(usage_app: Callable[..., CreditscopeApp],
                                          theme: str) -> None:
    app = usage_app(PAST_CALLS, theme)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await _ready(pilot)
        assert [str(run) for run in low_contrast_runs(app)] == []


async def test_usage_counts_the_configured_account_alone_and_names_the_others(
    usage_app: Callable[..., CreditscopeApp],
) -> None:
    """Issue 35: another key's calls in the same ledger file are not this account's spend."""
    other = [(0, 10, LOOKUP, 10, 0, 200, None, 1, "high")] * 7  # 70 cr on another key
    app = usage_app(PAST_CALLS, other_account=other)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await _ready(pilot)
        client: Any = app.client
        own = client.ledger.lifetime_totals(client.account).spent
        assert f"{own} cr spent" in _text(app, "#usage-summary")
        assert "(5)  high 40% ·" in _text(app, "#usage-grades")  # not the other key's 7
        accounts = _text(app, "#usage-accounts")
        assert "This account only" in accounts and "1 other account" in accounts
        assert "creditscope credits --all" in accounts


async def test_usage_of_a_new_key_starts_empty(usage_app: Callable[..., CreditscopeApp]) -> None:
    app = usage_app([], other_account=PAST_CALLS)
    async with app.run_test(size=SIZES["120x36"]) as pilot:
        await _ready(pilot)
        assert app.screen.query_one("#usage-empty").display
        assert "1 other account" in _text(app, "#usage-accounts")
