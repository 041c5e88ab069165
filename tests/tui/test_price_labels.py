"""Issue 13, items 4, 5 and 9 in what the explorer says: one way to word a price and the
cache state, and the meter naming an unexplained difference."""

from __future__ import annotations

import pytest

from creditscope.client.ledger import CreditLedger
from creditscope.client.records import UNEXPLAINED, CallRecord
from creditscope.tui.prices import Quote
from creditscope.tui.screens.company.recent import recent_label
from creditscope.tui.screens.restaurants.restaurant_screen import tab_label
from creditscope.tui.widgets.credit_meter import snapshot_of


@pytest.mark.parametrize(
    ("state", "offline", "label"),
    [
        ("miss", False, "Search · 2 cr"),
        ("hit", False, "Search · cached · free"),
        ("stale", False, "Search · 2 cr · expired"),
        ("stale", True, "Search · stale · free"),
        ("miss", True, "Search · offline · 2 cr online"),
        (None, False, "Search · 2 cr"),
    ],
)
def test_a_label_says_the_price_and_the_cache_state(
    state: str | None, offline: bool, label: str
) -> None:
    assert Quote(2, state, offline).label("Search") == label


def test_refresh_always_costs_its_price() -> None:
    assert Quote(3, "hit", False).label("Refresh", refresh=True) == "Refresh · 3 cr"
    assert Quote(3, "hit", True).label("Refresh", refresh=True) == "Refresh · offline · 3 cr online"


def test_tabs_and_recent_lookups_price_an_expired_copy() -> None:
    assert tab_label("Menu", Quote(5, "stale", False), loaded=False) == \
        "Menu · 5 cr · expired"
    assert tab_label("Menu", Quote(5, "hit", False), loaded=False) == "Menu · cached · free"
    assert tab_label("Menu", Quote(5, "stale", False), loaded=True) == "Menu · cached"
    params = {"name": "Northwind", "website": "https://northwind-labs.co.uk"}
    assert recent_label(params, Quote(10, "hit", False)) == \
        "Northwind · northwind-labs.co.uk · cached · free"
    assert recent_label(params, Quote(10, "stale", False)) == \
        "Northwind · northwind-labs.co.uk · 10 cr · expired"
    assert recent_label(params, Quote(10, "stale", True)) == \
        "Northwind · northwind-labs.co.uk · stale · free"


def test_the_meter_counts_an_unexplained_difference_in_spent() -> None:
    ledger = CreditLedger(None)
    ledger.record(CallRecord("restaurants/search", "GET", "u", {}, credits_charged=2,
                             account="a"))
    ledger.record(CallRecord(UNEXPLAINED, "", "", {}, credits_charged=3, account="a"))
    snapshot = snapshot_of(ledger, "a")
    assert snapshot.spent == 5 and snapshot.unexplained == 3
