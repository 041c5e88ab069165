"""Plays the tour's scenes in the running explorer with real keystrokes.

The driver posts :class:`textual.events.Key` events to the app, exactly as a
terminal's keys arrive, and remembers which ones are its own. The app hands it
every other key first (see ``CreditscopeApp.on_event``): Space pauses and
resumes, Left and Right step to the previous or next scene (while paused, a step
plays that scene and holds at its end), and any other key, click or paste stops
the tour where it is: the caption goes, the explorer stays as it is, and that key
does nothing else (Ctrl+Q and Ctrl+C still quit).

It runs as an asyncio task of its own, not a Textual worker: a worker that loops
would keep "wait for every worker" (what a key's requests are awaited with, here
and in tests) waiting forever.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ScreenStackError

from creditscope.tui.host import host_of
from creditscope.tui.navigation import entry_for
from creditscope.tui.tour.caption import TourCaption, TourState
from creditscope.tui.tour.sandbox_only import why_not_here
from creditscope.tui.tour.script import (
    SCENES,
    Action,
    Bound,
    Check,
    Go,
    Needs,
    Press,
    Scene,
    Settle,
    Type,
    When,
)

if TYPE_CHECKING:
    from textual.screen import Screen

    from creditscope.tui.app import CreditscopeApp

MIN_GAP = 0.02  # real seconds after every key, whatever the speed: the key lands first
SETTLE_TIMEOUT = 30.0  # seconds a step waits for its requests at most
LEAD_IN = 1.5  # seconds to read a caption before its keys start
PASS_THROUGH = frozenset({"ctrl+q", "ctrl+c"})  # they stop the tour and still quit


@dataclass(frozen=True)
class TourOptions:
    """How the tour plays: ``loop`` (else once, then the explorer is the visitor's),
    ``speed`` (2 is twice as fast), ``paused`` (hold at the end of the first scene)."""

    loop: bool = True
    speed: float = 1.0
    paused: bool = False


def key_for_character(character: str) -> str:
    """The key name a terminal reports for ``character`` (``"."`` -> ``"full_stop"``)."""
    if character.isalnum():
        return character
    name = unicodedata.name(character, "").lower().replace("-", "_").replace(" ", "_")
    return name or character


class TourDriver:
    """One tour in one app: started by :meth:`start`, ended by :meth:`stop`."""

    def __init__(self, app: CreditscopeApp, options: TourOptions,
                 scenes: tuple[Scene, ...] = SCENES) -> None:
        self.app = app
        self.options = options
        self.scenes = scenes
        self.index = 0
        self.paused = options.paused
        self.loops = 0  # times the last scene was passed and the tour began again
        self.started: list[int] = []  # every scene begun, in order (tests read it)
        self.holding = asyncio.Event()  # paused at the end of a scene
        self.stopped = asyncio.Event()
        self.refusal: str | None = None  # why the tour did not start, if it did not
        self._stepping = options.paused  # a step while paused plays its scene through
        self._resumed = asyncio.Event()
        if not self.paused:
            self._resumed.set()
        self._own: dict[int, events.Key] = {}  # keys this driver posted, not yet seen
        self._hurry = False
        self._task: asyncio.Task[None] | None = None
        self._captions: list[TourCaption] = []

    # --- life cycle ------------------------------------------------------------------

    def start(self) -> None:
        """Wait for the client, check that the tour is free here, then play."""
        self._task = asyncio.create_task(self._begin())

    async def _begin(self) -> None:
        host = host_of(self.app)
        try:
            await host.wait_for_client()
        except Exception:  # the explorer shows why the client did not start
            self.stop()
            return
        self.refusal = why_not_here(host.settings)
        if self.refusal is not None:
            self.app.notify(f"The guided tour is off: {self.refusal}", title="Guided tour",
                            severity="warning", timeout=12)
            self.stop()
            return
        self.app.screen_change_signal.subscribe(self.app, self._place_caption)
        self._place_caption()
        await self._play_from(self.index)

    def stop(self) -> None:
        """End the tour where it is: captions gone, the explorer as it is."""
        if self.stopped.is_set():
            return
        self.stopped.set()
        current = asyncio.current_task()
        if self._task is not None and self._task is not current:
            self._task.cancel()
        self._resumed.set()
        with contextlib.suppress(Exception):  # not subscribed if the tour never started
            self.app.screen_change_signal.unsubscribe(self.app)
        for caption in self._captions:
            if caption.is_attached:
                caption.remove()
        self._captions.clear()
        self._own.clear()
        if self.app.tour is self:
            self.app.tour = None

    @property
    def running(self) -> bool:
        """True until the tour is stopped or refused."""
        return not self.stopped.is_set()

    # --- the visitor's keys ------------------------------------------------------------

    def posted(self, event: events.Event) -> bool:
        """True for a key this driver pressed and the explorer has not seen yet."""
        return id(event) in self._own

    def intercept(self, event: events.Event) -> bool:
        """Handle an input event before the explorer does; True when it was used up.

        The tour's own keys go on to the explorer; Space, Left and Right steer the
        tour; any other key, a click or a paste stops it.
        """
        if isinstance(event, events.Key):
            if self._own.pop(id(event), None) is not None:
                return False
            if event.key == "space":
                self.toggle_pause()
                return True
            if event.key in ("left", "right"):
                self.step(-1 if event.key == "left" else 1)
                return True
            self.stop()
            return event.key not in PASS_THROUGH
        if isinstance(event, events.MouseDown | events.Paste):
            self.stop()
            return True
        return False

    def toggle_pause(self) -> None:
        """Space: hold after the current key, or go on."""
        self.paused = not self.paused
        if self.paused:
            self._resumed.clear()
        else:
            self._stepping = False
            self.holding.clear()
            self._resumed.set()
        self._show_caption()

    def step(self, delta: int) -> None:
        """An arrow: play the previous (-1) or next (+1) scene from its start."""
        target = self.index + delta
        if target >= len(self.scenes):
            if not self.options.loop:
                self.stop()
                return
            target = 0
        self._restart(max(target, 0))

    def _restart(self, index: int) -> None:
        if self._task is not None:
            self._task.cancel()
        self._stepping = self.paused
        self.holding.clear()
        self._task = asyncio.create_task(self._play_from(index))

    # --- playing -----------------------------------------------------------------------

    async def _play_from(self, index: int) -> None:
        self.index = index
        try:
            while self.running:
                await self._play(self.scenes[self.index])
                if self.paused:  # a stepped scene holds at its end
                    self.holding.set()
                    await self._resumed.wait()
                    self.holding.clear()
                if self.index + 1 >= len(self.scenes):
                    if not self.options.loop:
                        break
                    self.loops += 1
                self.index = (self.index + 1) % len(self.scenes)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a bug in the tour must not take the explorer down
            self.app.report_widget_error("the guided tour", error)
        self.stop()

    async def _play(self, scene: Scene) -> None:
        self.started.append(self.index)
        host = host_of(self.app)
        if not host.is_sandbox:  # settings changed under the tour: never spend live
            self.stop()
            return
        self._show_caption()
        actions = list(scene.actions)
        while actions and isinstance(actions[0], Go | Needs):  # get there, then the lead-in
            await self._do(actions.pop(0))
        await self._wait(LEAD_IN)
        for action in actions:
            await self._do(action)
        await self._wait(scene.dwell)

    async def _do(self, action: Action) -> None:
        if isinstance(action, Press):
            for key in action.keys:
                await self._press(key, None, action.pace)
        elif isinstance(action, Bound):
            await self._press(self._bound_key(action.binding_id, action.default), None,
                              action.pace)
        elif isinstance(action, Type):
            for character in action.text:
                await self._press(key_for_character(character), character, action.pace)
        elif isinstance(action, Go):
            await self._go(action.mode)
        elif isinstance(action, Settle):
            await self._settle()
            if action.check is not None:
                await self._until(action.check, action.timeout)
        elif isinstance(action, When):
            if action.check(self.app):
                for inner in action.actions:
                    await self._do(inner)
        elif isinstance(action, Needs) and not action.check(self.app):
            self._hurry = True
            try:
                for inner in action.actions:
                    await self._do(inner)
            finally:
                self._hurry = False

    async def _go(self, mode: str) -> None:
        for _ in range(3):  # a text box, a detail screen, the area's own box
            await self._press("escape", None, 0.1)
        entry = entry_for(mode)
        await self._press(self._bound_key(entry.binding_id, entry.key), None, 0.8)
        await self._until(lambda app: host_of(app).current_mode == mode
                          and len(app.screen_stack) == 1, 3.0)

    def _bound_key(self, binding_id: str, default: str) -> str:
        keys = host_of(self.app).settings.keys or {}
        return (keys.get(binding_id) or default).split(",")[0].strip()

    async def _press(self, key: str, character: str | None, pace: float) -> None:
        await self._gate()
        if not self.running:
            raise asyncio.CancelledError
        event = events.Key(key, character if character is not None else _character_of(key))
        self._own[id(event)] = event
        self.app.post_message(event)
        await asyncio.sleep(MIN_GAP)
        await self._wait(0.0 if self._hurry else pace)

    async def _gate(self) -> None:
        """Hold here while paused (unless playing a stepped scene through)."""
        if not self._stepping:
            await self._resumed.wait()

    async def _wait(self, seconds: float) -> None:
        """``seconds`` at speed 1, in slices, held while paused."""
        remaining = seconds / self.options.speed
        while remaining > 0:
            await self._gate()
            piece = min(remaining, 0.05)
            await asyncio.sleep(piece)
            remaining -= piece

    async def _settle(self) -> None:
        """Let the last key land, then wait for every request it started."""
        for _ in range(3):
            await asyncio.sleep(MIN_GAP)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.app.workers.wait_for_complete(), SETTLE_TIMEOUT)

    async def _until(self, check: Check, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not check(self.app) and time.monotonic() < deadline:
            await asyncio.sleep(MIN_GAP)

    # --- the caption -------------------------------------------------------------------

    def state(self) -> TourState:
        """What the caption says now."""
        scene = self.scenes[self.index]
        return TourState(scene.title, scene.caption(host_of(self.app)), self.index + 1,
                         len(self.scenes), self.paused)

    def _show_caption(self) -> None:
        state = self.state()
        for caption in self._captions:
            if caption.is_attached:
                caption.show(state)
        self._place_caption()

    def _place_caption(self, _screen: Screen[Any] | None = None) -> None:
        """Put a caption above the footer of the area on screen, if it has none yet."""
        from creditscope.tui.screens.base import AreaScreen

        if not self.running:
            return
        self._captions = [caption for caption in self._captions if caption.is_attached]
        try:
            screen = self.app.screen
        except ScreenStackError:  # the explorer is closing under the tour
            return
        if not isinstance(screen, AreaScreen) or screen.query(TourCaption):
            return
        body = screen.query(".area-body")
        if not body:  # a screen still being composed: once it is up
            self.app.call_after_refresh(self._place_caption)
            return
        caption = TourCaption(self.state())
        self._captions.append(caption)
        screen.mount(caption, after=body.first())


def _character_of(key: str) -> str | None:
    """The character a key types, as a terminal reports it (``"space"`` -> ``" "``)."""
    from textual.keys import key_to_character

    return key_to_character(key)
