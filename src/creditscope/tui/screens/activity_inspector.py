"""What Activity's inspector shows for the selected call.

A call of this session: its request and headers (key masked) and the answer as
received. A call of a past session: the request as the history keeps it (no
headers: they are never stored) and its answer reopened from the cache, free;
or, when the cache no longer holds a fresh copy, why, and what the re-fetch
costs. Nothing here sends anything: the Re-fetch button does, when pressed."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from creditscope.outside_text import markup_escaped
from creditscope.tui import prices
from creditscope.tui.screens.activity_rows import format_latency, status_text

if TYPE_CHECKING:
    from creditscope.client.client import DataClient
    from creditscope.client.history import HistoryEntry
    from creditscope.client.records import CallRecord


_CREDIT_HEADERS = ("x-credits-charged", "x-credits-remaining", "x-credits-cost", "x-request-id",
                   "retry-after")


@dataclass(frozen=True)
class Inspected:
    """What the inspector shows for one call."""

    request: str  # markup
    response: str  # markup
    body: str | None  # the answer: as received, or from the cache when fresh
    refetch: bool = False  # the priced Re-fetch button is offered (a past call)
    refused: str | None = None  # why the client refuses to send it now (a past call)


def inspect_record(record: CallRecord) -> Inspected:
    """A call of this session: request, headers (key masked), status, credits, answer."""
    request = [f"[b]{record.method}[/b] {markup_escaped(record.url)}"]
    if record.method.upper() == "POST":
        body = json.dumps(record.params, ensure_ascii=False)
        request.append("[$text-muted]body[/$text-muted] " + markup_escaped(body))
    elif record.params:
        request += [f"[$text-muted]{markup_escaped(k)}[/$text-muted] = {markup_escaped(str(v))}"
                    for k, v in record.params.items()]
    if record.label:
        request.append(f"[$text-muted]label[/$text-muted] {markup_escaped(record.label)}")
    request.append("")
    request += [f"[$text-muted]{markup_escaped(k)}:[/$text-muted] {markup_escaped(v)}"
                for k, v in record.request_headers.items()]
    response = [
        f"[b]{status_text(record)}[/b] · {prices.charged_text(record)} · cache {record.cache}"
        f" · {format_latency(record.latency_ms)}",
    ]
    if record.error_message:
        response.append(f"[red]{markup_escaped(record.error_message)}[/red]")
    if record.note:  # an unexplained difference: what it is and which answer showed it
        response.append(f"[yellow]{markup_escaped(record.note)}[/yellow]")
    if record.revealed_by:
        response.append(f"[$text-muted]revealed by the answer to:[/$text-muted] "
                        f"{markup_escaped(record.revealed_by)}")
    headers = {k.lower(): v for k, v in record.response_headers.items()}
    response += [f"[$text-muted]{name}:[/$text-muted] {markup_escaped(headers[name])}"
                 for name in _CREDIT_HEADERS if name in headers]
    if record.remaining is not None and "x-credits-remaining" not in headers:
        response.append(f"[$text-muted]remaining:[/$text-muted] {record.remaining}")
    return Inspected("\n".join(request), "\n".join(response), record.raw_body)


def _when(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).astimezone().strftime("%Y-%m-%d %H:%M")


async def reopen(client: DataClient, entry: HistoryEntry) -> Inspected:
    """``entry`` in the inspector: its request, and its answer from the cache if fresh
    (read on the store's thread)."""
    from creditscope.client.errors import InvalidRequest

    lines = [f"[$text-muted]{entry.at.astimezone():%Y-%m-%d %H:%M:%S} · session "
             f"{entry.session[:8]}[/$text-muted]"]
    if entry.label:
        lines.append(f"[$text-muted]label[/$text-muted] {markup_escaped(entry.label)}")
    if not entry.can_reopen:
        return Inspected("\n".join(lines), "A balance difference, not a call.", None, False)
    refusal = None
    try:
        plan = client.plan(entry.operation, entry.params)
        lines.insert(0, f"[b]{plan.method}[/b] {markup_escaped(plan.url)}")
    except InvalidRequest as refused:
        refusal = refused.message
        lines.insert(0, f"[b]{entry.method}[/b] {markup_escaped(entry.operation)}")
        lines.append(f"[red]{markup_escaped(refusal)}[/red]")
    lines += [f"[$text-muted]{markup_escaped(k)}[/$text-muted] = {markup_escaped(str(v))}"
              for k, v in entry.params.items()]
    lines.append("[$text-muted]headers are not kept in the history[/$text-muted]")
    then = (f"[b]{status_text(entry)}[/b] · {prices.charged_text(entry)} · cache "
            f"{entry.cache} (then)")
    if refusal is not None:  # sending it again would only be refused again (free)
        now = ("These parameters are refused before sending, so there is nothing to "
               "re-fetch or replay: correct them in the operation's area.")
        return Inspected("\n".join(lines), f"{then}\n{now}", None, False, refusal)
    stored = await client.stored_answer(entry.operation, entry.params)
    price = prices.credits_text(client.price_of(entry.operation))
    if stored is not None and not stored.is_stale:
        now = (f"[$text-success]Answer from the cache · free[/$text-success] (stored "
               f"{_when(stored.stored_at)}, fresh until {_when(stored.expires_at)})")
        return Inspected("\n".join(lines), f"{then}\n{now}", stored.body, False)
    if stored is not None:
        now = (f"[$text-warning]The cached answer expired {_when(stored.expires_at)}."
               f"[/$text-warning] Re-fetching costs {price}; nothing is sent until you "
               "press Re-fetch.")
    elif entry.outcome == "refused":
        now = f"Refused before sending (nothing was charged). Sending it costs {price}."
    else:
        now = (f"Not in the cache (never stored, or cleared). Re-fetching costs {price}; "
               "nothing is sent until you press Re-fetch.")
    return Inspected("\n".join(lines), f"{then}\n{now}", None, True)


def as_record(client: DataClient | None, entry: HistoryEntry, body: str | None) -> CallRecord:
    """A past call as a record (for copy as curl, save and replay): its URL and headers
    (key masked) rebuilt as the client would send it now, and the reopened ``body``."""
    from creditscope.client.errors import InvalidRequest
    from creditscope.client.records import CallRecord

    record = CallRecord(entry.operation, entry.method, "", dict(entry.params),
                        status=entry.status, raw_body=body, label=entry.label,
                        history_id=entry.id)
    if client is not None and entry.can_reopen:
        try:
            plan = client.plan(entry.operation, entry.params)
            record.url, record.request_headers = plan.url, plan.headers
        except InvalidRequest:
            pass  # the rules changed since: no URL to rebuild
    return record
