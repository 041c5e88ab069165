"""The characters a name may hold that draw nothing: Unicode's Default_Ignorable_Code_Point
set, plus the blanks that are letters or symbols yet show as nothing.

Written once, as ranges, from Unicode's DerivedCoreProperties.txt (property
``Default_Ignorable_Code_Point``, Unicode 15.1:
https://www.unicode.org/Public/15.1.0/ucd/DerivedCoreProperties.txt). "Lis\\u200bbon",
"Lis\\ufe0fbon" and "Lis\\u3164bon" all look like "Lisbon"; read as another name they
would be another cache entry, another charge and a look-alike. The directional marks
among them (:data:`DIRECTIONAL`) change how the text reads, so they are refused rather
than removed (see :mod:`creditscope.name_characters`).

Pure and importing nothing of the package, so every layer (client, sandbox) may use it.
"""

from __future__ import annotations

import re

# (first, last) code points, inclusive: Default_Ignorable_Code_Point.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # SOFT HYPHEN
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x061C, 0x061C),  # ARABIC LETTER MARK
    (0x115F, 0x1160),  # HANGUL CHOSEONG FILLER, HANGUL JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ, AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS, VOWEL SEPARATOR
    (0x200B, 0x200F),  # ZERO WIDTH SPACE .. RIGHT-TO-LEFT MARK
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # WORD JOINER, invisible operators, isolates, deprecated formats
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTOR-1 .. -16
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xFFF0, 0xFFF8),  # reserved
    (0x1BCA0, 0x1BCA3),  # SHORTHAND FORMAT LETTER OVERLAP .. UP STEP
    (0x1D173, 0x1D17A),  # MUSICAL SYMBOL BEGIN BEAM .. END PHRASE
    (0xE0000, 0xE0FFF),  # tags, VARIATION SELECTOR-17 .. -256, reserved
)
# Not Default_Ignorable, yet a blank: BRAILLE PATTERN BLANK.
BLANKS = "\u2800"

# The ones that reorder text: refused, named, never silently removed.
DIRECTIONAL = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

# A pattern, not a set of 4,000 one-character strings: every layer imports this module
# (the sandbox and the gazetteer's folding included), so it stays small in memory.
_CLASS = "".join(f"{re.escape(chr(first))}-{re.escape(chr(last))}"
                 for first, last in DEFAULT_IGNORABLE_RANGES) + BLANKS
_FOLDED_AWAY = re.compile(f"(?![{DIRECTIONAL}])[{_CLASS}]")


def folded_away(char: str) -> bool:
    """True for a character a name loses without a trace: every ignorable and blank
    but the directional ones."""
    return _FOLDED_AWAY.fullmatch(char) is not None


def without_ignorables(text: str) -> str:
    """``text`` without the characters :func:`folded_away` names (directional ones kept)."""
    return text if text.isascii() else _FOLDED_AWAY.sub("", text)
