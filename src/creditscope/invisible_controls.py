"""The characters no outside text may carry into a request: controls and bidi overrides.

C0 controls and DEL (``\\x00``-``\\x1f``, ``\\x7f``), C1 controls (U+0080-U+009F: some
terminals read U+009B as an escape sequence's start) and the bidi embeddings,
overrides and isolates (U+202A-U+202E, U+2066-U+2069: they reorder what is shown, so
``txt.exe`` can read as ``exe.txt``). Right-to-left text itself and emoji are fine.
Pure: every layer may use it.
"""

from __future__ import annotations

import unicodedata

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def is_invisible_control(char: str) -> bool:
    """True for a C0 or C1 control, DEL, or a bidi embedding/override/isolate."""
    return unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS


def first_invisible_control(text: str) -> str | None:
    """The first such character in ``text``, or None."""
    return next((char for char in text if is_invisible_control(char)), None)
