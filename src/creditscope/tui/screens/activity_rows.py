"""What Activity's table lists, and how each row reads: this session's calls (full
records, in memory), then past sessions' calls from the history (``PastPages``),
newest first, with a divider row where the session changes and a last row that
loads more."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from creditscope.client.history import params_text
from creditscope.tui import prices

if TYPE_CHECKING:
    from creditscope.client.history import CallHistory, HistoryEntry
    from creditscope.client.records import CallRecord

COLUMNS = (("Time", "time"), ("Operation", "operation"), ("Status", "status"),
           ("Credits", "credits"), ("Cache", "cache"), ("Latency", "latency"),
           ("Params", "params"))


@dataclass(frozen=True)
class SessionDivider:
    """The row above a session's calls."""

    session: str
    newest: datetime  # its newest listed call
    current: bool


@dataclass(frozen=True)
class MorePast:
    """The last row when older calls match too: selecting it loads the next page."""

    before_id: int


def key_params(params: dict[str, Any], width: int = 34) -> str:
    """``location=Paris cuisine=thai``, shortened to ``width``."""
    text = params_text(params)
    return text if len(text) <= width else text[: width - 1] + "…"


def format_latency(ms: float) -> str:
    """Latency as the table shows it."""
    return f"{ms:,.0f} ms" if ms >= 1 else "<1 ms"


def status_text(record: CallRecord | HistoryEntry) -> str:
    """HTTP status, or the error code when nothing came back."""
    if record.status is not None and record.error_code:
        return f"{record.status} {record.error_code}"
    if record.status is not None:
        return str(record.status)
    return record.error_code or "—"


def labelled(label: str | None, params: dict[str, Any]) -> str:
    """The params cell: the ticket label first, when the call has one."""
    return f"{label} · {key_params(params, 34 - len(label) - 3)}" if label else key_params(params)


def arrange(records: list[CallRecord], past: list[HistoryEntry], session: str,
            more: bool) -> list[object]:
    """The table's items: this session's calls, then each past session under its
    divider (dividers only once past calls are listed), then "more" if there is more."""
    items: list[object] = []
    if past and records:
        items.append(SessionDivider(session, records[0].started_at, True))
    items += records
    shown_session = None
    for entry in past:
        if entry.session != shown_session:
            shown_session = entry.session
            items.append(SessionDivider(entry.session, entry.at, False))
        items.append(entry)
    if more and past:
        items.append(MorePast(past[-1].id))
    return items


NARROW_OPERATION = 22
"""An operation's widest cell on a narrow terminal: with it, Time to Latency fit 80 columns
("professional_network/find_company" pushed Latency off the edge, read as "71 m")."""


def fit_operation(name: str, width: int | None) -> str:
    """``name`` in at most ``width`` cells, its last part (what tells operations of one group
    apart) kept whole: ``professi…/find_company``."""
    if width is None or len(name) <= width:
        return name
    group, _, last = name.rpartition("/")
    head = width - len(last) - 2  # the "…/" between them
    if not group or head < 1:
        return name[: width - 1] + "…"
    return f"{group[:head]}…/{last}"


def row_cells(item: object, operation_width: int | None = None) -> tuple[str, ...]:
    """The seven cells of ``item``'s row (its operation cut to ``operation_width``)."""
    from creditscope.client.history import HistoryEntry
    from creditscope.client.records import CallRecord

    if isinstance(item, CallRecord):
        return (item.started_at.astimezone().strftime("%H:%M:%S"),
                fit_operation(item.operation, operation_width),
                status_text(item), prices.charged_text(item), str(item.cache),
                format_latency(item.latency_ms), labelled(item.label, item.params))
    if isinstance(item, HistoryEntry):
        return (item.at.astimezone().strftime("%m-%d %H:%M"),
                fit_operation(item.operation, operation_width),
                status_text(item), prices.charged_text(item), item.cache, "—",
                labelled(item.label, item.params))
    if isinstance(item, SessionDivider):
        when = item.newest.astimezone().strftime("%a %d %b %H:%M")
        title = "This session" if item.current else f"Session · {when}"
        return ("────────", f"── {title} ──", "", "", "", "", "")
    if isinstance(item, MorePast):
        return ("", "▼ Older calls: Enter loads more", "", "", "", "", "")
    raise TypeError(f"not an Activity row: {item!r}")


class PastPages:
    """Past sessions' calls loaded so far for one search, newest first, a page at a time."""

    def __init__(self) -> None:
        self.entries: list[HistoryEntry] = []
        self.more = False  # older calls match too
        self.search: str | None = None  # the search they were loaded for (None: stale)

    def load(self, history: CallHistory, search: str, session: str, *,
             older: bool = False) -> None:
        """The first page for ``search`` (this session left out), or with ``older`` the
        next one."""
        from creditscope.client.history import DEFAULT_PAGE, HistoryQuery

        before = self.entries[-1].id if older and self.entries else None
        found = history.find(HistoryQuery(search=search, before_id=before,
                                          exclude_session=session, limit=DEFAULT_PAGE + 1))
        self.more = len(found) > DEFAULT_PAGE
        self.entries = (self.entries if older else []) + found[:DEFAULT_PAGE]
        self.search = search

    def replace(self, changed: HistoryEntry) -> None:
        """Show ``changed`` (e.g. newly labelled) in place of the entry with its id."""
        self.entries = [changed if entry.id == changed.id else entry for entry in self.entries]
