"""The explorer under a person's chaos (issue 23): random keys, bursts, words, clicks and
resizes, against the in-process sandbox with faults, with invariants after every step.

After each step:
- the app is still running (nothing crashed the session);
- the ledger's spend is the sandbox balance's fall (nothing spent that was not counted);
- no request was charged twice within one step (a held key, a double click, a burst);
- every charged call's price was on screen before or while it was triggered (the
  trigger's label, the footer, a tab or a dialog).

``make test`` runs a few derandomized examples (the same every run, bounded in time);
``make chaos`` runs many random ones (``CREDITSCOPE_CHAOS_EXAMPLES``). A failure prints
the steps that reproduce it (Hypothesis' falsifying example).
"""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, note, settings
from hypothesis import strategies as st
from textual.widget import Widget

from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.footer import Footer
from explorer_factory import explorer_factory, in_process
from pilot_support import settle

from .conftest import FROZEN_NOW
from .screen_text import visible_text

DEFAULT_EXAMPLES = 2  # generated from a fixed seed in `make test`, beside FIXED_EXAMPLES
EXAMPLES = int(os.environ.get("CREDITSCOPE_CHAOS_EXAMPLES", str(DEFAULT_EXAMPLES)))
STEPS = int(os.environ.get("CREDITSCOPE_CHAOS_STEPS", "18"))
RANDOM = bool(os.environ.get("CREDITSCOPE_CHAOS_RANDOM"))  # `make chaos`: new seeds each run
START_CREDITS = 10_000

KEYS = [
    "enter", "escape", "tab", "shift+tab", "up", "down", "left", "right", "space",
    "ctrl+r", "ctrl+l", "ctrl+n", "ctrl+s", "slash", "question_mark",
    "1", "2", "3", "4", "5", "6", "7", "a", "c", "e", "f", "h", "i", "l", "m", "o", "r", "s",
    "t", "v", "w", "x", "y", "z", "p", "j", "plus", "minus", "0",
]
WORDS = ["Lisbon", "lisbon", "Porto", "Paris, FR", "Hogwarts", "Northwind Labs Ltd",
         "38.72, -9.14", "Microsoft", "ramen", "Tokyo", "Xqzzy"]


@dataclass(frozen=True)
class Burst:
    """One key pressed ``times`` times, ``gap`` seconds apart (a held key when small)."""

    key: str
    times: int
    gap: float


@dataclass(frozen=True)
class Typed:
    """A word typed at full speed where the cursor happens to be."""

    word: str


@dataclass(frozen=True)
class Click:
    """A click on the ``index``-th visible widget of the screen (modulo their number)."""

    index: int
    twice: bool


@dataclass(frozen=True)
class Resize:
    width: int
    height: int


@dataclass(frozen=True)
class Pause:
    seconds: float


STEP = st.one_of(
    st.builds(Burst, st.sampled_from(KEYS), st.integers(1, 12), st.floats(0.01, 0.03)),
    st.builds(Burst, st.sampled_from(KEYS), st.just(1), st.just(0.0)),
    st.builds(Typed, st.sampled_from(WORDS)),
    st.builds(Click, st.integers(0, 400), st.booleans()),
    st.builds(Resize, st.integers(80, 200), st.integers(24, 55)),
    st.builds(Pause, st.sampled_from([0.2, 0.8])),
)


def chaos_app(tmp: Path) -> tuple[CreditscopeApp, Any]:
    """An explorer on a sandbox with latency and failures (503s are never charged)."""
    sandbox = create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW, latency_ms=15,
                                       fail_rate=0.15, unavailable_rate=0.2, seed=7,
                                       keys={DEMO_KEY: START_CREDITS}))

    build = explorer_factory(in_process(sandbox))  # creditscope's own client, this service
    settings_ = Settings(cache_dir=tmp / "cache", data_dir=tmp / "data",
                         config_file=tmp / "config" / "config.toml", budget=60)
    return CreditscopeApp(settings_, client_factory=build, clock=lambda: FROZEN_NOW), sandbox


def balance_fall(sandbox: Any) -> int:
    return START_CREDITS - int(sandbox.state.store.balance(key_digest(DEMO_KEY)))


def charged_records(app: CreditscopeApp) -> list[Any]:
    assert app.client is not None
    return [r for r in app.client.ledger.session_records if r.credits_charged]


async def perform(pilot: Any, step: Any, seen: list[str]) -> None:
    """Do one step, noting what the screen says after every key of it."""
    app = pilot.app
    if isinstance(step, Burst):
        for _ in range(step.times):
            await pilot.press(step.key)
            seen.append(visible_text(app))
            if step.gap:
                await asyncio.sleep(step.gap)
    elif isinstance(step, Typed):
        await pilot.press(*step.word)
    elif isinstance(step, Click):
        # Every widget but one that quits (quitting is not a crash), and the footer: a
        # click at its corner lands on its first key, Quit when a text box has the cursor.
        widgets: list[Widget] = [w for w in app.screen.query("*")
                                 if w.display and w.region.area and w.visible
                                 and not isinstance(w, Footer)
                                 and getattr(w, "action", "") not in ("quit", "app.quit")]
        if widgets:
            target = widgets[step.index % len(widgets)]
            for _ in range(2 if step.twice else 1):
                try:
                    await pilot.click(target)
                except Exception:  # scrolled away or removed meanwhile: a missed click
                    break
                seen.append(visible_text(app))
    elif isinstance(step, Resize):
        await pilot.resize_terminal(step.width, step.height)
    elif isinstance(step, Pause):
        await asyncio.sleep(step.seconds)


async def run_chaos(steps: list[Any], tmp: Path, swallowed: list[str]) -> None:
    """Play ``steps``; after each, the invariants hold and no exception was turned into a
    notice (``swallowed``: what tests/error_guard.py caught, so the shrunk example names it)."""
    app, sandbox = chaos_app(tmp)
    swallowed.clear()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        for number, step in enumerate(steps, 1):
            seen = [visible_text(app)]
            before = len(charged_records(app))
            note(f"step {number}: {step}")
            await perform(pilot, step, seen)
            await settle(pilot)
            assert app.is_running and app.return_code is None, f"crashed at step {number}"
            assert not swallowed, f"an exception at step {number}:\n" + "\n".join(swallowed)
            new = charged_records(app)[before:]
            assert app.credits.spent == balance_fall(sandbox), \
                f"ledger {app.credits.spent} != balance fall {balance_fall(sandbox)}"
            intents = Counter((r.operation, repr(sorted(r.params.items()))) for r in new)
            assert all(count == 1 for count in intents.values()), \
                f"one intent charged twice in step {number}: {intents}"
            shown = "\n".join(seen)
            for record in new:
                assert price_announced(record.credits_charged, shown), \
                    f"{record.operation} charged {record.credits_charged} cr unannounced"


def price_announced(credits: int, shown: str) -> bool:
    """``credits`` stood on screen as a price: the whole number ("12 cr" does not announce
    "2 cr"), and not a running total ("2 cr spent", "2 cr saved" say what happened)."""
    return re.search(rf"(?<![\d\w]){credits} cr\b(?! spent| saved)", shown) is not None


def test_a_price_is_announced_only_by_its_whole_number() -> None:
    assert price_announced(2, "Search · 2 cr") and price_announced(2, "Refresh · 2 cr\n")
    assert price_announced(12, "Search · 12 cr")
    assert not price_announced(2, "Search · 12 cr")  # another price containing it
    assert not price_announced(2, "0 cr spent · 2 cr saved · 9 998 left")
    assert not price_announced(2, "2 cr spent")


HELD_REFRESH = [Typed("Lisbon"), Burst("enter", 1, 0.0), Pause(0.8),
                Burst("ctrl+r", 12, 0.03), Pause(0.8), Burst("ctrl+r", 12, 0.03)]
# Escape first: the explorer opens with the cursor in Events' place box, where "3" is
# text; Escape leaves it, so "3" opens Restaurants and its refresh is pressed.
DOUBLE_CLICKS = [Burst("escape", 1, 0.0), Burst("3", 1, 0.0), Typed("Porto"),
                 Burst("enter", 1, 0.0), Burst("ctrl+r", 10, 0.01), Burst("enter", 8, 0.02)]

FIXED_EXAMPLES = [HELD_REFRESH, DOUBLE_CLICKS]  # always tried: the held keys


def with_fixed_examples(test: Any) -> Any:
    for steps in reversed(FIXED_EXAMPLES):
        test = example(steps=steps)(test)
    return test


@with_fixed_examples
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(STEP, min_size=STEPS // 2, max_size=STEPS))
def test_the_explorer_survives_a_person_and_never_spends_unseen(
    tmp_path_factory: Any, no_swallowed_errors: list[str], steps: list[Any],
) -> None:
    tmp = tmp_path_factory.mktemp("chaos")
    asyncio.run(run_chaos(steps, tmp, no_swallowed_errors))


def test_the_readme_counts_the_chaos_examples_make_test_runs() -> None:
    """The README's figure is what runs: the fixed examples and the seeded ones."""
    readme = (Path(__file__).parents[2] / "README.md").read_text()
    found = re.search(r"`make test` runs (\d+) fixed\s+examples", readme)
    assert found, "the README no longer says how many chaos examples `make test` runs"
    assert int(found.group(1)) == len(FIXED_EXAMPLES) + DEFAULT_EXAMPLES
