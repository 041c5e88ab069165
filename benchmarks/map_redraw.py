"""Time a full redraw of a 120x40 EventMap at world and city zoom, cold and warm.

A redraw is everything the widget does to produce its 40 lines: rasterising
land and borders (skipped when the viewport is cached), then composing the
markers, crosshair and captions into strips. "Cold" clears the raster cache
and the inflated land-mask tiles before each run; "warm" keeps them (what
happens when only the selection moves). City views draw land from the 1 km
mask; the world view from the 1:110m outlines.

Run: .venv/bin/python benchmarks/map_redraw.py [runs]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time

from textual.app import App, ComposeResult

from creditscope.tui.widgets.event_map import WORLD_CENTER, EventMap, MapMarker
from creditscope.worldmap.land import load_world
from creditscope.worldmap.landmask import load_mask
from creditscope.worldmap.raster import clear_cache

SIZE = (120, 40)
MARKERS = [MapMarker(n, 48.8 + n * 0.01, 2.3 + n * 0.013, f"venue {n}") for n in range(1, 21)]
VIEWS = {
    "world": (WORLD_CENTER, 1.0),
    "city": ((48.86, 2.35), 300.0),
    "coast": ((38.72, -9.14), 600.0),  # Lisbon and the Tagus, from the 1 km land mask
}


class BenchApp(App[None]):
    """Just the map."""

    def compose(self) -> ComposeResult:
        event_map = EventMap()
        event_map.markers = MARKERS
        event_map.search_point = (48.85, 2.35)
        yield event_map


def redraw(event_map: EventMap, selected: int) -> float:
    """Milliseconds to produce every line after the selection changed."""
    event_map.selected = selected
    start = time.perf_counter()
    for y in range(SIZE[1]):
        event_map.render_line(y)
    return (time.perf_counter() - start) * 1000


async def measure(runs: int) -> dict[tuple[str, str], float]:
    """Median redraw time for each (view, cold/warm)."""
    load_world()  # parsing the data files once per process is not a redraw
    load_mask()
    results: dict[tuple[str, str], float] = {}
    app = BenchApp()
    async with app.run_test(size=SIZE) as pilot:
        event_map = app.query_one(EventMap)
        for name, (center, zoom) in VIEWS.items():
            event_map.zoom = zoom
            event_map.center = center
            await pilot.pause()
            cold, warm = [], []
            for run in range(runs):
                clear_cache()
                cold.append(redraw(event_map, run % 20 + 1))
                warm.append(redraw(event_map, (run + 7) % 20 + 1))
            results[(name, "cold")] = statistics.median(cold)
            results[(name, "warm")] = statistics.median(warm)
    return results


def main() -> None:
    """Print the medians and the warm/cold ratio (the headline figure, last)."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    results = asyncio.run(measure(runs))
    print(f"EventMap redraw at {SIZE[0]}x{SIZE[1]}, median of {runs} runs")
    for (name, state), ms in results.items():
        print(f"  {name:<5} {state:<4} {ms:7.2f} ms")
    cold = sum(results[(name, "cold")] for name in VIEWS)
    warm = sum(results[(name, "warm")] for name in VIEWS)
    print(f"warm/cold ratio: {warm / cold:.3f}")


if __name__ == "__main__":
    main()
