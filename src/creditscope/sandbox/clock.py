"""The sandbox's notion of "now" and the weekly anchor its data hangs from.

Event dates and review dates are laid out relative to the anchor: Monday 00:00
UTC of the current week. So a given request answers identically all week (and
across restarts), while dates still look current.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


def now(frozen: datetime | None = None) -> datetime:
    """The current UTC time, or the frozen time when one is configured."""
    if frozen is None:
        return datetime.now(UTC)
    return frozen if frozen.tzinfo else frozen.replace(tzinfo=UTC)


def week_anchor(moment: datetime) -> datetime:
    """Monday 00:00 UTC of the week containing ``moment``."""
    moment = moment.astimezone(UTC)
    monday = moment - timedelta(days=moment.weekday())
    return monday.replace(hour=0, minute=0, second=0, microsecond=0)
