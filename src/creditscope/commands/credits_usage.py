"""``creditscope credits --by day|hour|operation``: the Usage area's figures as a table,
CSV or JSON (from :func:`creditscope.client.usage.usage_of`, as the explorer shows them)."""

from __future__ import annotations

import io
import json
from dataclasses import asdict
from typing import Literal

from creditscope.client.usage import GRADE_NAMES, OUTCOMES, Bucket, Usage
from creditscope.spreadsheet_cells import TableWriter
from creditscope.wording import counted

Grouping = Literal["day", "hour", "operation"]
HEADER = ("calls", "spent", "saved", "cached", *OUTCOMES)


def _thousands(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def buckets_of(usage: Usage, by: Grouping) -> list[Bucket]:
    """The rows ``--by`` asks for: periods oldest first, or operations most spent first."""
    return usage.operations if by == "operation" else usage.periods


def _cells(bucket: Bucket) -> tuple[int, ...]:
    return (bucket.calls, bucket.spent, bucket.saved, bucket.cached,
            *(bucket.outcomes[outcome] for outcome in OUTCOMES))


def usage_csv(usage: Usage, by: Grouping) -> str:
    """One CSV line per period or operation (no total line: a spreadsheet sums)."""
    out = io.StringIO()
    writer = TableWriter(out)
    writer.writerow((by, *HEADER))
    for bucket in buckets_of(usage, by):
        writer.writerow((bucket.label, *_cells(bucket)))
    return out.getvalue()


def usage_json(usage: Usage, by: Grouping) -> str:
    """The rows, the total and the lookups' grades as JSON."""
    return json.dumps({
        "by": by,
        "since": usage.since.isoformat() if usage.since else None,
        "rows": [asdict(bucket) for bucket in buckets_of(usage, by)],
        "total": asdict(usage.total),
        "company_lookup_grades": usage.grades,
    }, indent=2)


def usage_table(usage: Usage, by: Grouping) -> list[str]:
    """Aligned rows, the total, then what the cache saved, outcomes and grades in words."""
    header = (by if by == "operation" else f"{by} (UTC)", *HEADER)
    rows = [(b.label, *(_thousands(cell) for cell in _cells(b))) for b in buckets_of(usage, by)]
    rows.append(("total", *(_thousands(cell) for cell in _cells(usage.total))))
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                       for i, cell in enumerate(row)) for row in [header, *rows]]
    total = usage.total
    lines += ["", f"Saved by the cache: {_thousands(total.saved)} credits"
                  f" ({counted(total.cached, 'answer', grouped=True)} served from it,"
                  " each at its price)."]
    lines.append("Calls by outcome: " + ", ".join(
        f"{name} {_thousands(total.outcomes[name])}" for name in OUTCOMES) + ".")
    if usage.graded:
        lines.append(f"Company lookups ({usage.graded}): " + ", ".join(
            f"{GRADE_NAMES[grade]} {count} ({usage.grade_percent(grade)}%)"
            for grade, count in usage.grades.items()) + ".")
    return lines
