"""One intent, one charge: what a press that would spend does, whatever made it.

Every request the explorer sends goes through :meth:`ResultArea.run
<creditscope.tui.calls.ResultArea.run>`, and every paid one asks this guard
first, so keys, buttons, clicks, palette commands and dialog buttons follow the
same rules, with no case per screen:

- **A held key is one press.** A paid press of the same action in the same place
  (an area and what the press asks for: "the next page of events") less than
  ``REPEAT_WINDOW`` after the previous one (a key's auto-repeat starts 250-660 ms
  after the press, then repeats every 30-40 ms; a double click is under 500 ms)
  is ignored, and each ignored press extends the window, so holding a key for
  ten seconds spends once. Ignoring a press for another request (a held
  "load more" asks for a new page each time) says so.
- **A press while the same request is on the wire joins it**: nothing new is
  sent, and its answer lands where this press was made too (the area sends it
  through the client, whose single-flight shares the one exchange).
- **A paid refresh of data fetched moments ago** (less than ``RECENT_WINDOW``
  seconds) needs a second, deliberate press: the first one only says so.

A confirmed dialog (the over-budget question) is deliberate already and skips
the first and last rules. The guard holds no Textual object and takes its clock
from the caller, so the rules are tested alone.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

REPEAT_WINDOW = 0.7  # seconds: closer paid presses in one place are one held key or click
RECENT_WINDOW = 5.0  # seconds: a paid refresh of an answer this young asks for a second press
CONFIRM_WINDOW = 10.0  # seconds: how long the "press again" offer stands


class Verdict(StrEnum):
    """What to do with a press that would spend."""

    SEND = "send"
    REPEAT = "repeat"  # a held key or a double click: ignored, silently
    TOO_SOON = "too soon"  # another paid request right after one: ignored, with a note
    JOIN = "join"  # the same request is in flight: it answers this press too
    CONFIRM = "confirm"  # a paid refresh of fresh data: press again to pay


def intent_of(operation: str, params: dict[str, Any]) -> str:
    """The request a press asks for, whatever the press (refresh and submission aside):
    its identity, as the cache keys it, so "Lisbon" then "lisbon " is one intent."""
    # Imported on the first paid press, never before the first frame (the table loads
    # pydantic); by then the client's worker has loaded it.
    from creditscope import operations

    try:
        return operations.identity_key(operation, params)
    except KeyError:  # an operation the table does not know: the client refuses it, free
        return operation + " " + json.dumps(params, sort_keys=True, default=str)


@dataclass
class _Place:
    """One place that sends (a result area): when it last saw a paid press."""

    last_press: float = float("-inf")
    last_intent: str = ""
    offered: tuple[str, float] | None = None  # (intent, when) of a standing "press again"


@dataclass
class SpendGuard:
    """Decides each paid press; ``clock`` is monotonic seconds (injected in tests)."""

    clock: Callable[[], float] = time.monotonic
    _places: dict[str, _Place] = field(default_factory=dict)
    _in_flight: dict[str, int] = field(default_factory=dict)  # intent -> requests on the wire
    _landed: dict[str, float] = field(default_factory=dict)  # intent -> when its answer came

    def decide(self, place: str, intent: str, *, refresh: bool,
               deliberate: bool = False) -> Verdict:
        """The verdict for a paid press of ``intent`` in ``place``; SEND means go ahead."""
        now = self.clock()
        spot = self._places.setdefault(place, _Place())
        if not deliberate and now - spot.last_press < REPEAT_WINDOW:
            spot.last_press = now  # a held key keeps the window open
            same = spot.last_intent == intent
            spot.last_intent = intent
            return Verdict.REPEAT if same else Verdict.TOO_SOON
        spot.last_press = now
        spot.last_intent = intent
        if self._in_flight.get(intent):
            return Verdict.JOIN
        if refresh and not deliberate and now - self._landed.get(intent, float("-inf")) < \
                RECENT_WINDOW:
            offered = spot.offered
            if offered is not None and offered[0] == intent and now - offered[1] < \
                    CONFIRM_WINDOW:
                spot.offered = None
                return Verdict.SEND
            spot.offered = (intent, now)
            return Verdict.CONFIRM
        spot.offered = None
        return Verdict.SEND

    def age(self, intent: str) -> float | None:
        """Seconds since ``intent``'s answer landed, if it did in this session."""
        landed = self._landed.get(intent)
        return None if landed is None else self.clock() - landed

    def sent(self, intent: str) -> None:
        """A request for ``intent`` went on the wire."""
        self._in_flight[intent] = self._in_flight.get(intent, 0) + 1

    def finished(self, intent: str, *, answered: bool) -> None:
        """The request for ``intent`` is done; ``answered`` when data came back."""
        count = self._in_flight.get(intent, 0) - 1
        if count > 0:
            self._in_flight[intent] = count
        else:
            self._in_flight.pop(intent, None)
        if answered:
            self._landed[intent] = self.clock()

    def in_flight(self, intent: str) -> bool:
        """True while a request for ``intent`` is on the wire."""
        return bool(self._in_flight.get(intent))
