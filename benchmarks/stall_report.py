"""Where the explorer's main thread spent the slowest revisits, from the stall probe.

``revisit_tmux.py --probe FILE`` loads ``stall_probe/sitecustomize.py`` into the real
command (main-thread stack and CPU clock every ~2 ms, every garbage collection) and
calls :func:`stall_report` with the span of each cached revisit.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

IDLE = ("selectors.py", "base_events.py:1")  # waiting in the event loop's select
SHOWN = 4  # slowest revisits reported


def _load(path: Path) -> tuple[list[dict], list[dict], list[dict]]:
    samples, collections, heaps = [], [], []
    for line in path.read_text().splitlines():
        row = json.loads(line)
        kind = "heap" if "heap" in row else "gc" if "gc" in row else "sample"
        {"heap": heaps, "gc": collections, "sample": samples}[kind].append(row)
    return samples, collections, heaps


def _idle(stack: Sequence[str]) -> bool:
    return not stack or "selectors.py" in stack[0] or stack[0].endswith(":select")


def _ours(frame: str) -> bool:
    return any(part in frame for part in ("creditscope/", "textual/", "rich/"))


def stall_report(path: Path, spans: Sequence[tuple[str, float, float, float]]) -> str:
    samples, collections, heaps = _load(path)
    out = [f"stall probe: {len(samples)} samples, {len(collections)} collections "
           f"({sum(c['took'] for c in collections) * 1000:.0f} ms in all; gen 2: "
           f"{sum(1 for c in collections if c['gen'] == 2)})"]
    for heap in heaps:  # what a full collection had to walk
        out.append(f"heap at a full collection: {heap['objects']} objects; most: "
                   + ", ".join(f"{kind} {n}" for kind, n in heap["kinds"][:6]))
    for view, start, end, ms in sorted(spans, key=lambda span: -span[3])[:SHOWN]:
        inside = [s for s in samples if start <= s["t"] <= end]
        busy = [s for s in inside if not _idle(s["stack"])]
        cpu = (inside[-1]["cpu"] - inside[0]["cpu"]) * 1000 if len(inside) > 1 else 0.0
        gcs = [c for c in collections if start <= c["gc"] <= end]
        out.append(f"\n{view}: {ms:.0f} ms on screen; main thread CPU {cpu:.0f} ms; "
                   f"{len(busy)}/{len(inside)} samples busy; collections "
                   + (", ".join(f"gen{c['gen']} {c['took'] * 1000:.1f} ms" for c in gcs)
                      or "none"))
        inclusive: Counter[str] = Counter()
        leaves: Counter[str] = Counter()
        for sample in busy:
            leaves[sample["stack"][0]] += 1
            inclusive.update({frame for frame in sample["stack"] if _ours(frame)})
        out.append("  most samples (inclusive): " + "; ".join(
            f"{n} {frame}" for frame, n in inclusive.most_common(14)))
        out.append("  leaves: " + "; ".join(f"{n} {frame}" for frame, n in leaves.most_common(8)))
        timeline = []
        for sample in inside:
            ours = next((f for f in sample["stack"] if _ours(f)), sample["stack"][0]
                        if sample["stack"] else "?")
            timeline.append(f"{(sample['t'] - start) * 1000:5.0f} "
                            f"{'idle' if _idle(sample['stack']) else ours}")
        out.append("  timeline (ms after the key, innermost of ours):\n    "
                   + "\n    ".join(_squeeze(timeline)))
    return "\n".join(out)


def _squeeze(lines: list[str]) -> list[str]:
    """Runs of the same frame as one line."""
    squeezed: list[str] = []
    last = None
    for line in lines:
        at, frame = line[:5], line[6:]
        if frame != last:
            squeezed.append(f"{at} {frame}")
            last = frame
    return squeezed
