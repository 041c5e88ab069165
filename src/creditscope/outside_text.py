"""Drawing and printing outside text: what the service, a paste, a HAR or a file says is
shown as data and can never drive the terminal.

An escape sequence in a restaurant's name (``"\\x1b]52;c;…\\x07"`` sets the clipboard,
``"\\x1b]0;…\\x07"`` the window title), a C1 control (``"\\x9b"`` is CSI to some
terminals), a bidi override that makes a line read backwards, or a zero-width space
that hides a difference: :func:`shown` writes each of them visibly (``\\x1b``,
``\\u202e``), so what is printed is exactly what was received, and nothing more.
JSON output keeps the exact data: :func:`json_text` escapes the same characters the
JSON way (``\\u001b``), so a parser reads back the very value.

Pure and importing nothing of the package, so every layer may use it.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

# Bidi embeddings, overrides and isolates, and the marks: they reorder what is drawn.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
# Zero-width characters: invisible, yet they make two equal-looking names differ.
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")
# Categories never drawn as themselves: controls (C0, DEL, C1), formats (zero-width,
# bidi), line and paragraph separators, lone surrogates (which cannot even be encoded).
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs"})
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def hidden(char: str) -> bool:
    """True for a character that acts on the terminal or is invisible."""
    return unicodedata.category(char) in _HIDDEN_CATEGORIES or char in BIDI_CONTROLS


def escaped(char: str) -> str:
    """``"\\x1b"`` for ESC, ``"\\x9b"`` for CSI, ``"\\u202e"`` for RIGHT-TO-LEFT OVERRIDE,
    ``"\\n"`` for a line break."""
    if char in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def shown(text: str, *, keep: str = "") -> str:
    """``text`` with every hidden character written visibly; those in ``keep`` (``"\\n"``
    for a block of lines) stay as they are. Plain text comes back unchanged."""
    if text.isascii() and text.isprintable():  # most text: nothing to look at twice
        return text
    return "".join(
        escaped(char) if hidden(char) and char not in keep else char for char in text
    )


SHOWN_VALUE_LIMIT = 200
"""Characters of one outside value printed on a terminal: a pasted or imported value of
a million characters would fill the scrollback and hide everything else."""


def shown_value(text: str, limit: int = SHOWN_VALUE_LIMIT) -> str:
    """:func:`shown`, cut to ``limit`` characters with a note of the full length."""
    if len(text) <= limit:
        return shown(text)
    return f"{shown(text[:limit])}… ({len(text):,} characters in all)"


def shown_lines(text: str) -> str:
    """:func:`shown` for text of several lines: the line breaks are kept."""
    return shown(text, keep="\n")


def json_text(value: Any, **dumps: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **dumps)`` with every hidden character
    escaped as JSON escapes it (``\\u001b``, ``\\u202e``): the same data to a parser,
    nothing a terminal acts on. (Outside strings a hidden character cannot occur.)"""
    text = json.dumps(value, ensure_ascii=False, **dumps)
    if text.isascii() and "\x7f" not in text:
        return text
    # C0 controls are escaped by json itself, and a line break outside a string is layout.
    return "".join(
        _json_escape(char) if char >= " " and hidden(char) else char for char in text
    )


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # JSON writes a character beyond the BMP as a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


# Textual's markup opens a tag at any "[" not preceded by a backslash, and has no escape
# for a backslash itself: a value ending in one would escape the tag written after it.
# Textual strips hidden characters from markup before reading it, so the guard is one
# it keeps: COMBINING GRAPHEME JOINER, zero cells wide and joined to the backslash.
_TAG_GUARD = "\u034f"


def markup_escaped(text: str) -> str:
    """``text`` to place inside Textual markup (a ``Static``, a notification), read back
    exactly as sent: every ``[`` escaped. Rich's ``escape`` (which Textual re-exports)
    escapes only ``[`` followed by a letter, while Textual's parser opens a tag at any
    ``[``, so ``"\\x1b[8m [link=…]"`` came back as invalid markup."""
    escaped_text = text.replace("[", "\\[")
    return escaped_text + _TAG_GUARD if _ends_in_backslash(escaped_text) else escaped_text


def _ends_in_backslash(text: str) -> bool:
    """Whether ``text`` ends in a backslash once its hidden characters are stripped."""
    for char in reversed(text):
        if char == "\\":
            return True
        if not hidden(char) or char in "\n\t":
            return False
    return False


_SURROGATE = re.compile("[\ud800-\udfff]")  # in decoded text, only a lone one is left
REPLACEMENT_CHARACTER = "\ufffd"


def encodable(text: str) -> str:
    """``text`` with each lone surrogate (valid in JSON as ``"\\ud800"``, but no file,
    terminal or clipboard can encode it) made U+FFFD REPLACEMENT CHARACTER, as a UTF-8
    decoder does with a broken byte."""
    return _SURROGATE.sub(REPLACEMENT_CHARACTER, text)
