"""Where the credits went: the ledger's rows as the figures Usage and ``credits --by`` show.

One pure function, :func:`usage_of`, turns ledger rows (:class:`UsageRow`, read by
``CreditLedger.usage_rows``) into spend and savings per day or hour and per
operation, calls by outcome, and the grades of company lookups. The explorer's
Usage area and the CLI both call it, so they cannot disagree with each other, and
its totals are the ledger's own (``tests/client/test_usage.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from creditscope.client.records import OVERSTATED, UNEXPLAINED
from creditscope.operations import NO_MATCH, OTHER_GRADE

Period = Literal["day", "hour"]
Outcome = Literal["ok", "error", "refused", "unexplained"]
OUTCOMES: tuple[Outcome, ...] = ("ok", "error", "refused", "unexplained")
GRADES = ("high", "medium", "low", NO_MATCH)  # NO_MATCH: the lookup found no match
GRADE_NAMES = {"high": "high", "medium": "medium", "low": "low", NO_MATCH: "no match",
               OTHER_GRADE: "other"}
_CACHED = frozenset({"hit", "stale"})


@dataclass(frozen=True)
class UsageRow:
    """One ledger row, as much of it as Usage reads (never params, bodies or the key)."""

    at: datetime
    operation: str
    status: int | None
    cache: str
    credits_charged: int
    credits_saved: int
    error_code: str | None
    attempts: int | None  # None in rows from before the ledger kept it
    match_grade: str | None

    @property
    def outcome(self) -> Outcome:
        """ok; refused (stopped before sending: invalid, offline, no key); error (sent,
        and failed or never answered); unexplained (a balance fall no call explains)."""
        if self.operation in (UNEXPLAINED, OVERSTATED):
            return "unexplained"
        if self.error_code is None and (self.status is None or self.status < 400):
            return "ok"
        if self.status is None and self.attempts == 0:
            return "refused"
        return "error"


@dataclass
class Bucket:
    """The figures of one day, one hour, one operation, or everything."""

    label: str
    calls: int = 0
    spent: int = 0
    saved: int = 0  # credits the cache saved: answers served from it x their price
    cached: int = 0  # answers served from the cache
    outcomes: dict[Outcome, int] = field(default_factory=lambda: dict.fromkeys(OUTCOMES, 0))

    def add(self, row: UsageRow) -> None:
        """Count one row."""
        self.calls += 1
        self.spent += row.credits_charged
        self.saved += row.credits_saved
        self.cached += row.cache in _CACHED
        self.outcomes[row.outcome] += 1


@dataclass
class Usage:
    """Spend over time and by operation, outcomes and lookup grades, since a moment."""

    period: Period
    since: datetime | None
    periods: list[Bucket]  # oldest first; only periods with calls
    operations: list[Bucket]  # most spent first
    total: Bucket
    grades: dict[str, int]  # company lookups the service answered, by grade

    @property
    def is_empty(self) -> bool:
        """Nothing recorded in the window."""
        return self.total.calls == 0

    @property
    def graded(self) -> int:
        """Company lookups with a grade."""
        return sum(self.grades.values())

    def grade_percent(self, grade: str) -> int:
        """The share of graded lookups with ``grade``, in whole percent."""
        return round(100 * self.grades.get(grade, 0) / self.graded) if self.graded else 0


def period_label(at: datetime, period: Period) -> str:
    """``2025-03-14`` for a day, ``2025-03-14 12:00`` for an hour (UTC)."""
    moment = at.astimezone(UTC)
    return f"{moment:%Y-%m-%d}" if period == "day" else f"{moment:%Y-%m-%d %H}:00"


def usage_of(rows: Iterable[UsageRow], period: Period = "day",
             since: datetime | None = None) -> Usage:
    """The figures of ``rows`` from ``since`` on (all when None), per ``period`` (UTC)."""
    periods: dict[str, Bucket] = {}
    operations: dict[str, Bucket] = {}
    total = Bucket("total")
    grades: Counter[str] = Counter()
    for row in rows:
        if since is not None and row.at < since:
            continue
        label = period_label(row.at, period)
        for bucket in (periods.setdefault(label, Bucket(label)),
                       operations.setdefault(row.operation, Bucket(row.operation)), total):
            bucket.add(row)
        if row.match_grade is not None and row.cache not in _CACHED:
            # a cache hit is the same answer again: each lookup is graded once
            grades[row.match_grade if row.match_grade in GRADES else OTHER_GRADE] += 1
    ordered_grades = {grade: grades[grade] for grade in GRADES}
    if grades[OTHER_GRADE]:
        ordered_grades[OTHER_GRADE] = grades[OTHER_GRADE]
    return Usage(
        period=period,
        since=since,
        periods=[periods[label] for label in sorted(periods)],
        operations=sorted(operations.values(), key=lambda b: (-b.spent, -b.calls, b.label)),
        total=total,
        grades=ordered_grades,
    )
