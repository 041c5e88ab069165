"""The spend guard's rules alone (issue 23, build 1): one intent, one charge."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from creditscope.tui.spend_guard import (
    CONFIRM_WINDOW,
    RECENT_WINDOW,
    REPEAT_WINDOW,
    SpendGuard,
    Verdict,
    intent_of,
)

SEARCH = intent_of("ticketing/discovery", {"lat": 38.72, "lng": -9.14, "limit": 20})


class Clock:
    """Seconds that tests move by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_held_key_is_one_press_however_long_it_is_held() -> None:
    clock = Clock()
    guard = SpendGuard(clock)
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.SEND
    # The first repeat after a slow typematic delay, then every 30 ms for ten seconds.
    clock.now += 0.6
    verdicts = [guard.decide("events", SEARCH, refresh=True)]
    for _ in range(333):
        clock.now += 0.03
        verdicts.append(guard.decide("events", SEARCH, refresh=True))
    assert set(verdicts) == {Verdict.REPEAT}


def test_another_request_right_after_a_paid_one_is_ignored_with_a_note() -> None:
    clock = Clock()
    guard = SpendGuard(clock)
    assert guard.decide("feed", "page 2", refresh=False) is Verdict.SEND
    clock.now += 0.3
    assert guard.decide("feed", "page 3", refresh=False) is Verdict.TOO_SOON
    clock.now += 0.03
    assert guard.decide("feed", "page 3", refresh=False) is Verdict.REPEAT


def test_a_press_while_the_same_request_is_on_the_wire_joins_it() -> None:
    clock = Clock()
    guard = SpendGuard(clock)
    assert guard.decide("a", SEARCH, refresh=False) is Verdict.SEND
    guard.sent(SEARCH)
    clock.now += REPEAT_WINDOW + 0.1
    assert guard.decide("a", SEARCH, refresh=False) is Verdict.JOIN
    assert guard.decide("b", SEARCH, refresh=True, deliberate=True) is Verdict.JOIN
    guard.finished(SEARCH, answered=True)
    assert not guard.in_flight(SEARCH)


def test_a_paid_refresh_of_fresh_data_needs_a_second_deliberate_press() -> None:
    clock = Clock()
    guard = SpendGuard(clock)
    guard.sent(SEARCH)
    guard.finished(SEARCH, answered=True)
    clock.now += 1.0
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.CONFIRM
    clock.now += REPEAT_WINDOW + 0.2  # a pause: a deliberate second press
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.SEND


def just_answered() -> tuple[Clock, SpendGuard]:
    """A guard whose SEARCH answer has just landed."""
    clock = Clock()
    guard = SpendGuard(clock)
    guard.finished(SEARCH, answered=True)
    return clock, guard


def test_the_offer_to_refresh_lapses() -> None:
    clock, guard = just_answered()
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.CONFIRM
    clock.now += CONFIRM_WINDOW + 1  # by now the data is not "moments" old either
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.SEND


def test_old_data_is_refreshed_on_the_first_press() -> None:
    clock, guard = just_answered()
    clock.now += RECENT_WINDOW + 0.1
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.SEND


def test_a_confirmed_dialog_is_deliberate() -> None:
    _, guard = just_answered()
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.CONFIRM
    assert guard.decide("events", SEARCH, refresh=True, deliberate=True) is Verdict.SEND


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0.0, 2.0), st.sampled_from(["a", "b"]),
                          st.sampled_from([SEARCH, "menu x"]), st.booleans()),
                max_size=60))
def test_no_two_sends_of_one_intent_in_one_place_closer_than_a_repeat(
    presses: list[tuple[float, str, str, bool]],
) -> None:
    """Whatever the presses, two sends of one place are never within the repeat window,
    and a refresh within moments of its answer is never sent on a single press."""
    clock = Clock()
    guard = SpendGuard(clock)
    last_send: dict[str, float] = {}
    for gap, place, intent, refresh in presses:
        clock.now += gap
        verdict = guard.decide(place, intent, refresh=refresh)
        if verdict is Verdict.SEND:
            assert clock.now - last_send.get(place, float("-inf")) >= REPEAT_WINDOW
            last_send[place] = clock.now
            guard.sent(intent)
            guard.finished(intent, answered=True)


def test_a_press_for_the_same_request_typed_differently_joins_the_one_in_flight() -> None:
    guard = SpendGuard(Clock())
    typed = intent_of("professional_network/find_company",
                      {"name": "Northwind Labs Ltd", "website": "https://www.northwind.com/"})
    retyped = intent_of("professional_network/find_company",
                        {"name": "northwind labs ltd ", "website": "northwind.com"})
    assert typed == retyped
    assert guard.decide("company", typed, refresh=False) is Verdict.SEND
    guard.sent(typed)
    assert guard.decide("compare", retyped, refresh=False) is Verdict.JOIN
    assert intent_of("restaurants/search", {"location": "Lisbon"}) != \
        intent_of("restaurants/search", {"location": "Porto"})


class ZeroClock(Clock):
    """Starts at 0, so a window's length is met exactly (no float rounding)."""

    def __init__(self) -> None:
        self.now = 0.0


def test_a_press_exactly_a_repeat_window_later_is_a_new_press() -> None:
    clock = ZeroClock()
    guard = SpendGuard(clock)
    assert guard.decide("feed", "page 2", refresh=False) is Verdict.SEND
    clock.now = REPEAT_WINDOW
    assert guard.decide("feed", "page 3", refresh=False) is Verdict.SEND


def test_a_refresh_exactly_recent_window_after_the_answer_is_sent_at_once() -> None:
    clock = ZeroClock()
    guard = SpendGuard(clock)
    guard.finished(SEARCH, answered=True)
    clock.now = RECENT_WINDOW
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.SEND


def test_the_offer_to_pay_again_stands_less_than_its_window() -> None:
    """An offer made at 0 has lapsed at exactly CONFIRM_WINDOW, even if newer data landed
    since: the press is a first one again and asks again."""
    clock = ZeroClock()
    guard = SpendGuard(clock)
    guard.finished(SEARCH, answered=True)
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.CONFIRM
    clock.now = CONFIRM_WINDOW - 2.0
    guard.finished(SEARCH, answered=True)  # another place refreshed it meanwhile
    clock.now = CONFIRM_WINDOW
    assert guard.decide("events", SEARCH, refresh=True) is Verdict.CONFIRM


def test_two_requests_of_one_intent_on_the_wire_are_joined_until_both_are_done() -> None:
    clock = Clock()
    guard = SpendGuard(clock)
    assert not guard.in_flight(SEARCH)
    guard.sent(SEARCH)
    guard.sent(SEARCH)  # a refresh while the first was still out
    guard.finished(SEARCH, answered=False)
    assert guard.in_flight(SEARCH) and not guard.in_flight("menu x")
    clock.now += REPEAT_WINDOW + 0.1
    assert guard.decide("events", SEARCH, refresh=False) is Verdict.JOIN
    guard.finished(SEARCH, answered=True)
    assert not guard.in_flight(SEARCH)
    clock.now += REPEAT_WINDOW + 0.1
    assert guard.decide("events", SEARCH, refresh=False) is Verdict.SEND


def test_the_age_of_an_answer_is_counted_from_when_it_landed() -> None:
    """The "fetched N s ago: press again to pay" note reads this."""
    clock = Clock()
    guard = SpendGuard(clock)
    assert guard.age(SEARCH) is None
    guard.finished(SEARCH, answered=True)
    clock.now += 3.5
    assert guard.age(SEARCH) == 3.5 and guard.age("menu x") is None


def test_an_operation_the_table_does_not_know_still_has_one_intent_per_request() -> None:
    from datetime import date

    first = intent_of("restaurants/nearby", {"b": 1, "a": date(2026, 1, 2)})
    assert first == intent_of("restaurants/nearby", {"a": date(2026, 1, 2), "b": 1})
    assert first != intent_of("restaurants/nearby", {"a": date(2026, 1, 3), "b": 1})
    assert first != intent_of("restaurants/far", {"b": 1, "a": date(2026, 1, 2)})
