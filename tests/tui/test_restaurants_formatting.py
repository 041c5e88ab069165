"""How restaurant data reads: stars, price levels, money, opening hours, rating histogram."""

from __future__ import annotations

from datetime import datetime

import pytest

from creditscope.tui.screens.restaurants import formatting as fmt


@pytest.mark.parametrize(
    ("rating", "expected"),
    [
        (4.3, "★★★★☆"),
        (4.5, "★★★★★"),
        (0.0, "☆☆☆☆☆"),
        (5.0, "★★★★★"),
        (7.0, "★★★★★"),
        (None, "☆☆☆☆☆"),
    ],
)
def test_stars_round_to_the_nearest_whole_star(rating: float | None, expected: str) -> None:
    assert fmt.stars(rating) == expected


def test_rating_label_shows_stars_and_number() -> None:
    assert fmt.rating_label(3.96) == "★★★★☆ 4.0"
    assert fmt.rating_label(None) == "no rating"


def test_price_level_uses_the_local_symbol_and_keeps_the_rest_of_the_scale() -> None:
    assert fmt.price_level(2, fmt.currency_symbol("EUR")) == ("€€", "€€")
    assert fmt.price_level(4, "£") == ("££££", "")
    assert fmt.price_level(None) == ("", "")
    assert fmt.currency_symbol("CHF") == "$"  # no one-character symbol: dollars read as "cost"
    assert fmt.currency_symbol("JPY") == "¥"


@pytest.mark.parametrize(
    ("amount", "currency", "expected"),
    [
        (12.5, "EUR", "€12.50"),
        (1200, "JPY", "¥1,200"),
        (45, "SEK", "45.00 kr"),
        (9.99, "XYZ", "9.99 XYZ"),
        (None, "EUR", "—"),
        (3, None, "3.00"),
    ],
)
def test_menu_prices_are_written_in_the_menus_currency(
    amount: float | None, currency: str | None, expected: str
) -> None:
    assert fmt.format_money(amount, currency) == expected


def test_hours_table_runs_monday_to_sunday_and_marks_today() -> None:
    hours = {"sunday": "10:00-16:00", "monday": "09:00-22:30", "Tue": "09:00-24:00"}
    wednesday = datetime(2025, 6, 11, 12, 0)
    rows = fmt.hours_rows(hours, wednesday)
    assert [row.day for row in rows] == list(fmt.WEEKDAYS)
    assert rows[0].hours == "09:00–22:30"
    assert rows[1].hours == "09:00–24:00"
    assert rows[2].hours == "closed" and rows[2].is_today
    assert [row.is_today for row in rows].count(True) == 1


def test_hours_keys_that_are_not_weekdays_are_listed_after_the_week() -> None:
    rows = fmt.hours_rows(
        {"monday": "09:00-17:00", "holidays": "by appointment"}, datetime(2025, 6, 9)
    )
    assert rows[-1] == fmt.HoursRow("holidays", "by appointment", False)


@pytest.mark.parametrize(
    ("moment", "expected"),
    [
        (datetime(2025, 6, 9, 8, 59), False),  # Monday before opening
        (datetime(2025, 6, 9, 9, 0), True),
        (datetime(2025, 6, 9, 22, 29), True),
        (datetime(2025, 6, 9, 22, 30), False),
        (datetime(2025, 6, 13, 23, 0), True),  # Friday, overnight opening
        (datetime(2025, 6, 14, 1, 30), True),  # Saturday small hours: still Friday's
        (datetime(2025, 6, 14, 2, 0), False),
        (datetime(2025, 6, 15, 12, 0), False),  # Sunday: not listed, so closed
    ],
)
def test_open_now_follows_the_hours_including_past_midnight(
    moment: datetime, expected: bool
) -> None:
    hours = {"monday": "09:00-22:30", "friday": "18:00-02:00", "saturday": "closed"}
    assert fmt.is_open(hours, moment) is expected


def test_open_now_is_unknown_without_weekday_hours() -> None:
    assert fmt.is_open({}, datetime(2025, 6, 9)) is None
    assert fmt.is_open({"always": "24/7"}, datetime(2025, 6, 9)) is None


def test_rating_histogram_counts_every_star_highest_first() -> None:
    counts = fmt.rating_histogram([5, 4, 5, 1, None, 9])
    assert list(counts) == [5, 4, 3, 2, 1]
    assert counts == {5: 2, 4: 1, 3: 0, 2: 0, 1: 1}


def test_histogram_bars_are_proportional_and_never_hide_a_vote() -> None:
    assert fmt.histogram_bar(10, 10, width=20) == "█" * 20
    assert fmt.histogram_bar(1, 100, width=20) == "█"
    assert fmt.histogram_bar(0, 10) == ""
