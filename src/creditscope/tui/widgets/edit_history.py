"""Undo and redo for a one-line text box (Textual's ``Input`` has neither; ``TextArea``
has its own).

Each step is what the box held before an edit, with its cursor. Typing a word is one
step, as in editors: a character typed right where the last one went joins that step,
until a space. Anything else (a paste, a deletion, a completion taken, a value set by
the screen) is a step of its own, so a box cleared or replaced is one Ctrl+Z away.
"""

from __future__ import annotations

from typing import NamedTuple

STEPS_KEPT = 100


class BoxState(NamedTuple):
    """What a box holds and where its cursor is."""

    value: str
    cursor: int


def _typed_at(before: str, after: str) -> int | None:
    """Where one character was inserted into ``before`` to make ``after``, else None."""
    if len(after) != len(before) + 1:
        return None
    at = next((i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b),
              len(before))
    return at if after[:at] + after[at + 1:] == before else None


class EditHistory:
    """The undo and redo stacks of one box."""

    def __init__(self) -> None:
        self._undo: list[BoxState] = []
        self._redo: list[BoxState] = []
        self._typing_ends_at: int | None = None  # where the word being typed ends

    def record(self, before: BoxState, after_value: str) -> None:
        """Note an edit from ``before`` to ``after_value``."""
        at = _typed_at(before.value, after_value)
        continues_word = (at is not None and at == self._typing_ends_at
                          and not after_value[at].isspace())
        if not continues_word:
            self._undo = [*self._undo[-(STEPS_KEPT - 1):], before]
        self._typing_ends_at = None if at is None else at + 1
        self._redo.clear()

    def end_word(self) -> None:
        """The next character typed starts a step of its own (the box lost the cursor:
        a letter typed after coming back is a new edit)."""
        self._typing_ends_at = None

    def undo(self, current: BoxState) -> BoxState | None:
        """The state before the last step (None when there is none); ``current`` can be
        brought back by :meth:`redo`."""
        return self._step(self._undo, self._redo, current)

    def redo(self, current: BoxState) -> BoxState | None:
        """The state the last undo left (None when nothing was undone since an edit)."""
        return self._step(self._redo, self._undo, current)

    def _step(self, source: list[BoxState], target: list[BoxState],
              current: BoxState) -> BoxState | None:
        if not source:
            return None
        target.append(current)
        self.end_word()
        return source.pop()
