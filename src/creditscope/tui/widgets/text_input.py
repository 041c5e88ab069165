"""``TextInput``: the one text box every form in the explorer uses.

Textual's ``Input`` draws whatever it holds. A pasted escape character
(``"red\\x1b[31m"``) reaches the terminal raw and can recolour it, and it
breaks the XML of ``save_screenshot`` SVGs; a bidi override (U+202E) makes the
box show text other than what would be sent. ``TextInput`` removes those
characters as they arrive (pasted, typed or set from code), so what the user
sees is exactly what is sent, and rings the bell as ``Input`` does for any
refused character. Ordinary emoji, accents and right-to-left letters are kept.

It can also take the inline completion on Enter: with
``accept_suggestion_on_submit=True``, Enter on "lisb" while the box suggests
"Lisbon, PT" takes "Lisbon, PT". Enter submits at once only when the completion
means what the text typed already meant (``meaning``: "Lisbon" is Lisbon, PT, whose
price the screen showed); otherwise that Enter only completes, the screen prices
the completed text, and the next Enter submits at the price on screen. Tab takes the
completion too, as the hints promise. If the suggester has not answered yet, Enter
and Tab ask it first, so the outcome does not depend on typing speed.

A box the explorer put the cursor in unasked (a cold start's search box) is not yet the
user's: until something is typed in it, or it is chosen (``/``, a click), the keys that
switch areas keep switching them, as they do in every area where no box has the cursor
(``cursor_unasked``). A newcomer's ``3`` is Restaurants, not the start of a place.
"""

from __future__ import annotations

import unicodedata
from typing import Any, ClassVar

from textual import events
from textual.binding import ActiveBinding, Binding, BindingType
from textual.suggester import SuggestionReady
from textual.widget import Widget
from textual.widgets import Input

from creditscope.outside_text import BIDI_CONTROLS
from creditscope.tui.navigation import NAV_ENTRIES
from creditscope.tui.widgets.edit_history import BoxState, EditHistory


def focus_now(widget: Widget) -> None:
    """Focus ``widget`` before the next key is handled.

    ``Widget.focus()`` takes effect only after the messages already queued, and the
    next key is sent as soon as this one is handled (key_order): it must find the
    field focused, or it would reach the screen's single-key bindings. Every key
    that focuses a field uses this.
    """
    widget.screen.set_focus(widget)


AREA_BINDINGS = frozenset(entry.binding_id for entry in NAV_ENTRIES)
"""The bindings that switch areas (1-7 unless the user's keymap moved them)."""


def _unsafe(char: str) -> bool:
    # Category Cc is exactly C0 (U+0000-001F), DEL and C1 (U+0080-009F).
    return unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS


def clean_text(text: str) -> str:
    """``text`` without control or bidi-override characters; a tab becomes a space.

    >>> clean_text("red\\x1b[31m")
    'red[31m'
    >>> clean_text("tab\\tbed")
    'tab bed'
    """
    # Each character goes on its own: ESC is removed and "[31m" stays visible, so the
    # user sees what the pasted text held rather than a silent guess at what it meant.
    return "".join(
        " " if char == "\t" else char for char in text if char == "\t" or not _unsafe(char)
    )


def _starts_like_curl(text: str) -> bool:
    """A one-line curl or wget command (several lines open Import request anyway)."""
    # Imported here: the command readers are not in the first frame.
    from creditscope.support.curl_parse import looks_like_curl
    from creditscope.support.wget_parse import looks_like_wget

    return looks_like_curl(text) or looks_like_wget(text)


class TextInput(Input):
    """An ``Input`` that never holds control or bidi-override characters.

    Args:
        accept_suggestion_on_submit: Enter takes the inline completion of the text
            (the one on show, or about to show), and submits only if it means what the
            text typed meant (see the module docstring).
        **kwargs: Passed to ``Input`` unchanged.
    """

    BINDING_GROUP_TITLE = "a text box"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        # Offered only where a suggester could complete the text (check_action); else Tab
        # moves on, as everywhere.
        Binding("tab", "complete", "Complete", show=False, id="input.complete"),
        # The keys TextArea uses, so every box undoes the same way.
        Binding("ctrl+z,super+z", "undo", "Undo", show=False, id="input.undo"),
        Binding("ctrl+y,super+y", "redo", "Redo", show=False, id="input.redo"),
    ]

    def __init__(
        self, value: str | None = None, *, accept_suggestion_on_submit: bool = False,
        **kwargs: Any,
    ) -> None:
        # Before Input's own __init__, whose setting of the value already runs watchers.
        self.history = EditHistory()
        self._cursor_before_edit: int | None = None  # set by replace, for the undo step
        self._restoring = False
        super().__init__(value, **kwargs)  # cleaned by validate_value
        self.accept_suggestion_on_submit = accept_suggestion_on_submit
        # The suggester's answer for the text as it is, kept as Input keeps its own
        # (set by SuggestionReady, cleared by any change, focus or select-all).
        self._offered = ""
        self.cursor_unasked = False
        """The explorer put the cursor here on its own, and nothing has been typed since:
        the keys that switch areas still do (see the module docstring)."""

    def validate_value(self, value: str) -> str:
        """Clean every assignment too (restored drafts, config values, tests)."""
        return clean_text(value)

    def replace(self, text: str, start: int, end: int) -> None:
        """Insert ``text`` cleaned (every keystroke and paste comes through here)."""
        cleaned = clean_text(text)
        if len(cleaned) != len(text):
            # Input's own signal for refused characters: the bell. (A toast would be
            # timing-dependent in snapshots; the box itself shows what was kept.)
            self.restricted()
        # Cleaning first keeps the cursor right after what was actually inserted.
        self._cursor_before_edit = self.cursor_position
        try:
            super().replace(cleaned, start, end)
        finally:
            self._cursor_before_edit = None

    async def _on_key(self, event: events.Key) -> None:
        """``?`` in an empty box opens help (no search starts with it: a newcomer's first
        key on a cold start, where the cursor is in a box, is help); a key that switches
        areas does so in a box the cursor was put in unasked; else Input's own."""
        if event.character == "?" and not self.value:
            event.stop()
            event.prevent_default()
            await self.run_action("app.help")
            return
        area_key = self._area_binding(event.key) if self.cursor_unasked else None
        if area_key is not None:
            event.stop()
            event.prevent_default()
            await self.app.run_action(area_key.binding.action, area_key.node)
            return
        await super()._on_key(event)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        """A digit is left to the area keys while the cursor is here unasked (Textual
        leaves out the bindings of every key a focused box would type)."""
        if self.cursor_unasked and character is not None and character.isdigit():
            return False
        return super().check_consume_key(key, character)

    def _area_binding(self, key: str) -> ActiveBinding | None:
        active = self.screen.active_bindings.get(key)
        return active if active is not None and active.binding.id in AREA_BINDINGS else None

    def on_mouse_down(self) -> None:
        """A click chooses the box: from now on a number typed here is text."""
        self.cursor_unasked = False

    def _on_paste(self, event: events.Paste) -> None:
        """A whole request pasted into one box (a curl or wget command, or text of several lines,
        of which Textual would keep the first and drop the rest) is not this field's
        value: Import request opens with all of it, and the box keeps what it held."""
        text = event.text.strip()
        open_import = getattr(self.screen, "action_import_request", None)
        if open_import is None or not ("\n" in text or _starts_like_curl(text)):
            return  # Input's own paste
        event.prevent_default()
        event.stop()
        open_import(event.text)

    def watch_value(self, old: str, new: str) -> None:
        """Any change makes the last suggestion stale (a new one is on its way), and is a
        step that Ctrl+Z undoes."""
        self._offered = ""
        self.cursor_unasked = False  # typed in: the box is the user's now
        if not self._restoring and self.is_mounted:
            # A keystroke or paste knows its cursor; a value set by the screen ends there.
            cursor = self._cursor_before_edit
            self.history.record(BoxState(old, len(old) if cursor is None else cursor), new)

    def action_undo(self) -> None:
        """Ctrl+Z: the text as it was before the last edit (a typed word, a paste, a
        clear, a letter that replaced a selection)."""
        self._restore(self.history.undo(BoxState(self.value, self.cursor_position)))

    def action_redo(self) -> None:
        """Ctrl+Y: the edit the last Ctrl+Z took back."""
        self._restore(self.history.redo(BoxState(self.value, self.cursor_position)))

    def _restore(self, state: BoxState | None) -> None:
        if state is None:
            self.app.bell()
            return
        self._restoring = True
        try:
            self.value = state.value
        finally:
            self._restoring = False
        self.cursor_position = min(state.cursor, len(state.value))

    def on_suggestion_ready(self, event: SuggestionReady) -> None:
        """Keep the suggester's answer when it is for the text as it is now."""
        if event.value == self.value:
            self._offered = event.suggestion

    def on_focus(self) -> None:
        """Input hides its suggestion on focus; so do we."""
        self._offered = ""

    def on_blur(self) -> None:
        """What is typed after coming back is an undo step of its own; coming back is
        the user's choice."""
        self.history.end_word()
        self.cursor_unasked = False

    def select_all(self) -> None:
        """Select all of the text (which hides the suggestion, as in Input)."""
        self._offered = ""
        super().select_all()

    @property
    def visible_suggestion(self) -> str:
        """The completion drawn after the text right now ("" when none is showing)."""
        if self.has_focus and len(self._offered) > len(self.value):
            return self._offered
        return ""

    async def completion(self) -> str:
        """The completion of the text as it is: the one on show, or else the suggester's
        answer fetched now ("" when there is none)."""
        value = self.value
        if not (self.suggester and value):
            return ""
        if len(self._offered) > len(value):  # reset on every change, so it is for `value`
            return self._offered
        # Not on show yet (the suggester answers in a worker): ask it directly, through its
        # cache, so what Enter searches never depends on how fast the user pressed it.
        key = value if self.suggester.case_sensitive else value.casefold()
        cache = self.suggester.cache
        if cache is not None and key in cache:
            suggestion = cache[key]
        else:
            suggestion = await self.suggester.get_suggestion(key)
            if cache is not None:
                cache[key] = suggestion
        return suggestion if suggestion and len(suggestion) > len(value) else ""

    def meaning(self, text: str) -> object | None:
        """What ``text`` stands for (a place, say), or None for nothing yet. Enter submits
        a completion at once only when it means what the typed text already did."""
        return None

    def _take(self, completion: str) -> None:
        # As pressing → at the end does: the value becomes the completion.
        self.value = completion
        self.cursor_position = len(completion)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Tab completes only in a box that has a suggester, text, and the cursor at its
        end (where the completion is drawn)."""
        if action == "complete":
            return bool(self.suggester and self.value
                        and self.cursor_position == len(self.value))
        return super().check_action(action, parameters)

    async def action_complete(self) -> None:
        """Tab: take the completion; with none to take, move on as Tab does elsewhere."""
        typed = self.value
        suggestion = await self.completion()
        if suggestion and self.value == typed:
            self._take(suggestion)
        elif not suggestion:
            self.screen.focus_next()

    async def action_submit(self) -> None:
        """Enter: first take the completion (if asked to), then submit, unless taking it
        changed what the text means: then it waits for the next Enter."""
        if self.accept_suggestion_on_submit:
            typed = self.value
            suggestion = await self.completion()
            if suggestion and self.value == typed:  # unless the text changed meanwhile
                self._take(suggestion)
                meant = self.meaning(typed)
                if meant is None or meant != self.meaning(suggestion):
                    return  # completed, not sent: the screen prices it for the next Enter
        await super().action_submit()
