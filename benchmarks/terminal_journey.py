"""Driving the credit-efficiency journey (``journey.JOURNEY``) through the installed
``creditscope`` in a pseudo-terminal, with keys as a person types them.

The Pilot driver (``journey_driver.py``) sets field values and calls actions; this one
only writes keys to the terminal (``tests/terminal_harness.py``) and waits for what the
screen shows, so it measures the product a user runs: Textual's real terminal driver,
the sandbox child, every key through the app's key handling. Each step waits for its
result on the emulated screen (a deadline, then the screen in the error).
"""

from __future__ import annotations

import re
import sys
import time

from _common import TESTS

sys.path.insert(0, str(TESTS))
from journey import EventsPage, LookupCompany, OpenRestaurant, SearchRestaurants, Step

from creditscope.tui.spend_guard import REPEAT_WINDOW
from terminal_harness import ENTER, TAB, Terminal

CTRL_L = b"\x0c"  # Events: load more
CTRL_U = b"\x15"  # a text box: delete everything left of the cursor
DOWN, UP = b"\x1b[B", b"\x1b[A"
PART_KEYS = {"details": b"v", "menu": b"m", "reviews": b"r"}
# What only a part's fetched answer shows.
PART_SHOWN = {"details": r"Opening hours", "menu": r"\d+ of \d+ dishes",
              "reviews": r"Reviews · cached"}
PRICE = r"· (\d+ cr|cached · free)"
STEP_TIMEOUT = 30.0
TYPING_ATTEMPTS = 4
ROW = re.compile(r"^   (\S.*?)\s{2,}")  # a results row starts with its name


class TerminalJourney:
    """The explorer in ``term``, started and idle; :meth:`run` shows every step."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.city: str | None = None  # the city whose result list is open
        self.opened: tuple[str, int] | None = None  # the restaurant on screen
        self.last_press = 0.0  # monotonic time of the last key that may spend

    def press(self, key: bytes) -> None:
        """A key that may spend, no sooner after the last than a person presses again
        (closer presses in one place are one held key to the spend guard)."""
        time.sleep(max(0.0, self.last_press + REPEAT_WINDOW + 0.1 - time.monotonic()))
        self.term.send(key)
        self.last_press = time.monotonic()

    def run(self, journey: list[Step]) -> None:
        for step in journey:
            if isinstance(step, SearchRestaurants):
                self.search(step.city)
            elif isinstance(step, OpenRestaurant):
                self.open(step.city, step.rank, step.part)
            elif isinstance(step, LookupCompany):
                self.company(step.name, step.website)
            elif isinstance(step, EventsPage):
                self.events(step)

    # --- moving about ------------------------------------------------------------------

    def area(self, key: bytes, drawn: str) -> None:
        """Leave any text box (Escape), then switch area with ``key`` until ``drawn``
        shows; a digit that a busy app still gave to the box is wiped and sent again."""
        for _ in range(TYPING_ATTEMPTS):
            self.term.press_escape()
            self.term.send(key)
            try:
                self.term.wait_for(drawn, timeout=5)
                break
            except AssertionError:
                self.term.send(CTRL_U)
        else:
            raise RuntimeError(f"area {key!r} never opened:\n{self.term.text()}")
        self.term.settle(quiet=0.15)

    def type_into(self, keys: list[str | bytes], shown: str, priced: str) -> None:
        """``/`` (the area's main box, its text selected), then ``keys``, until the box
        holds ``shown`` and the ``priced`` button beside it shows a price. Typed again
        when a key is lost (as keys right after ``/`` sometimes are; benchmarks/README.md)."""
        ready = re.escape(f"▊  {shown}") + ".*" + re.escape(priced) + " " + PRICE
        for attempt in range(TYPING_ATTEMPTS):
            if attempt:
                self.term.press_escape()
            self.term.send(b"/")
            time.sleep(0.2)
            self.term.burst(keys, gap_ms=(5, 15))
            try:
                self.term.wait_for(ready, timeout=5)
                return
            except AssertionError:
                continue
        raise RuntimeError(f"could not type {shown!r}:\n{self.term.text()}")

    def leave_restaurant(self) -> None:
        if self.opened is not None:
            self.term.press_escape()
            self.term.wait_for(r"restaurants near", timeout=STEP_TIMEOUT)
            self.opened = None

    # --- the steps -----------------------------------------------------------------------

    def search(self, city: str) -> None:
        self.leave_restaurant()
        self.area(b"3", r"Results \(1-30\)")
        self.type_into([city], city, "Search")
        self.press(ENTER)
        self.term.wait_for(rf"restaurants near {city}.*⏎ opens", timeout=STEP_TIMEOUT)
        self.term.settle(quiet=0.15)
        self.city = city

    def open(self, city: str, rank: int, part: str) -> None:
        if self.opened != (city, rank):
            if self.city != city or self.opened is not None:
                self.search(city)
            name = self.row_names()[rank]
            self.cursor_to(name)
            self.press(ENTER)
            self.term.wait_for(rf"› {re.escape(name)} › Overview", timeout=STEP_TIMEOUT)
            self.opened = (city, rank)
        self.term.send(PART_KEYS[part])
        shown = PART_SHOWN[part]
        found = self.term.wait_for(shown + "|not fetched yet", timeout=STEP_TIMEOUT)
        if found.group(0) == "not fetched yet":
            self.press(ENTER)
            self.term.wait_for(shown, timeout=STEP_TIMEOUT)
        self.term.settle(quiet=0.15)

    def row_names(self) -> list[str]:
        """The names in the result list on screen, top to bottom."""
        lines = self.term.text().splitlines()
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("Name "))
        names = []
        for line in lines[start + 1:]:
            found = ROW.match(line)
            if found is None:
                break
            names.append(found.group(1))
        return names

    def offered(self) -> str | None:
        """The restaurant the summary line says Enter opens (the list's cursor)."""
        shown = re.search(r"⏎ opens (.+?) ·\s", self.term.text())  # "· 2 cr", may wrap
        return shown.group(1) if shown else None

    def cursor_to(self, name: str) -> None:
        """Move the list's cursor a key at a time, each move seen on screen, to ``name``."""
        names = self.row_names()
        for _ in range(2 * len(names)):
            at = self.offered()
            if at == name:
                return
            self.term.send(DOWN if at not in names or names.index(at) < names.index(name)
                           else UP)
            deadline = time.monotonic() + STEP_TIMEOUT
            while self.offered() == at and time.monotonic() < deadline:
                self.term.pump(0.05)
        raise RuntimeError(f"could not move the cursor to {name}:\n{self.term.text()}")

    def company(self, name: str, website: str | None) -> None:
        self.leave_restaurant()
        self.area(b"2", r"Look up ·")
        self.type_into([name, TAB, CTRL_U, website or ""], name, "Look up")
        self.press(ENTER)
        first_word = name.split()[0]
        self.term.wait_for(rf"Query {first_word}.*Company page", timeout=STEP_TIMEOUT)
        self.term.settle(quiet=0.15)

    def events(self, step: EventsPage) -> None:
        self.leave_restaurant()
        if step.page == 0:
            self.area(b"1", r"Per page \(1-50\)")
            place = f"{step.lat}, {step.lng}"
            self.type_into([place], place, "Search")
            self.press(ENTER)
        else:
            self.press(CTRL_L)
        shown = 20 * (step.page + 1)
        self.term.wait_for(rf"\b{shown} shown over", timeout=STEP_TIMEOUT)
        self.term.settle(quiet=0.15)
