"""Writing a batch's results: one row per input row, in input order, CSV or JSON Lines.

Each output row has the row number, status, credits, cache state and error,
the parameters as validated, and the key fields of the answer for its
operation (``Operation.key_fields``; for a company lookup: the best match, its
confidence, name similarity and website match). The input file is read again as a stream, so
output is written row by row whatever the file's size.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from creditscope import operations
from creditscope.client.validation import accepted_fields
from creditscope.support.batch_input import InputRow
from creditscope.support.batch_plan import BatchPlan, request_key, row_request
from creditscope.support.batch_run import BatchRun

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

STATUS_COLUMNS = ("row", "status", "credits", "cache", "error")


def output_columns(operation: str) -> tuple[str, ...]:
    """Status columns, then the parameters, then the key fields (prefixed if names clash)."""
    params = accepted_fields(operation)
    keys = tuple(f"result_{name}" if name in params else name
                 for name in operations.get(operation).key_fields)
    return STATUS_COLUMNS + params + keys


def result_rows(
    rows: Iterable[InputRow], client: DataClient, run: BatchRun, *, not_run: str,
) -> Iterator[dict[str, Any]]:
    """One output row per input row; ``not_run`` says why a request without outcome was not."""
    plan: BatchPlan = run.plan
    params_names = accepted_fields(plan.operation)
    op = operations.get(plan.operation)
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
        key = request_key(plan.operation, clean)
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
            fields = op.keys_of(outcome.data, clean)
            for name in op.key_fields:
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
