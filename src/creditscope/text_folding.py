"""Text compared without case or accents: the one folding of names and typed text.

Place names (the gazetteer, the sandbox's places, what a user types in a city box)
and company names (the sandbox's naming) fold the same way, characters that draw nothing
left out ("Lis\u200bbon" is Lisbon). Pure and importing nothing of the package but
:mod:`creditscope.ignorable_characters`, so every layer may use it (client, sandbox
and screens).
"""

from __future__ import annotations

import re
import unicodedata

from creditscope.ignorable_characters import without_ignorables

_NOT_WORD = re.compile(r"[^0-9a-z]+")


def fold_case(text: str) -> str:
    """Lower case, accents removed, everything else kept (any script):
    ``"Société"`` -> ``"societe"``."""
    if text.isascii():  # most names: no accents to strip
        return text.lower()
    # Case first: some marks fold to letters (Greek's iota subscript in "ᾀ" is "ι" once
    # case-folded, as in its capital "ἈΙ"), so stripping marks first would lose them.
    decomposed = unicodedata.normalize("NFKD", without_ignorables(text).casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str) -> str:
    """:func:`fold_case`, then every run of other characters one space:
    ``"  Zürich-West "`` -> ``"zurich west"``."""
    return " ".join(_NOT_WORD.sub(" ", fold_case(text)).split())
