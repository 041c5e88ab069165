"""A batch's results: one row per input line, in input order, CSV or JSON Lines.

Each output row has the input's line number, status (``ok``, ``error``,
``invalid``, ``blank``, ``skipped``, ``not run``; ``valid`` in a dry run), credits,
cache state, error and a note (why a row was skipped, a line break read as a
space); then the input's own columns as they were (a customer's ID
column included), then the key fields of the answer for its operation
(``Operation.key_fields``; for a company lookup: the best match, its confidence,
name similarity and website match). Rows are never renumbered nor dropped, so a
spreadsheet can be matched back line for line. The input file is read again as
a stream and each row's outcome looked up in the plan's ``RequestIndex``, so
output is written row by row whatever the file's size: CSV, JSON Lines or an
.xlsx workbook (``batch_xlsx``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from creditscope import operations
from creditscope.spreadsheet_cells import TableWriter
from creditscope.support.batch_index import UniqueRequest
from creditscope.support.batch_input import BatchFile, InputRow
from creditscope.support.batch_plan import BatchPlan, request_key, row_request
from creditscope.support.batch_xlsx import write_workbook

if TYPE_CHECKING:
    from creditscope.client.client import DataClient

# ``possibly_charged``: credits a request whose answer was lost may have cost (not in
# ``credits``); the account's next balance settles it (``creditscope credits``).
STATUS_COLUMNS = ("line", "status", "credits", "possibly_charged", "cache", "error", "note")
# What ``--out`` writes, by the name's suffix (anything else: CSV).
OUTPUT_FORMATS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".xlsx": "xlsx"}


@dataclass(frozen=True)
class OutputColumns:
    """The output's column names: status, the input's own (echo), the answer's key fields."""

    echo: tuple[str, ...]
    keys: tuple[str, ...]

    @property
    def all(self) -> tuple[str, ...]:
        return STATUS_COLUMNS + self.echo + self.keys


def output_columns(source: BatchFile, operation: str) -> OutputColumns:
    """The input's column names kept as written, and the key fields; a name that clashes
    with an earlier column (case-insensitively) is prefixed ``input_`` or ``result_``."""
    taken = {name.casefold() for name in STATUS_COLUMNS}
    echo = tuple(f"input_{name}" if name.casefold() in taken else name
                 for name in source.echo_columns)
    taken |= {name.casefold() for name in echo}
    keys = tuple(f"result_{name}" if name.casefold() in taken else name
                 for name in operations.get(operation).key_fields)
    return OutputColumns(echo, keys)


def result_rows(
    source: Iterable[InputRow], client: DataClient, plan: BatchPlan, columns: OutputColumns,
    *, not_run: str, dry_run: bool,
) -> Iterator[dict[str, Any]]:
    """One output row per input row; ``not_run`` says why a request without outcome was
    not sent. In a dry run a valid row shows what it would cost instead."""
    key_fields = operations.get(plan.operation).key_fields
    # Outcomes no longer change; a bounded cache spares duplicates a lookup on disk.
    find = functools.lru_cache(maxsize=4096)(plan.index.find)
    for row in source:
        out: dict[str, Any] = {"line": row.line, "credits": 0, "possibly_charged": 0,
                               "cache": "", "error": "", "note": row.note}
        out.update(zip(columns.echo, row.echo, strict=False))
        if row.blank or row.skipped:  # never sent, never priced
            out.update(status="skipped" if row.skipped else "blank", note=row.skipped)
            yield out
            continue
        clean, problem = row_request(client, plan.operation, row,
                                     allow_unknown_place=plan.allow_unknown_place)
        request = None if clean is None else find(request_key(plan.operation, clean))
        if request is None:  # invalid (or, for a file changed since, unknown: not sent)
            out.update(status="invalid", error=problem or "changed since it was checked")
            yield out
            continue
        first = request.first_line == row.line
        if not first:
            out["cache"] = f"same as line {request.first_line}"  # sent once, for the first
        if dry_run:
            out.update(status="valid", credits=request.cost if first else 0)
            if first and not request.cost:
                out["cache"] = "cached (free)"
            yield out
            continue
        yield _with_outcome(out, request, first, not_run, dict(zip(key_fields, columns.keys,
                                                                    strict=True)))


def _with_outcome(out: dict[str, Any], request: UniqueRequest, first: bool, not_run: str,
                  key_columns: dict[str, str]) -> dict[str, Any]:
    outcome = request.outcome
    if outcome is None:
        out.update(status="not run", error=not_run)
        return out
    out.update(status=outcome.status, error=outcome.error)
    if first:
        out.update(credits=outcome.credits, possibly_charged=outcome.possibly_charged,
                   cache=outcome.cache)
    for name, column in key_columns.items():
        out[column] = outcome.fields.get(name)
    return out


def output_format(path: Path) -> str:
    """``jsonl`` for .jsonl/.ndjson names, ``xlsx`` for .xlsx, else ``csv``."""
    return OUTPUT_FORMATS.get(path.suffix.lower(), "csv")


def csv_separator(source: BatchFile) -> tuple[str, bool]:
    """The results' CSV separator and whether to write Excel's ``sep=`` line: what the
    input's own ``sep=`` line named, or a semicolon when the input used one (German and
    French Excel read and write ``;``, and open a comma file in one column); else a comma."""
    if source.format == "csv" and (source.sep_line or source.separator == ";"):
        return source.separator, source.sep_line
    return ",", False


def write_rows(handle: TextIO, fmt: str, columns: tuple[str, ...],
               rows: Iterable[dict[str, Any]], separator: tuple[str, bool] = (",", False)
               ) -> int:
    """Write ``rows`` to ``handle`` as CSV (with a header; ``separator`` from
    :func:`csv_separator`), JSON Lines or an .xlsx (into the text handle's bytes); returns
    the count."""
    if fmt == "xlsx":
        handle.flush()
        return write_workbook(handle.buffer, columns, rows)  # a workbook is bytes
    count = 0
    if fmt == "jsonl":
        for row in rows:
            handle.write(json.dumps({c: row.get(c) for c in columns}, ensure_ascii=False,
                                    default=str) + "\n")
            count += 1
        return count
    delimiter, sep_line = separator
    if sep_line:
        handle.write(f"sep={delimiter}\n")
    writer = TableWriter(handle, delimiter)
    writer.writerow(columns)
    for row in rows:  # the customer's cells and the service's names: never a formula
        writer.writerow("" if row.get(c) is None else row.get(c) for c in columns)
        count += 1
    return count
