"""A stall probe loaded into the real command by ``PYTHONPATH`` (benchmarks only).

With ``CREDITSCOPE_STALL_PROBE=PATH`` set, a thread samples the main thread's stack
every ~2 ms (with its CPU clock) and ``gc.callbacks`` note every collection; at exit
both are written to PATH as JSON lines, timestamps in ``time.monotonic()`` (one clock
for every process on the machine), so a benchmark can cut out the span of one key.
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import threading
import time
from collections import Counter

_PATH = os.environ.get("CREDITSCOPE_STALL_PROBE")


def _start(path: str) -> None:
    main = threading.main_thread()
    main_id = main.ident
    assert main_id is not None
    clock = time.pthread_getcpuclockid(main_id)
    samples: list[tuple[float, float, tuple[str, ...]]] = []
    collections: list[tuple[float, float, int, int]] = []
    started: dict[str, float] = {}
    heaps: list[tuple[float, int, list[tuple[str, int]]]] = []  # what gen 2 had to walk
    stop = threading.Event()

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started["t"] = time.monotonic()
        else:
            begun = started.pop("t", time.monotonic())
            collections.append((begun, time.monotonic() - begun, info["generation"],
                                info.get("collected", 0)))
            if info["generation"] == 2 and (not heaps or begun - heaps[-1][0] > 30):
                heaps.append((begun, *_heap()))

    def stack() -> tuple[str, ...]:
        frame = sys._current_frames().get(main_id)
        names: list[str] = []
        while frame is not None and len(names) < 60:
            code = frame.f_code
            names.append(f"{code.co_filename.rsplit('site-packages/', 1)[-1]}:"
                         f"{frame.f_lineno}:{code.co_name}")
            frame = frame.f_back
        return tuple(names)

    def sample() -> None:
        while not stop.wait(0.002):
            samples.append((time.monotonic(), time.clock_gettime(clock), stack()))

    def _heap() -> tuple[int, list[tuple[str, int]]]:
        kinds: Counter[str] = Counter()
        every = gc.get_objects()
        for thing in every:
            kind = type(thing)
            kinds[f"{kind.__module__}.{kind.__qualname__}"] += 1
        return len(every), kinds.most_common(30)

    def dump() -> None:
        stop.set()
        with open(path, "w") as out:
            for at, cpu, names in samples:
                out.write(json.dumps({"t": at, "cpu": cpu, "stack": names}) + "\n")
            for at, took, generation, collected in collections:
                out.write(json.dumps({"gc": at, "took": took, "gen": generation,
                                      "collected": collected}) + "\n")
            for at, count, kinds in heaps:
                out.write(json.dumps({"heap": at, "objects": count, "kinds": kinds}) + "\n")

    gc.callbacks.append(on_gc)
    threading.Thread(target=sample, name="stall-probe", daemon=True).start()
    atexit.register(dump)


if _PATH and os.path.basename(sys.argv[0]) == "creditscope" and sys.argv[1:2] != ["serve"]:
    _start(_PATH)
