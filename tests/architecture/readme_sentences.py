"""The README's sentences, and which of them make a promise a test must hold."""

from __future__ import annotations

import re
from collections.abc import Iterator

# A promise: what never or always happens, or happens at every start; a file mode; a
# count of what a command runs.
PROMISE = re.compile(r"\b(never|always|at every|0[67]00)\b|\bruns \d+ ", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`*(\"])")


def _items(text: str) -> Iterator[str]:
    """Paragraphs, list items and table rows, each on one line; code blocks and headings
    left out (a heading names the sentences under it)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    item: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        starts_item = stripped.startswith(("- ", "* ", "|", "#")) or bool(
            re.match(r"\d+\. ", stripped))
        if not stripped or starts_item:
            if item:
                yield " ".join(item)
            item = []
        if stripped.startswith("#"):
            continue
        if stripped.startswith("|"):
            yield stripped
        elif stripped:
            item.append(stripped)
    if item:
        yield " ".join(item)


def sentences(text: str) -> Iterator[str]:
    """Every sentence of the README's prose, whitespace collapsed."""
    for item in _items(text):
        for sentence in _SENTENCE_END.split(re.sub(r"\s+", " ", item)):
            yield sentence.strip()


def promise_sentences(text: str) -> list[str]:
    return [sentence for sentence in sentences(text) if PROMISE.search(sentence)]
