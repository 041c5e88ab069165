"""Every committed snapshot belongs to a test beside it.

syrupy fails a run on snapshots no test used, but not under pytest-xdist (its workers
cannot pool what they used), and ``make test`` runs under xdist. This keeps the part
that matters: a snapshot stays next to its test module (``__snapshots__/<module>/``,
where syrupy looks), and a test that moved or was renamed takes its snapshots along.
"""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _orphans() -> list[str]:
    orphans = []
    for snapshot in sorted(TESTS.glob("**/__snapshots__/*/*")):
        module = snapshot.parent.parent.parent / f"{snapshot.parent.name}.py"
        # test_area[restaurant-80x24].svg, or test_x.1.svg for a test's second snapshot
        test = re.split(r"[\[.]", snapshot.name, maxsplit=1)[0]
        if not module.is_file() or not re.search(
            rf"^(async )?def {re.escape(test)}\(", module.read_text(encoding="utf-8"), re.M
        ):
            orphans.append(str(snapshot.relative_to(TESTS)))
    return orphans


def test_every_snapshot_has_its_test_module_and_function() -> None:
    assert list(TESTS.glob("**/__snapshots__/*/*")), "no snapshots found: the layout changed?"
    assert _orphans() == []
