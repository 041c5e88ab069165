"""What a focus move costs: the footer that repaints (now) vs the footer that rebuilt its keys.

Run: ``.venv/bin/python benchmarks/footer_focus.py [--moves 50]``

The explorer runs under Pilot (``run_test(size=(120, 36))``) on the in-process sandbox
(``revisit_latency.make_app``), in the Company area after a lookup, and Tab moves the focus
round its fields, buttons and table ``--moves`` times: the keys on offer change with most
moves (a text box hides ``/`` and ``c``; the table offers its own keys).

Each move is timed from the key entering the app (as a terminal sends it) until nothing is
left to do: no message queued for the app, the screen or any widget on it, no callback
waiting for the screen's refresh, and the frame drawn (``tests/textual_internals``:
``draw_frame_now`` draws it as soon as only drawing is left, rather than waiting up to 1/60 s
for the refresh timer). Animations are off and cursors do not blink, so nothing else keeps
the app busy. Two clocks: the wall clock, and the process's CPU time, which other work on a
busy machine does not inflate. The figure: the CPU time's 95th percentile, now over before
(the slow moves are the ones a person notices; the median is printed beside it).

The baseline, in the same run: the same explorer with its footer replaced by
:class:`RebuildingFooter`, the footer as it was before issue 38 (Textual's ``Footer``: one
``FooterKey`` widget per key, every one removed and rebuilt whenever what the keys say
changed). It offers the same keys, prices and fit as today's footer (it reads them from the
same functions), so only how the bar is made differs. The two alternate, half the moves at a
time, so a busy machine weighs on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

from _common import TESTS, median, percentile, print_figure
from revisit_latency import company_once, make_app, settle
from textual import events
from textual.widget import Widget
from textual.widgets import Footer as TextualFooter
from textual.widgets import Input
from textual.widgets._footer import FooterKey  # the widget Textual's footer builds per key

from creditscope.tui.footer_keys import OfferedKey, offered_keys
from creditscope.tui.footer_layout import place_keys
from creditscope.tui.widgets.footer import NARROW_WIDTH, Footer

sys.path.insert(0, str(TESTS))  # tests/textual_internals.py: reads of Textual for tests
from textual_internals import deliver_key_now, draw_frame_now, frame_pending, messages_pending

SIZE = (120, 36)
POLL_S = 0.001  # between checks that the move is done
TIMEOUT_S = 10.0
COMPANY = "Meridian Media"


class RebuildingFooter(TextualFooter):
    """The footer before issue 38 (the baseline): a ``FooterKey`` widget per key, all
    removed and built again whenever what the keys say changed."""

    def __init__(self) -> None:
        super().__init__()
        self.set_reactive(TextualFooter._bindings_ready, True)  # keys from the first frame
        self._shown: list[OfferedKey] | None = None

    def _keys(self) -> list[OfferedKey]:
        tight = self.app.size.width < NARROW_WIDTH
        placed = place_keys(offered_keys(self.screen, tight=tight), self.app.size.width,
                            compact=tight)
        return [key.key for key in placed]

    def compose(self) -> Iterator[Widget]:
        keys = self._keys()
        if not self.is_mounted:
            self._shown = keys
        for key in keys:
            widget = FooterKey(key.key, key.display, key.description, key.action,
                               disabled=not key.enabled, tooltip=key.tooltip,
                               classes="-command-palette" if key.palette else "")
            yield widget if key.palette else widget.data_bind(compact=TextualFooter.compact)

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < NARROW_WIDTH
        if narrow != self.compact:
            self.compact = narrow
            self.refresh(recompose=True)

    async def recompose(self) -> None:
        if not self.is_attached:
            return
        wanted = self._keys()
        if wanted == self._shown:
            return
        self._shown = wanted
        await super().recompose()
        self.mutate_reactive(TextualFooter.compact)  # let the removed keys' watchers go


class Move(NamedTuple):
    """One focus move: wall-clock and CPU milliseconds."""

    wall: float
    cpu: float


async def focus_move(app: Any) -> Move:
    """From Tab entering the app until the focus has moved, the footer says so, and the
    frame showing it is drawn."""
    before = app.focused
    started, cpu_started = time.perf_counter(), time.process_time()
    deliver_key_now(app, "tab")
    while True:
        if time.perf_counter() - started > TIMEOUT_S:
            raise TimeoutError("the focus move never finished")
        await asyncio.sleep(POLL_S)
        screen = app.screen
        if app.focused is before or messages_pending(screen):
            continue
        if frame_pending(screen):
            draw_frame_now(screen)  # only drawing is left: draw now, as the timer would soon
            continue
        return Move((time.perf_counter() - started) * 1000,
                    (time.process_time() - cpu_started) * 1000)


async def moves(footer: type[Widget], count: int) -> list[Move]:
    """``count`` focus moves in the Company area, with ``footer`` as every area's footer."""
    from creditscope.tui.screens import base

    base.Footer = footer  # type: ignore[misc,assignment]  # what every area composes
    try:
        with tempfile.TemporaryDirectory(prefix="cs-footer-") as tmp:
            app = make_app(Path(tmp))
            # Nothing moves on its own: no animation or blinking cursor keeps the app busy
            # after the move is done.
            app.animation_level = "none"
            async with app.run_test(size=SIZE) as pilot:
                await app.wait_for_client()
                await app.switch_mode("company")
                await settle(pilot)
                for box in app.screen.query(Input):
                    box.cursor_blink = False
                await company_once(pilot, COMPANY)  # the lookup (its time is not used)
                await settle(pilot)
                assert type(app.screen.query_one("Footer")) is footer  # the one measured
                samples = []
                for _ in range(count):
                    samples.append(await focus_move(app))
                    await settle(pilot)  # the rest (animations, workers): not the move's
                return samples
    finally:
        base.Footer = Footer  # type: ignore[misc]


def main() -> None:
    """Print median, 95th percentile and worst per footer and clock, then how the CPU time
    of the slow moves (95th percentile) compares: the moves a person notices."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=50, help="focus moves per footer")
    args = parser.parse_args()
    half = max(1, args.moves // 2)
    footers: dict[str, type[Widget]] = {"rebuilt keys (before)": RebuildingFooter,
                                         "one repainted bar (now)": Footer}
    samples: dict[str, list[Move]] = {name: [] for name in footers}
    for size in (half, args.moves - half):  # alternating halves: noise falls on both
        for name, footer in footers.items():
            samples[name] += asyncio.run(moves(footer, size)) if size else []
    print(f"Tab in the Company area at {SIZE[0]}x{SIZE[1]}: key -> footer updated and drawn, "
          f"{args.moves} moves each (ms)")
    for name, values in samples.items():
        for what in Move._fields:
            taken = [getattr(move, what) for move in values]
            print(f"  {name:<24} {what:<4} median {median(taken):6.1f}   "
                  f"95th {percentile(taken, 95):6.1f}   worst {max(taken):6.1f}")
    before, now = ([move.cpu for move in values] for values in samples.values())
    print(f"  now / before, CPU: median {median(now) / median(before):.2f}")
    print_figure("footer_focus_cpu_p95_ratio", percentile(now, 95) / percentile(before, 95),
                 "<=", 0.5)


if __name__ == "__main__":
    main()
