"""Whether a typed name could be a company's at all ("Xqzzy Flurbo" could not).

A real service finds nothing credible for a name that resembles nothing the
world knows, so the sandbox invents no company for it. The rule, word by word
over the name's distinctive words (those that weigh fully in
:mod:`creditscope.sandbox.naming`):

- A word the sandbox knows is plausible: a word of a city's name in the
  gazetteer (the 4,000 of 150,000 people or more; 250 countries), of a
  well-known or curated company's name, or of the trade, generic and filler
  vocabularies.
- A word it cannot judge is plausible: one with digits or in a script other than
  Latin ("3M", "東京"), one of at most three letters, and an acronym typed in
  capitals of at most five ("KPMG").
- Any other word must be pronounceable: it has a vowel (a, e, i, o, u or y) and
  at most one of its pairs of neighbouring letters (the word's first and last
  letters count as pairs with its edges) occurs fewer than ``MIN_PAIR_COUNT``
  times in the known words above; one is allowed for spellings of other
  languages ("Wojcik"). Invented brand names pass ("Zalando", "Bracorjo",
  "Flurbo"); keyboard noise does not ("Xqzzy": no known word has "xq" or "qz";
  "Mxyzptlk"; "Brrkt": no vowel).

A name with an implausible distinctive word is nonsense. The table of letter
pairs is built once from packaged data, so the rule is the same everywhere.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from creditscope.gazetteer import load_gazetteer
from creditscope.sandbox.industries import INDUSTRIES
from creditscope.sandbox.naming import (
    FILLER_WORDS,
    GENERIC_WORDS,
    LEGAL_SUFFIXES,
    profile,
    strip_legal_suffixes,
    words_of,
)
from creditscope.text_folding import fold_case

CITY_SIZE = 150_000  # the places whose names teach the letter pairs
MIN_PAIR_COUNT = 2  # a letter pair seen once (one odd name) is not enough
UNSEEN_PAIRS = 2  # this many unknown pairs in one word: noise (one is a foreign spelling)
SHORT_WORD = 3
ACRONYM_MAX = 5
VOWELS = frozenset("aeiouy")
_LETTERS = re.compile(r"^[a-z]+$")


def _source_names() -> list[str]:
    from creditscope.sandbox.companies import corpus
    from creditscope.sandbox.listed import listed

    gazetteer = load_gazetteer()
    # Cities only (150,000 people or more): the towns' exotic transliterations
    # ("Xiaqiao") would make keyboard noise's letter pairs look common.
    names = [city.ascii_name for city in gazetteer.cities if city.population >= CITY_SIZE]
    names += [country.name for country in gazetteer.countries.values()]
    names += [name for company in listed() for name in company.names]
    names += [entry.name for entry in corpus()]
    names += [word for industry in INDUSTRIES for word in industry.words]
    names += [*FILLER_WORDS, *GENERIC_WORDS, *LEGAL_SUFFIXES]
    return names


@lru_cache(maxsize=1)
def known_words() -> frozenset[str]:
    """Every folded word of the names the sandbox knows."""
    return frozenset(word for name in _source_names() for word in words_of(name))


def _pairs(word: str) -> list[str]:
    padded = f"^{word}$"
    return [padded[i : i + 2] for i in range(len(padded) - 1)]


@lru_cache(maxsize=1)
def pair_counts() -> Counter[str]:
    """How often each pair of neighbouring letters occurs in the known words."""
    return Counter(pair for word in known_words() if _LETTERS.match(word) for pair in _pairs(word))


def is_plausible_word(typed: str) -> bool:
    """Whether one word, as typed, could be part of a company's name (module docstring)."""
    word = fold_case(typed)
    if not _LETTERS.match(word) or len(word) <= SHORT_WORD or word in known_words():
        return True
    if typed.isupper() and len(typed) <= ACRONYM_MAX:
        return True
    if not VOWELS.intersection(word):
        return False
    counts = pair_counts()
    return sum(counts[pair] < MIN_PAIR_COUNT for pair in _pairs(word)) < UNSEEN_PAIRS


@lru_cache(maxsize=4096)
def is_nonsense(name: str) -> bool:
    """Whether a name has a distinctive word that resembles nothing the world knows."""
    distinctive = set(profile(name).distinctive)
    typed = re.split(r"[\W_]+", strip_legal_suffixes(name).replace("'", "").replace("’", ""))
    return any(
        not is_plausible_word(word)
        for word in typed
        if word and fold_case(word) in distinctive
    )
