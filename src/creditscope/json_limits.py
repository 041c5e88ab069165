"""Parsing JSON that came from outside (a service's answer, a HAR, a pasted curl or
fetch, a batch file) with a bound on how deeply it nests.

Python's ``json`` recurses once per level: ~1,000 levels raise RecursionError, and
a few hundred parse but break everything that walks the result later (pydantic's
serializer stops at its own depth, a traceback far from the cause). Every real
answer in the spec nests at most 6 levels (a menu: sections, items, dietary tags),
so :data:`MAX_JSON_DEPTH` refuses far above anything real, before ``json`` recurses.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from creditscope.outside_text import encodable

MAX_JSON_DEPTH = 64
"""Levels of arrays and objects a JSON document from outside may nest: ten times the
deepest real answer (6), far below where ``json`` or pydantic give up (~1,000)."""

# A JSON string (escapes included: ``"\\"["`` is one string), or a run of text that
# holds no bracket and no quote. Possessive, so an unclosed string cannot backtrack.
_STRING_OR_FILLER = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"|[^"\[\]{}]++', re.DOTALL)
_ONE_KIND = str.maketrans({"{": "[", "}": "]", '"': None})


class JsonTooDeep(ValueError):
    """JSON nested deeper than allowed; its message names the limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"it nests deeper than {limit} levels of arrays and objects")
        self.limit = limit


def nesting_exceeds(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether ``text``, read as JSON, nests more than ``limit`` levels (or could make
    a parser recurse that deep before it finds the text malformed).

    Strings are dropped and both bracket kinds read as one; then each pass removes the
    innermost pairs (``[]``), one level everywhere, at C speed, so the text is never
    walked character by character in Python."""
    brackets = _STRING_OR_FILLER.sub("", text).translate(_ONE_KIND)
    for removed in range(limit + 1):
        if not brackets:
            return False
        if removed == limit:
            return True
        inner = brackets.replace("[]", "")
        if inner == brackets:
            # Unbalanced: what is left reads "]]][[["; a parser would descend through
            # its openers on top of the levels already removed before failing.
            return removed + brackets.count("[") > limit
        brackets = inner
    return True


def loads(
    text: str | bytes,
    *,
    max_depth: int = MAX_JSON_DEPTH,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    keep_lone_surrogates: bool = False,
) -> Any:
    """``json.loads`` that raises :class:`JsonTooDeep` (a ValueError) past ``max_depth``
    levels, before parsing, and gives no lone surrogate back (U+FFFD in its place), unless
    ``keep_lone_surrogates`` (a service that refuses them must see them)."""
    # As json.loads reads bytes: UTF-8, -16 or -32, told apart by their first bytes.
    decoded = (text.decode(json.detect_encoding(text), "surrogatepass")
               if isinstance(text, bytes) else text)
    if nesting_exceeds(decoded, max_depth):
        raise JsonTooDeep(max_depth)
    value = json.loads(decoded, object_pairs_hook=object_pairs_hook)
    # json keeps a lone surrogate ("\ud800" with no pair), which no file, terminal or
    # clipboard can encode: a paid answer holding one could never be written out.
    if keep_lone_surrogates or not _MAY_HOLD_SURROGATE.search(decoded):
        return value
    return without_lone_surrogates(value)


# A surrogate escape, or a surrogate character (a str, or bytes read "surrogatepass");
# most answers have neither, so most are never walked.
_MAY_HOLD_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")


def without_lone_surrogates(value: Any) -> Any:
    """``value`` (parsed JSON) with every lone surrogate in its strings and keys made
    U+FFFD (:func:`outside_text.encodable`)."""
    if isinstance(value, str):
        return encodable(value)
    if isinstance(value, list):
        return [without_lone_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {without_lone_surrogates(key): without_lone_surrogates(item)
                for key, item in value.items()}
    return value
