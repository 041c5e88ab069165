"""Keys in the order they were typed, each sent where the key before it left the focus.

Textual hands a key to the widget focused when the app reads it, but a key that moves
the focus (``/``, Tab, a letter typed at the map) does so only once it has bubbled back
up to the app's bindings. Keys that arrive together, as a fast typist's "/Contoso, Tab,
contoso.com, Enter" does, are all read before that: they reach the old focus and come
out scrambled ("C" in one box, "ontoso" lost to single-key bindings). Pilot hands keys
over one at a time, so only a real terminal shows it (tests/terminal).

:class:`KeyQueue` holds each key, and each paste, until the one before has finished its
whole trip: a callback sent after it along the same path (the target, each parent, the
app) reaches the app only once every node has handled that key. A trip that cannot end
(its widget was removed on the way) is given up after :data:`GIVE_UP_AFTER`, so typing is
never stuck.

A held Enter is one press: its repeats (each within the spend guard's repeat window of
the last) never press a price button that the first Enter moved the focus to (Enter on
the map picks a point and focuses Search; twelve repeats must not search).

The rest of a word whose first letter opened a dialog is not typed into it
(:mod:`creditscope.tui.key_bursts`).

Escape and the key after it, typed within Textual's escape delay, arrive as the bytes of
Alt+key (``ESC 3``); nothing in the explorer is bound to Alt, and a person means Escape,
then 3 (switch to area 3), so :func:`typed_keys` splits such a key in two.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import events

from creditscope.tui.key_bursts import LetterDialogGuard
from creditscope.tui.spend_guard import REPEAT_WINDOW

if TYPE_CHECKING:
    from textual.app import App
    from textual.message_pump import MessagePump

GIVE_UP_AFTER = 0.5  # seconds: no key's own handling takes this long (calls run in workers)


def typed_keys(event: events.Event) -> list[events.Event]:
    """``event`` as the keys a person typed: Alt+3 (``ESC 3``) is Escape, then 3."""
    if isinstance(event, events.Key) and event.key.startswith("alt+"):
        rest = event.key.removeprefix("alt+")
        if len(rest) == 1 and rest.isalnum() and event.character == rest:
            return [events.Key("escape", "\x1b"), events.Key(rest, rest)]
    return [event]


class KeyQueue:
    """The keys and pastes of ``app`` not yet delivered, and the one on its way."""

    def __init__(self, app: App[Any], deliver: Callable[[events.Event], Awaitable[None]]):
        self._app = app
        self._deliver = deliver  # what the app does with a key read from the terminal
        self._waiting: deque[tuple[events.Event, bool]] = deque()  # (key, scripted)
        self._trip = 0  # numbers each key's trip, so a late echo of an old one is ignored
        self._since: float | None = None  # when the key on its way was delivered
        self._watching = False  # a timer will check that the trip on its way ends
        self._enter_last = float("-inf")  # when the last Enter was read
        self._enter_focus: object | None = None  # where the Enters held down since began
        self._bursts = LetterDialogGuard(app)

    async def take(self, event: events.Event, *, scripted: bool = False) -> None:
        """Deliver ``event`` now if nothing is on its way, else after what is. A
        ``scripted`` key (the guided tour's) is meant, every one: never a held key."""
        for key in typed_keys(event):
            await self._take_one(key, scripted)

    async def _take_one(self, event: events.Event, scripted: bool) -> None:
        if self._since is not None and time.monotonic() - self._since > GIVE_UP_AFTER:
            await self._arrived(self._trip)  # its trip was lost: the keys behind it go on
        if self._since is not None:
            self._waiting.append((event, scripted))
            if not self._watching:
                self._watching = True
                self._app.set_timer(GIVE_UP_AFTER, self._give_up)
            return
        await self._send(event, scripted)

    async def _send(self, event: events.Event, scripted: bool) -> None:
        # Asked as each key is sent: by then the key before it has opened what it opens.
        if not scripted and (self._held_onto_a_price(event) or self._bursts.drops(event)):
            await self._arrived(self._trip)  # dropped: the next key may go
            return
        target: MessagePump = self._app.focused or self._app.screen
        self._trip += 1
        self._since = time.monotonic()
        await self._deliver(event)
        self._follow(target, self._trip)

    def _follow(self, node: MessagePump, trip: int) -> None:
        """Send a callback after the key along its path: it runs at each node once that node
        has handled the key, then moves on to the parent; at the app, the key is done."""
        parent = node._parent  # the way a key bubbles (every node has one but the app)
        # At the app, or a node closed on the way (it can pass nothing on): done.
        at_end = node is self._app or parent is None
        if at_end or not node.call_later(self._follow, parent, trip):
            self._app.call_later(self._arrived, trip)

    def _held_onto_a_price(self, event: events.Event) -> bool:
        """True for an Enter repeated by a held key that would now press a price button
        the held Enter did not start on."""
        if not isinstance(event, events.Key):
            return False
        if event.key != "enter":
            # A held key repeats with nothing between: Enter, `m`, Enter is two presses.
            self._enter_last = float("-inf")
            return False
        from creditscope.tui.widgets.price_button import PriceButton

        # When the terminal sent it (a key may wait here behind a slow one).
        read_at, focus = event.time, self._app.focused
        held = read_at - self._enter_last < REPEAT_WINDOW
        self._enter_last = read_at
        if not held:
            self._enter_focus = focus
            return False
        return focus is not self._enter_focus and isinstance(focus, PriceButton)

    async def _arrived(self, trip: int) -> None:
        if trip != self._trip:
            return
        self._since = None
        if self._waiting:
            await self._send(*self._waiting.popleft())

    async def _give_up(self) -> None:
        self._watching = False
        if self._since is not None and time.monotonic() - self._since >= GIVE_UP_AFTER:
            await self._arrived(self._trip)
        elif self._waiting:  # still moving: look again later
            self._watching = True
            self._app.set_timer(GIVE_UP_AFTER, self._give_up)
