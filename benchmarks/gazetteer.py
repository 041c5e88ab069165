"""The gazetteer's size and speed: the data file, a cold load, and each lookup.

Run: ``.venv/bin/python benchmarks/gazetteer.py [--runs 5]``

- size: the bytes of ``data/cities.tsv.gz`` and how many places it holds;
- load: ``load_gazetteer()`` in a fresh process (import included), the median of
  ``--runs`` processes; then the key index the sandbox builds on first use;
- lookups, uncached, the median per call: ``resolve`` of typed names, ``alternatives``,
  ``suggest`` of 1-3 letter prefixes, ``nearest`` near cities and at random points
  (mid-ocean points scan every place), and ``check_place`` of a misspelling (fuzzy).

The figure is the cold load in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from typing import Any

from _common import PYTHON, median, print_figure

LOAD = (
    "import time; t = time.perf_counter(); "
    "from creditscope.gazetteer import load_gazetteer; g = load_gazetteer(); "
    "t1 = time.perf_counter(); g.key(g.cities[0]); "
    "print(t1 - t, time.perf_counter() - t1)"
)


def per_call_us(call: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    """The median time of one call in microseconds, over ``inputs``."""
    times = []
    for value in inputs:
        started = time.perf_counter()
        call(value)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1e6


def main() -> None:
    """Print the figures, the cold load last."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    from creditscope.gazetteer import CITIES_FILE, DATA_DIR, load_gazetteer
    from creditscope.place_check import check_place

    loads, keys = [], []
    for _ in range(args.runs):
        out = subprocess.run([PYTHON, "-c", LOAD], capture_output=True, text=True, check=True)
        load, key = (float(x) for x in out.stdout.split())
        loads.append(load * 1000)
        keys.append(key * 1000)
    gazetteer = load_gazetteer()
    size = (DATA_DIR / CITIES_FILE).stat().st_size
    print(f"data: {CITIES_FILE} {size:,} bytes, {len(gazetteer):,} places")
    print(f"load: {median(loads):.0f} ms cold (median of {args.runs} processes); "
          f"keys on first use: {median(keys):.0f} ms")
    rng = random.Random(26)
    sample = rng.sample(gazetteer.cities, 300)
    names = [city.name for city in sample]
    points = [(rng.uniform(-60, 75), rng.uniform(-180, 180)) for _ in range(300)]
    near = [(city.lat + 0.01, city.lng - 0.01) for city in sample]
    prefixes = [name[: rng.randint(1, 3)] for name in names]
    rows = {
        "resolve or alternatives (a name)": per_call_us(gazetteer._matches, names),
        "suggest (1-3 letters)": per_call_us(gazetteer.suggest, prefixes),
        "nearest (near a place)": per_call_us(lambda p: gazetteer._nearest(*p), near),
        "nearest (random point)": per_call_us(lambda p: gazetteer._nearest(*p), points),
        "check_place (a misspelling)": per_call_us(lambda n: check_place(n[:-1] + "q"),
                                                   names[:30]),
    }
    for what, micros in rows.items():
        print(f"{what}: {micros:,.1f} µs per call (median, uncached)")
    print_figure("gazetteer_load_ms", median(loads), "<=", 500.0, digits=0)


if __name__ == "__main__":
    main()
