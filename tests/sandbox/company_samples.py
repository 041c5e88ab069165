"""Company names and websites a prospect might type, generated reproducibly."""

from __future__ import annotations

import random

SYLLABLES = (
    "al", "bra", "cor", "del", "ex", "fin", "gor", "hal", "in", "jo", "ka", "lum", "mar", "nor",
    "ol", "pra", "qua", "ris", "sol", "tor", "ul", "ven", "wex", "xi", "yor", "zan", "ä", "é",
)  # fmt: skip
TRADES = (
    "", "", "", "Labs", "Group", "Logistics", "Foods", "Bank", "Consulting", "Media", "Bakery",
    "Plumbing", "Dental", "Hotels", "Software", "Energy", "Capital", "Studio",
)  # fmt: skip
SUFFIXES = ("", "", "", " Ltd", " Inc.", " GmbH", " S.A.", " LLC", " PLC", " AG", " B.V.")
TLDS = ("com", "io", "co.uk", "de", "fr", "co.jp", "com.au", "in", "es", "eu", "ai", "nl")


def generated_names(count: int, seed: int = 17) -> list[tuple[str, str | None]]:
    """``count`` (name, website or None) pairs; about half carry the company's own domain."""
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        words = [
            "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))).capitalize()
            for _ in range(rng.choice((1, 1, 2)))
        ]
        trade = rng.choice(TRADES)
        name = " ".join([*words, trade]).strip() + rng.choice(SUFFIXES)
        website = None
        if rng.random() < 0.5:
            label = "".join(words).lower() if rng.random() < 0.8 else "other" + words[0].lower()
            website = f"{label}.{rng.choice(TLDS)}"
            if rng.random() < 0.3:
                website = f"https://WWW.{website.upper()}:8443/about?ref=1"
        samples.append((name, website))
    return samples
