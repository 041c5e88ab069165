"""Usage's two charts, drawn by plotext through textual-plotext's ``PlotextPlot``.

textual-plotext is Textualize's own widget over plotext: it sizes the plot to the
widget on every render and follows the app's theme for the plot's background and
text; the bars take their colours from the theme's variables here, so both charts
read in the dark and the light theme. Each chart keeps its figures and redraws
them on every render, so a resize fits them again (fewer day labels when narrow).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from textual.app import RenderResult
from textual.color import Color
from textual_plotext import PlotextPlot

from creditscope.client.usage import Bucket, Period, Usage, period_label

RGB = tuple[int, int, int]
Y_AXIS_COLUMNS = 6  # the y labels, the axis and the frame, beside the bars
MAX_Y_TICKS = 4
MAX_OPERATION_BARS = 8  # with its frame, the chart fits the 80x24 layout


@dataclass(frozen=True)
class Series:
    """One chart's figures: a label and spent / saved credits per bar."""

    labels: list[str]
    spent: list[int]
    saved: list[int]


def window_start(now: datetime, period: Period, count: int) -> datetime:
    """The first of the last ``count`` whole days or hours up to ``now`` (UTC)."""
    now = now.astimezone(UTC)  # periods are UTC days and hours, as their labels say
    if period == "day":
        today = now.replace(hour=0, minute=0, second=0, microsecond=0)
        return today - timedelta(days=count - 1)
    return now.replace(minute=0, second=0, microsecond=0) - timedelta(hours=count - 1)


def over_time(usage: Usage, start: datetime, count: int) -> Series:
    """One bar per day or hour from ``start``, zero where nothing was spent; labels are
    the day of the month or the hour of the day."""
    step = timedelta(days=1) if usage.period == "day" else timedelta(hours=1)
    by_label = {bucket.label: bucket for bucket in usage.periods}
    moments = [start + step * index for index in range(count)]
    buckets = [by_label.get(period_label(moment, usage.period), Bucket("")) for moment in moments]
    return Series(
        labels=[f"{moment:%d}" if usage.period == "day" else f"{moment:%H}" for moment in moments],
        spent=[bucket.spent for bucket in buckets],
        saved=[bucket.saved for bucket in buckets],
    )


def short_operation(name: str) -> str:
    """``restaurants/search`` -> ``search``: the part that differs (each is unique)."""
    return name.rsplit("/", 1)[-1]


def by_operation(usage: Usage, most: int = MAX_OPERATION_BARS) -> Series:
    """One bar per operation, most spent on top, its credits beside its name; past
    ``most`` bars, the least spent are added up as "others" (the chart stays short)."""
    buckets = list(usage.operations)
    if len(buckets) > most:
        others = Bucket("others")
        others.spent = sum(bucket.spent for bucket in buckets[most - 1:])
        others.saved = sum(bucket.saved for bucket in buckets[most - 1:])
        buckets = [*buckets[:most - 1], others]
    ordered = list(reversed(buckets))  # plotext draws the first label lowest
    return Series(
        labels=[f"{short_operation(b.label)} {b.spent}" for b in ordered],
        spent=[bucket.spent for bucket in ordered],
        saved=[bucket.saved for bucket in ordered],
    )


def integer_ticks(top: int, most: int = MAX_Y_TICKS) -> list[int]:
    """Round, whole-credit ticks from 0 that reach ``top``: 0 5 10 15, 0 20 40…"""
    if top <= 0:
        return [0, 1]
    raw = top / (most - 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return list(range(0, top + step, step))[:most + 1]


def every_nth(count: int, label_width: int, room: int) -> int:
    """Show one label in n so that labels (and a space each) fit in ``room`` columns."""
    return max(1, math.ceil(count * (label_width + 1) / max(room, 1)))


class UsageChart(PlotextPlot):
    """A bar chart of a :class:`Series`, in the theme's colours."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.series = Series([], [], [])

    def show(self, series: Series) -> None:
        """Draw ``series`` from the next render on."""
        self.series = series
        self.refresh()

    def render(self) -> RenderResult:
        """The bars, fitted to the widget's size now."""
        self.plt.clear_figure()
        if self.series.labels:
            self.draw()
        return super().render()

    def colour(self, variable: str) -> RGB:
        """A theme variable (``primary``, ``success``) as plotext's RGB."""
        return Color.parse(self.app.theme_variables[variable]).rgb

    def draw(self) -> None:
        """Draw ``self.series`` on the plotext figure. Override."""


class SpendOverTimeChart(UsageChart):
    """Credits spent (and saved by the cache, stacked on top) per day or hour."""

    def draw(self) -> None:
        """Stacked bars; y ticks in whole credits; as many x labels as fit."""
        series = self.series
        positions = list(range(len(series.labels)))
        plot = self.plt
        plot.stacked_bar(positions, [series.spent, series.saved], width=0.5,
                         # plotext's stub types one colour; a list colours each layer
                         color=[self.colour("primary"), self.colour("success")])  # type: ignore[arg-type]
        ticks = integer_ticks(max(s + v for s, v in zip(series.spent, series.saved, strict=True)))
        plot.yticks([float(tick) for tick in ticks], [str(tick) for tick in ticks])
        plot.ylim(0, ticks[-1])
        nth = every_nth(len(positions), 2, self.size.width - Y_AXIS_COLUMNS)
        plot.xticks([float(at) for at in positions[::nth]], series.labels[::nth])


class SpendByOperationChart(UsageChart):
    """Credits spent per operation, one row per operation (its height follows their count)."""

    FRAME_ROWS = 3  # the frame's top and bottom, and the x labels

    def show(self, series: Series) -> None:
        """One row per bar: plotext aligns a label with its bar only then."""
        self.styles.height = len(series.labels) + self.FRAME_ROWS
        super().show(series)

    def draw(self) -> None:
        """Horizontal bars, the name and credits of each beside it."""
        series = self.series
        plot = self.plt
        plot.bar(series.labels, series.spent, orientation="horizontal", width=0.4,
                 color=self.colour("primary"))
        top = integer_ticks(max(series.spent), 3)
        plot.xticks([float(tick) for tick in top], [str(tick) for tick in top])
        plot.xlim(0, top[-1])

