"""Full garbage collections wait for the user to be away (``tui/idle_collector.py``).

A full collection after a journey walks 150-350 thousand objects: 100-300 ms of CPU
that CPython would charge to whichever key tipped it (the slow cached revisits of
``benchmarks/revisit_tmux.py --probe``). These check the explorer runs them only
between keys, still runs them, and gives the collector back as it was.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Iterator

import pytest

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.idle_collector import (
    DEEP_IDLE_AFTER,
    DUE_AFTER,
    IDLE_AFTER,
    OVERDUE_AFTER,
    IdleCollector,
)

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def collector() -> Iterator[tuple[IdleCollector, Clock]]:
    clock = Clock()
    idle = IdleCollector(clock)
    before = gc.get_threshold()
    gc.collect()  # counts from zero, whatever an earlier test allocated
    idle.start()
    try:
        yield idle, clock
    finally:
        idle.stop()
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def young_collections(count: int) -> None:
    for _ in range(count):
        gc.collect(1)


def test_cpython_runs_no_full_collection_of_its_own_while_it_runs(
    collector: tuple[IdleCollector, Clock],
) -> None:
    full_before = gc.get_stats()[2]["collections"]
    garbage = []
    for _ in range(300_000):  # enough survivors for many full collections by default
        garbage.append([[]])
        if len(garbage) > 1000:
            garbage.clear()
    assert gc.get_stats()[2]["collections"] == full_before


def test_a_full_collection_waits_for_the_user_to_be_away(
    collector: tuple[IdleCollector, Clock],
) -> None:
    idle, clock = collector
    idle.noticed_input()
    clock.now += IDLE_AFTER / 2
    idle.tick()
    assert idle.full_collections == 0  # typing: not yet, even the first
    clock.now += IDLE_AFTER
    idle.tick()
    assert idle.full_collections == 1 and gc.get_freeze_count() > 0  # start-up set aside

    young_collections(DUE_AFTER)
    idle.noticed_input()
    clock.now += IDLE_AFTER / 2
    idle.tick()
    assert idle.full_collections == 1  # due, but a key just came
    clock.now += IDLE_AFTER
    idle.tick()
    assert idle.full_collections == 2
    idle.tick()
    assert idle.full_collections == 2  # nothing new to collect


def test_a_session_of_constant_typing_still_collects(
    collector: tuple[IdleCollector, Clock],
) -> None:
    idle, _ = collector
    young_collections(OVERDUE_AFTER)
    idle.noticed_input()
    idle.tick()
    assert idle.full_collections == 1


def test_garbage_cycles_made_after_start_up_are_collected(
    collector: tuple[IdleCollector, Clock],
) -> None:
    idle, clock = collector
    clock.now += IDLE_AFTER
    idle.tick()  # start-up set aside

    class Node:
        pass

    cycle = Node()
    cycle.me = cycle  # type: ignore[attr-defined]
    del cycle
    alive = sum(1 for thing in gc.get_objects() if type(thing) is Node)
    young_collections(DUE_AFTER)
    clock.now += IDLE_AFTER
    idle.tick()
    assert alive <= 1 and not [thing for thing in gc.get_objects() if type(thing) is Node]


def test_what_was_set_aside_and_dropped_later_is_collected_by_a_deep_collection(
    collector: tuple[IdleCollector, Clock],
) -> None:
    # Each collection sets its survivors aside, so the next walks only what is new; a
    # screen alive then and closed since is garbage among them, for a deep collection.
    idle, clock = collector
    clock.now += IDLE_AFTER
    idle.tick()  # start-up set aside

    class Screenish:
        pass

    cycle = Screenish()
    cycle.me = cycle  # type: ignore[attr-defined]
    young_collections(DUE_AFTER)
    clock.now += IDLE_AFTER
    idle.tick()  # light: the cycle, alive, is set aside
    assert idle.deep_collections == 1 and idle.full_collections == 2
    del cycle
    gc.collect()  # what CPython would do: the set-aside garbage stays
    assert gc.get_freeze_count() > 0
    clock.now += DEEP_IDLE_AFTER
    idle.tick()
    assert idle.deep_collections == 2
    assert not [thing for thing in gc.get_objects() if type(thing) is Screenish]


async def test_the_explorer_collects_between_keys_not_during_them(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await app.wait_for_client()
        await pilot.pause()
        assert app.idle_collector.running
        assert gc.get_threshold()[2] > 1_000_000  # CPython's own full collections off
        young_collections(DUE_AFTER)
        ran = app.idle_collector.full_collections
        for _ in range(8):  # keys 0.2 s apart for 1.6 s: the user is here
            await pilot.press("right")
            await asyncio.sleep(0.2)
        assert app.idle_collector.full_collections == ran
        await asyncio.sleep(IDLE_AFTER + 1.2)  # away: it runs
        assert app.idle_collector.full_collections > ran
    assert gc.get_threshold()[2] < 1_000_000 and gc.get_freeze_count() == 0
