"""Writing calls as a HAR 1.2 file: what the desk attaches to a ticket or hands to
any HAR viewer (a browser's network tab, Charles, Fiddler).

Each call that reached the service (not one the client refused, nor a balance
difference) is one entry: the request as the client sends it (URL, JSON body,
headers with the key masked by the client's own rule), the answer when this
session still holds it or the cache does (else an empty body with a comment),
and creditscope's own figures in the ``_creditscope`` custom field (HAR 1.2
allows fields starting with an underscore): operation, price, credits charged
and saved, cache status then and now, outcome, label, session.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, urlsplit

from creditscope import __version__
from creditscope.client.errors import InvalidRequest

if TYPE_CHECKING:
    from creditscope.client.client import DataClient
    from creditscope.client.history import HistoryEntry
    from creditscope.client.records import CallRecord

HAR_VERSION = "1.2"
CUSTOM_FIELD = "_creditscope"
JSON_TYPE = "application/json"


@dataclass(frozen=True)
class HarExport:
    """A HAR document and what it left out."""

    document: dict[str, Any]
    written: int  # calls written as entries
    not_sent: int  # refused calls and balance differences: no request to write

    def text(self) -> str:
        """The document as a file holds it."""
        return json.dumps(self.document, indent=2, ensure_ascii=False) + "\n"


async def har_export(
    client: DataClient, calls: Sequence[tuple[HistoryEntry, CallRecord | None]]
) -> HarExport:
    """``calls`` (each with this session's full record, when it has one) as a HAR; the
    answers no record holds are read from the cache on the store's thread."""
    entries = [await har_entry(client, entry, record) for entry, record in calls
               if entry.can_reopen and entry.outcome != "refused"]
    entries.sort(key=lambda item: item["startedDateTime"])  # HAR viewers expect time order
    document = {"log": {
        "version": HAR_VERSION,
        "creator": {"name": "creditscope", "version": __version__},
        "pages": [],
        "entries": entries,
        "comment": "Exported by creditscope; the API key is masked.",
    }}
    return HarExport(document, len(entries), len(calls) - len(entries))


async def har_entry(client: DataClient, entry: HistoryEntry,
                    record: CallRecord | None) -> dict[str, Any]:
    """One HAR entry for ``entry``; ``record`` adds the session's headers, body and timing."""
    try:
        plan = client.plan(entry.operation, entry.params)
        url, headers, body = plan.url, plan.headers, plan.body
    except InvalidRequest:  # the rules changed since: the recorded values as they are
        url, headers, body = record.url if record else "", {}, None
    if record is not None:
        url, headers = record.url, record.request_headers
    stored = await client.stored_answer(entry.operation, entry.params)
    answer = record.raw_body if record is not None and record.raw_body is not None else (
        stored.body if stored is not None else None)
    latency = round(record.latency_ms, 3) if record is not None else 0
    request: dict[str, Any] = {
        "method": entry.method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
        "headers": _pairs(headers),
        "queryString": _pairs(dict(parse_qsl(urlsplit(url).query, keep_blank_values=True))),
        "headersSize": -1, "bodySize": 0,
    }
    if body is not None:
        text = json.dumps(body, ensure_ascii=False)
        request["postData"] = {"mimeType": JSON_TYPE, "text": text}
        request["bodySize"] = len(text.encode())
    content: dict[str, Any] = {"size": 0, "mimeType": JSON_TYPE}
    if answer is not None:
        content.update(size=len(answer.encode()), text=answer)
    else:
        content["comment"] = "The answer is no longer held (not in the cache)."
    response = {
        "status": entry.status or 0, "statusText": "", "httpVersion": "HTTP/1.1",
        "cookies": [], "headers": _pairs(record.response_headers if record else {}),
        "content": content, "redirectURL": "", "headersSize": -1,
        "bodySize": content["size"],
    }
    return {
        "startedDateTime": entry.at.isoformat(), "time": latency,
        "request": request, "response": response, "cache": {},
        "timings": {"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0,
                    "wait": latency, "receive": 0},
        CUSTOM_FIELD: _figures(client, entry, stored is not None and not stored.is_stale,
                               stored is not None),
    }


def _figures(client: DataClient, entry: HistoryEntry, fresh: bool, held: bool) -> dict[str, Any]:
    return {
        "operation": entry.operation, "price": client.price_of(entry.operation),
        "credits_charged": entry.credits_charged, "credits_saved": entry.credits_saved,
        "cache": entry.cache, "cache_now": "fresh" if fresh else "expired" if held else "absent",
        "outcome": entry.outcome, "error_code": entry.error_code, "label": entry.label,
        "session": entry.session, "history_id": entry.id or None,
    }


def _pairs(values: dict[str, str]) -> list[dict[str, str]]:
    return [{"name": name, "value": str(value)} for name, value in values.items()]
