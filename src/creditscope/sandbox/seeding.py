"""Deterministic randomness: the same inputs give the same data on every run.

Python's ``hash()`` is salted per process, so seeds come from SHA-256 instead.
"""

from __future__ import annotations

import hashlib
import random


def stable_hash(*parts: object) -> int:
    """A 64-bit integer that depends only on ``parts``, identical across processes."""
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def rng_for(*parts: object) -> random.Random:
    """A random generator seeded from ``parts`` (e.g. ``rng_for("events", city_key)``)."""
    return random.Random(stable_hash(*parts))
