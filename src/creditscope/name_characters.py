"""Reading a name: invisible characters and odd spaces folded, the rest refused.

A zero-width space in "Contoso\\u200b Ltd" looks like "Contoso Ltd" but defeats the
suffix removal and the cache identity, so the same lookup costs twice and finds a
look-alike company. Before a typed value is validated, keyed or sent,
:func:`fold_name` removes what draws nothing (zero-width characters, variation
selectors, Hangul fillers, tags: :mod:`creditscope.ignorable_characters`) and reads
non-breaking and other odd spaces as a space; :func:`fold_notes` says what was read
so. What cannot be folded (a control, a bidi override that makes the text read
otherwise than it is sent, a directional mark) is refused by :func:`refused_character`, naming it.

Pure: imports nothing of the package but :mod:`creditscope.outside_text` and
:mod:`creditscope.ignorable_characters`.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping
from typing import Any

from creditscope.ignorable_characters import folded_away, without_ignorables
from creditscope.outside_text import hidden

# Read as a plain space: non-breaking, the typographic spaces, the ideographic space.
ODD_SPACES = frozenset(
    "\u00a0\u1680\u202f\u205f\u3000" + "".join(chr(code) for code in range(0x2000, 0x200B))
)
_SPACES = {ord(char): " " for char in ODD_SPACES}


def character_name(char: str) -> str:
    """``"U+202E RIGHT-TO-LEFT OVERRIDE"``; for a control without a name, its usual one
    (``"U+001B ESCAPE"``) where Python knows it, else the code alone."""
    name = unicodedata.name(char, "") or _CONTROL_NAMES.get(char, "")
    return f"U+{ord(char):04X} {name}".rstrip()


_CONTROL_NAMES = {"\x00": "NULL", "\t": "TAB", "\n": "LINE FEED", "\r": "CARRIAGE RETURN",
                  "\x1b": "ESCAPE", "\x7f": "DELETE", "\x9b": "CONTROL SEQUENCE INTRODUCER"}


def fold_name(text: str) -> str:
    """``text`` with invisible characters removed and odd spaces read as spaces."""
    # Removed: what shows nothing (Unicode's default ignorables but the directional marks:
    # zero-width characters, variation selectors, fillers, tags; the soft hyphen shows
    # only where a line breaks).
    return text if text.isascii() else without_ignorables(text).translate(_SPACES)


def refused_character(text: str) -> str | None:
    """The first character of (folded) ``text`` that is refused, named, or None."""
    if text.isascii() and text.isprintable():
        return None
    for char in text:
        if hidden(char):  # the directional marks among the ignorables are format (Cf)
            return character_name(char)
    return None


def fold_notes(params: Mapping[str, Any]) -> list[str]:
    """One line per text value that :func:`fold_name` changes, saying how it was read:
    ``"name: removed 1 invisible character (U+200B ZERO WIDTH SPACE)"``."""
    notes = []
    for field, value in params.items():
        if not isinstance(value, str) or fold_name(value) == value:
            continue
        removed = Counter(char for char in value if folded_away(char))
        spaces = Counter(char for char in value if char in ODD_SPACES)
        parts = []
        if removed:
            parts.append(f"removed {_counted(removed, 'invisible character')}")
        if spaces:
            parts.append(f"read {_counted(spaces, 'odd space')} as a space")
        notes.append(f"{field}: {' and '.join(parts)}")
    return notes


def _counted(found: Counter[str], noun: str) -> str:
    total = sum(found.values())
    names = ", ".join(character_name(char) for char in found)
    return f"{total} {noun}{'' if total == 1 else 's'} ({names})"
