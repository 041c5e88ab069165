"""Reading ``batch --out`` CSV as a spreadsheet would: its BOM, Excel's ``sep=`` line, and
the separator the results took from the input (a semicolon for a ``;`` file)."""

from __future__ import annotations

import csv
from pathlib import Path


def read_results_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as handle:
        first = handle.readline()
        if first.startswith("sep="):
            delimiter = first[4]
        else:
            delimiter = ";" if first.count(";") > first.count(",") else ","
            handle.seek(0)  # utf-8-sig leaves the BOM out again
        return list(csv.DictReader(handle, delimiter=delimiter))
