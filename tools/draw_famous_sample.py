"""Draw the 100 famous companies the name lookup is measured on (issue 37).

Reads ``tools/famous_pool.tsv`` (companies of stock indices that pytickersymbols,
the source of ``data/companies.tsv``, does not provide, written down by hand
before any change to matching) and writes ``tests/sandbox/famous_sample.tsv``:
100 of them drawn with a fixed seed, so re-running gives the same file. The
sample is measured by ``tests/sandbox/test_sandbox_famous_sample.py`` and never
used to derive or tune data::

    .venv/bin/python tools/draw_famous_sample.py
"""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
POOL = ROOT / "tools" / "famous_pool.tsv"
SAMPLE = ROOT / "tests" / "sandbox" / "famous_sample.tsv"
SEED = 37  # the number: fixed before the draw, never changed after
SIZE = 100
HEADER = (
    "# 100 companies drawn by tools/draw_famous_sample.py (seed {seed}) from tools/famous_pool.tsv;"
    " measured by tests/sandbox/test_sandbox_famous_sample.py.\n"
    "# index\tname as typed\theadquarters city\tcountry\n"
)


def pool_rows() -> list[str]:
    """The pool's data lines, in file order."""
    lines = POOL.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def main() -> None:
    """Write the sample."""
    drawn = random.Random(SEED).sample(pool_rows(), SIZE)
    SAMPLE.write_text(HEADER.format(seed=SEED) + "\n".join(drawn) + "\n", encoding="utf-8")
    print(f"wrote {SIZE} companies to {SAMPLE}")


if __name__ == "__main__":
    main()
