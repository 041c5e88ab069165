"""Counted nouns in the words people read: "1 review", "2 reviews", "1 country",
and sizes on disk ("44.0 KB").

Pure code with no imports of the package, so the sandbox, the commands and the
explorer all write their counts the same way.
"""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """``counted(1, "review")`` -> ``"1 review"``; ``counted(3, "country", "countries")``
    -> ``"3 countries"``; ``grouped`` writes thousands with commas (``"2,400 reviews"``)."""
    number = f"{count:,}" if grouped else str(count)
    noun = word if count == 1 else (plural or f"{word}s")
    return f"{number} {noun}"


def byte_size(size: int) -> str:
    """``byte_size(512)`` -> ``"512 B"``; ``byte_size(45_056)`` -> ``"44.0 KB"`` (1 KB = 1024 B)."""
    value = float(size)
    for unit in ("B", "KB", "MB"):
        if value < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


def possibly_charged(credits: int) -> str:
    """What a call whose answer was lost after it left may have cost, in the words the
    explorer, ``call``, ``batch`` and ``credits`` all use: ``possibly charged 5 cr``."""
    return f"possibly charged {credits} cr"


def lost_answer_sentence(credits: int) -> str:
    """Why a failed call is possibly charged, and what settles it."""
    return (f"The request left and its answer was lost: {possibly_charged(credits)}. It was"
            " not sent again; the account's next balance settles it (charged, or not).")
