"""Usage: where the credits went, from the ledger (every session, not only this one),
on the configured account (service and key) alone, as ``creditscope credits`` shows it:
another key's calls written to the same ledger file are named, not counted.

Spend per day (or hour) and per operation as charts, what the cache saved, calls by
outcome and how company lookups graded. The figures are
:func:`creditscope.client.usage.usage_of` over the ledger's rows, as
``creditscope credits --by`` prints them; reading them costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from creditscope.tui.host import host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.widgets.usage_charts import (
    SpendByOperationChart,
    SpendOverTimeChart,
    by_operation,
    over_time,
    window_start,
)
from creditscope.wording import counted

if TYPE_CHECKING:
    from creditscope.client.usage import Period, Usage, UsageRow

WINDOWS: dict[Period, tuple[int, str]] = {"day": (14, "days"), "hour": (24, "hours")}
OUTCOME_COLOURS = {"ok": "success", "error": "error", "refused": "text-muted",
                   "unexplained": "warning"}
EMPTY = (
    "[b]Nothing spent yet.[/b]\n\n"
    "Every call is counted here, from this explorer and from [b]creditscope call[/b] or"
    " [b]batch[/b]: look up events ([b]1[/b]), a company ([b]2[/b]) or restaurants"
    " ([b]3[/b]), and this page shows where the credits went, day by day and per"
    " operation, and what the cache saved."
)


class UsageScreen(AreaScreen):
    """Charts and figures of the credits spent, saved and wasted."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "toggle_period", "Per hour / day", id="usage.toggle_period"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.period: Period = "day"
        self.rows: list[UsageRow] = []  # the last 14 days'
        self.anything_recorded = False  # the account has a call, maybe an older one
        self.other_accounts = 0  # accounts in the ledger file not counted here
        self._stale = False  # a call was recorded while another screen was shown

    def compose_body(self) -> ComposeResult:
        """Summary line, the two charts side by side, outcomes and grades below."""
        yield Static("", id="usage-accounts", classes="usage-accounts")
        yield Static("", id="usage-summary", classes="usage-summary")
        with Horizontal(id="usage-charts"):
            with Vertical(classes="usage-chart-box"):
                yield Static("", id="usage-time-title", classes="usage-chart-title")
                yield SpendOverTimeChart(id="usage-over-time")
            with Vertical(id="usage-operation-box", classes="usage-chart-box"):
                yield Static("Credits spent per operation", classes="usage-chart-title")
                yield SpendByOperationChart(id="usage-by-operation")
        yield Static("", id="usage-outcomes", classes="usage-figures")
        yield Static("", id="usage-grades", classes="usage-figures")
        yield Static(EMPTY, id="usage-empty", classes="empty")

    def on_mount(self) -> None:
        """Read the ledger now, and again after a recorded call: at once while Usage is
        on screen, else when it is next shown (a call elsewhere reads nothing here)."""
        host = host_of(self)
        host.signals.client_ready.subscribe(self, lambda _: self._ledger_changed())
        host.signals.credits_changed.subscribe(self, lambda _: self._ledger_changed())
        self.reload()

    def _ledger_changed(self) -> None:
        if self.is_current:
            self.reload()
        else:
            self._stale = True

    def on_screen_resume(self) -> None:
        """Shown again: catch up with the calls made elsewhere meanwhile (Textual also
        runs the base screen's handler: every class's ``on_`` method is called)."""
        if self._stale:
            self._stale = False
            self.reload()

    def on_unmount(self) -> None:
        """Stop following the ledger."""
        host_of(self).signals.unsubscribe(self)

    @work(exclusive=True, group="usage", description="Reading the ledger")
    async def reload(self) -> None:
        """Read the configured account's rows of the longest window (on the store's
        thread: a file may hold years of calls), whether it has any call at all, and how
        many other accounts the file holds."""
        host = host_of(self)
        client = host.client
        if client is None:
            return
        count, _ = WINDOWS["day"]  # the 24 hours are inside the 14 days
        ledger, account = client.ledger, client.account
        since = window_start(host.clock(), "day", count)
        rows, accounts = await client.store.run(
            lambda: (ledger.usage_rows(since=since, account=account), ledger.accounts()))
        others = len([other for other in accounts if other != account])
        # After the next refresh: read on mount, the rows may come back before the
        # charts nested in the screen's containers are mounted.
        self.call_after_refresh(self._show_rows, rows, account in accounts, others)

    def _show_rows(self, rows: list[UsageRow], anything_recorded: bool, others: int) -> None:
        if anything_recorded != self.anything_recorded:
            self.refresh_bindings()  # ``d`` comes with the first call
        self.rows = rows
        self.anything_recorded = anything_recorded
        self.other_accounts = others
        self.show()

    def show(self) -> None:
        """Draw the figures of the window (the last 14 days, or 24 hours) from the rows."""
        from creditscope.client.usage import usage_of

        accounts_line = self.query_one("#usage-accounts", Static)
        accounts_line.display = self.other_accounts > 0
        accounts_line.update(accounts_markup(self.other_accounts))
        empty = not self.anything_recorded
        for selector in ("#usage-summary", "#usage-charts", ".usage-figures"):
            for widget in self.query(selector):
                widget.display = not empty
        self.query_one("#usage-empty").display = empty
        if empty:
            return
        count, unit = WINDOWS[self.period]
        start = window_start(host_of(self).clock(), self.period, count)
        usage = usage_of(self.rows, self.period, since=start)
        self.query_one("#usage-summary", Static).update(summary_markup(usage, count, unit))
        self.query_one("#usage-time-title", Static).update(window_title(usage, start, count))
        self.query_one(SpendOverTimeChart).show(over_time(usage, start, count))
        self.query_one(SpendByOperationChart).show(by_operation(usage))
        self.query_one("#usage-outcomes", Static).update(outcomes_markup(usage))
        self.query_one("#usage-grades", Static).update(grades_markup(usage))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``d`` is offered only when there is something to chart."""
        if action == "toggle_period":
            return self.anything_recorded
        return super().check_action(action, parameters)

    def action_toggle_period(self) -> None:
        """``d``: the last 24 hours per hour, or the last 14 days per day."""
        self.period = "hour" if self.period == "day" else "day"
        self.show()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Usage's actions for the command palette."""
        yield PaletteCommand("Usage per hour / per day", "The last 24 hours or 14 days",
                             self.action_toggle_period)


def summary_markup(usage: Usage, count: int, unit: str) -> str:
    """``Last 14 days: █ N cr spent · █ M cr saved by the cache (K answers)``,
    its squares in the colours of the bars (the chart's legend)."""
    total = usage.total
    if usage.is_empty:
        return (f"[b]Last {count} {unit}:[/b] no calls; older ones are counted by"
                " [b]creditscope credits --by day[/b].")
    return (f"[b]Last {count} {unit}:[/b]  [$primary]█[/] {total.spent} cr spent · "
            f"[$success]█[/] {total.saved} cr saved by the cache"
            f" ({counted(total.cached, 'answer')})")


def accounts_markup(others: int) -> str:
    """Says that the figures are the configured account's, and where the others are."""
    return (f"[b]This account only[/b] (the service and key in Settings): the ledger also"
            f" holds {counted(others, 'other account')}, not counted here;"
            " [b]creditscope credits --all[/b] shows each apart.")


def window_title(usage: Usage, start: datetime, count: int) -> str:
    """``Per day, 01–14 Mar (UTC)`` or ``Per hour, 13 Mar 13:00–12:00 (UTC)``: short
    enough for the chart's half of an 80-column screen (the end is the next day's)."""
    if usage.period == "day":
        end = start + timedelta(days=count - 1)
        return f"Per day, {start:%d %b}–{end:%d %b} (UTC)"
    end = start + timedelta(hours=count - 1)
    return f"Per hour, {start:%d %b %H:00}–{end:%H:00} (UTC)"


def outcomes_markup(usage: Usage) -> str:
    """Calls by outcome, each with its colour."""
    parts = [f"[${OUTCOME_COLOURS[name]}]█[/] {name} {count}"
             for name, count in usage.total.outcomes.items()]
    return f"[b]Calls[/b] ({usage.total.calls})  " + "  ".join(parts)


def grades_markup(usage: Usage) -> str:
    """Company lookups by grade, as shares of those graded."""
    from creditscope.client.usage import GRADE_NAMES

    if not usage.graded:
        return "[b]Company lookups[/b]  none in this window"
    parts = [f"{GRADE_NAMES[grade]} {usage.grade_percent(grade)}%" for grade in usage.grades]
    return f"[b]Company lookups[/b] ({usage.graded})  " + " · ".join(parts)
