"""Writing a batch's results: one row per input row, in input order, CSV or JSON Lines.

Each output row has the row number, status, credits, cache state and error,
the parameters as validated, and the key fields of the answer for its
operation (for a company lookup: the best match, its confidence, name
similarity and website match). The input file is read again as a stream, so
output is written row by row whatever the file's size.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from creditscope import models
from creditscope.client.validation import accepted_fields
from creditscope.support.batch_input import InputRow
from creditscope.support.batch_plan import BatchPlan, request_key, row_request
from creditscope.support.batch_run import BatchRun

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

STATUS_COLUMNS = ("row", "status", "credits", "cache", "error")


def _company(data: models.CompanyLookup, params: dict[str, Any]) -> dict[str, Any]:
    best = data.matches[0] if data.matches else None
    company = best.company if best is not None else None
    website_match = ""
    if best is not None:
        if not params.get("website") or best.website_match is None:
            website_match = "not checked"
        else:
            website_match = "yes" if best.website_match else "no"
    return {
        "matches": len(data.matches),
        "best_match": (company.name if company and company.name else
                       (best.serp_title or "") if best else ""),
        "best_match_url": best.company_url if best else "",
        "confidence": (best.confidence or "") if best else "",
        "name_similarity": best.name_similarity if best else None,
        "website_match": website_match,
    }


def _events(data: models.EventFeed, _: dict[str, Any]) -> dict[str, Any]:
    return {"events": len(data.events), "first_event": data.events[0].name if data.events else ""}


def _search(data: models.RestaurantSearch, _: dict[str, Any]) -> dict[str, Any]:
    top = data.results[0] if data.results else None
    return {"total": data.total, "top_result": top.name if top else "",
            "top_result_id": top.id if top else ""}


def _details(data: models.RestaurantDetails, _: dict[str, Any]) -> dict[str, Any]:
    return {"name": data.name, "rating": data.rating, "address": data.address}


def _menu(data: models.Menu, _: dict[str, Any]) -> dict[str, Any]:
    items = sum(len(section.items) for section in data.sections)
    return {"currency": data.currency, "sections": len(data.sections), "items": items}


def _reviews(data: models.Reviews, _: dict[str, Any]) -> dict[str, Any]:
    return {"total": data.total, "average_rating": data.average_rating}


def _catalog(data: models.Catalog, _: dict[str, Any]) -> dict[str, Any]:
    return {"providers": len(data.providers), "endpoints": data.totalEndpoints}


def _provider(data: models.ProviderRequestCreated, _: dict[str, Any]) -> dict[str, Any]:
    return {"ok": data.ok, "request_id": data.id}


# operation -> (key columns, how to read them from the answer)
KEY_FIELDS: dict[str, tuple[tuple[str, ...], Callable[[Any, dict[str, Any]], dict[str, Any]]]] = {
    "professional_network/find_company": (
        ("matches", "best_match", "best_match_url", "confidence", "name_similarity",
         "website_match"), _company),
    "ticketing/discovery": (("events", "first_event"), _events),
    "restaurants/search": (("total", "top_result", "top_result_id"), _search),
    "restaurants/details": (("name", "rating", "address"), _details),
    "restaurants/menu": (("currency", "sections", "items"), _menu),
    "restaurants/reviews": (("total", "average_rating"), _reviews),
    "catalog": (("providers", "endpoints"), _catalog),
    "provider-requests": (("ok", "request_id"), _provider),
}


def output_columns(operation: str) -> tuple[str, ...]:
    """Status columns, then the parameters, then the key fields (prefixed if names clash)."""
    params = accepted_fields(operation)
    keys = tuple(f"result_{name}" if name in params else name
                 for name in KEY_FIELDS[operation][0])
    return STATUS_COLUMNS + params + keys


def result_rows(
    rows: Iterable[InputRow], client: DataClient, run: BatchRun, *, not_run: str,
) -> Iterator[dict[str, Any]]:
    """One output row per input row; ``not_run`` says why a request without outcome was not."""
    plan: BatchPlan = run.plan
    params_names = accepted_fields(plan.operation)
    key_names, read = KEY_FIELDS[plan.operation]
    for row in rows:
        clean, problem = row_request(client, plan.operation, row,
                                     allow_unknown_place=plan.allow_unknown_place)
        out: dict[str, Any] = {"row": row.number, "credits": 0, "cache": "", "error": ""}
        shown = clean if clean is not None else row.params
        for name in params_names:
            out[name] = shown.get(name, "")
        if clean is None:
            out.update(status="invalid", error=problem)
            yield out
            continue
        key = request_key(clean)
        outcome = run.outcomes.get(key)
        if outcome is None:
            out.update(status="not run", error=not_run)
            yield out
            continue
        first = plan.requests[key].first_row
        out.update(status=outcome.status, error=outcome.error, cache=outcome.cache)
        if first == row.number:
            out["credits"] = outcome.credits
        else:
            out["cache"] = f"same as row {first}"  # sent once, for the first row
        if outcome.data is not None:
            fields = read(outcome.data, clean)
            for name in key_names:
                out[f"result_{name}" if name in params_names else name] = fields.get(name)
        yield out


def output_format(path: Path) -> str:
    """``jsonl`` for .jsonl/.ndjson names, else ``csv``."""
    return "jsonl" if path.suffix.lower() in (".jsonl", ".ndjson") else "csv"


def write_rows(handle: TextIO, fmt: str, columns: tuple[str, ...],
               rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` to ``handle`` as CSV (with a header) or JSON Lines; returns the count."""
    count = 0
    if fmt == "jsonl":
        for row in rows:
            handle.write(json.dumps({c: row.get(c) for c in columns}, ensure_ascii=False) + "\n")
            count += 1
        return count
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if row.get(c) is None else row.get(c) for c in columns])
        count += 1
    return count
