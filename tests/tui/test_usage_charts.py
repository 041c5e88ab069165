"""The charts' figures: a bar per day or hour with gaps at zero, operations folded past
eight, round whole-credit ticks, and as many labels as fit."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from creditscope.client.usage import UsageRow, usage_of
from creditscope.tui.widgets.usage_charts import (
    by_operation,
    every_nth,
    integer_ticks,
    over_time,
    window_start,
)

NOW = datetime(2025, 3, 14, 12, 30, tzinfo=UTC)


def _row(at: datetime, operation: str = "restaurants/search", spent: int = 2,
         saved: int = 0) -> UsageRow:
    return UsageRow(at, operation, 200, "hit" if saved else "miss", spent, saved, None, 1, None)


def test_days_without_calls_are_bars_at_zero_labelled_by_day_of_month() -> None:
    start = window_start(NOW, "day", 3)
    assert start == datetime(2025, 3, 12, tzinfo=UTC)
    usage = usage_of([_row(start, spent=3), _row(NOW, spent=0, saved=5)], "day", start)
    series = over_time(usage, start, 3)
    assert (series.labels, series.spent, series.saved) == (["12", "13", "14"], [3, 0, 0],
                                                           [0, 0, 5])


def test_hours_are_utc_whatever_the_clock_zone() -> None:
    lisbon_summer = NOW.astimezone(timezone(timedelta(hours=1)))
    start = window_start(lisbon_summer, "hour", 2)
    series = over_time(usage_of([_row(NOW)], "hour", start), start, 2)
    assert series.labels == ["11", "12"] and series.spent == [0, 2]


def test_operations_past_eight_are_added_up_as_others() -> None:
    rows = [_row(NOW, f"group/op{index}", spent=index + 1) for index in range(10)]
    series = by_operation(usage_of(rows))
    assert len(series.labels) == 8
    assert series.labels[-1] == "op9 10"  # the most spent on top (plotext's last row)
    assert series.labels[0] == "others 6" and series.spent[0] == 1 + 2 + 3


def test_ticks_are_round_whole_credits_and_labels_thin_out_when_narrow() -> None:
    assert integer_ticks(20) == [0, 10, 20]
    assert integer_ticks(77) == [0, 50, 100]
    assert integer_ticks(7) == [0, 5, 10]
    assert integer_ticks(0) == [0, 1]
    assert every_nth(14, 2, 70) == 1
    assert every_nth(14, 2, 30) == 2
    assert every_nth(24, 2, 30) == 3


def test_the_window_titles_fit_their_half_of_an_80_column_screen() -> None:
    from creditscope.client.usage import Period
    from creditscope.tui.screens.usage import window_title

    windows: tuple[tuple[Period, int], ...] = (("day", 14), ("hour", 24))
    for period, count in windows:
        start = window_start(NOW, period, count)
        title = window_title(usage_of([], period, start), start, count)
        assert len(title) <= 36, title  # (80 - margins) / 2: one line, the chart not pushed
    assert title == "Per hour, 13 Mar 13:00–12:00 (UTC)"
