"""Company names as a person reads them: legal suffixes, words and their weight,
and how alike two names are.

``name_similarity`` is a weighted Sørensen-Dice match over words:

    similarity = Σ over matched word pairs (wA + wB) · s  /  (Σ wA + Σ wB)

Both names are folded first (legal suffix dropped, case and accents ignored,
punctuation and ``&`` read as word breaks or "and"). Each word of one name is
paired with at most one word of the other, best pairs first, in any order; ``s``
is 1 for the same word and the words' edit similarity when that is at least
0.8 (a typo or a plural), else the pair does not match. Weights: filler words
(the, and, of, …) 0.05; generic corporate and place words (labs, group,
holdings, technologies, solutions, systems, global, international, services,
Europe, …) 0.2; words that name a trade (logistics, bank, media, bakery, …)
0.5; every other word, the distinctive part of a name, 1. A name made only of light words
weighs each of them 1. Two names that spell the same letters once spaces and
punctuation are gone ("Coca-Cola", "CocaCola") are 1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz import fuzz

from creditscope.sandbox.industries import INDUSTRIES
from creditscope.text_folding import fold_case

# Legal forms as registries print them, folded (dots, spaces and slashes are
# optional), by jurisdiction; several forms in a row ("Co., Ltd.", "AG & Co. KGaA")
# are all dropped. Cross-checked against the term list of the cleanco library.
LEGAL_SUFFIXES = (
    # UK, Ireland, US, Canada, Australia, New Zealand, India, Singapore, Hong Kong
    "limited", "ltd", "llc", "l l c", "inc", "incorporated", "plc", "corp", "corporation", "co",
    "company", "lp", "llp", "lllp", "pllc", "ulc", "dac", "pty", "pty ltd", "pte", "pte ltd",
    "pvt", "pvt ltd", "private limited",
    # Germany, Austria, Switzerland, Liechtenstein
    "gmbh", "mbh", "ag", "kg", "kgaa", "ohg", "ug", "e k", "se", "sarl", "sàrl", "sagl",
    # France, Belgium, Luxembourg, Spain, Portugal, Italy, Latin America
    "sa", "s a", "sas", "s a s", "sasu", "sca", "eurl", "snc", "sl", "s l", "slu", "s l u",
    "sau", "s a u", "srl", "s r l", "spa", "s p a", "sapa", "s à r l", "bv", "b v", "bvba",
    "nv", "n v", "sprl", "lda", "ltda", "sgps", "sa de cv", "s a de c v", "sab de cv",
    "s a b de c v", "s de rl", "s de r l", "s de rl de cv", "s de r l de c v", "eireli",
    # Nordics
    "ab", "publ", "oy", "oyj", "abp", "as", "a s", "asa", "aps", "hf", "ehf",
    # Central and Eastern Europe, Turkey
    "sp z o o", "sp zoo", "sro", "s r o", "spol s r o", "kft", "zrt", "nyrt", "doo", "d o o",
    "ooo", "oao", "pao", "pjsc", "jsc", "a ş",
    # Asia
    "kk", "k k", "kabushiki kaisha", "gk", "yk", "sdn bhd", "bhd", "berhad", "tbk", "pcl",
    "public company limited",
    # the forms spelled out, and a few more of the markets' registries
    "aktiengesellschaft", "aktieselskab", "aktiebolag", "aksjeselskap", "allmennaksjeselskap",
    "osakeyhtiö", "julkinen osakeyhtiö", "public limited company", "société anonyme",
    "societe anonyme", "sociedad anónima", "sociedad anonima", "società per azioni",
    "societa per azioni",
    "naamloze vennootschap", "besloten vennootschap", "sab", "s a b", "sa b", "ao", "a o",
    "tas", "t a s", "t a ş", "anonim şirketi", "anonim sirketi", "anonim ortaklığı",
    "anonim ortakligi",
)  # fmt: skip
_SUFFIX = re.compile(
    r"(?:[\s,]+\(?(?:"
    + "|".join(re.escape(s).replace(r"\ ", r"[\s./]*") for s in LEGAL_SUFFIXES)
    + r")\.?\)?)+\s*$",
    re.IGNORECASE,
)
# Chinese, Japanese and Korean forms, written without a space before or after the name
# (株式会社ソニー, ソニー株式会社), and their abbreviations in brackets: longest first.
CJK_LEGAL_FORMS = (
    "股份有限公司", "有限责任公司", "有限責任公司", "股份公司", "有限公司", "株式会社", "有限会社",
    "合同会社", "合資会社", "合名会社", "주식회사", "유한회사", "(株)", "（株）", "㈱", "(주)",
    "（주）", "㈜",
)  # fmt: skip
_CJK_FORMS = "|".join(re.escape(form) for form in CJK_LEGAL_FORMS)
_CJK_PREFIX = re.compile(rf"^(?:(?:{_CJK_FORMS})\s*)+")
_CJK_SUFFIX = re.compile(rf"(?:\s*(?:{_CJK_FORMS}))+$")

# Letters that no accent-stripping turns into their plain form, as names are typed without
# them ("Turkiye Is Bankasi", "Orsted", "Bagsvaerd").
UNDECOMPOSED = str.maketrans(
    {"ı": "i", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ð": "d",
     "þ": "th", "ħ": "h"}
)  # fmt: skip

FILLER_WEIGHT = 0.05
GENERIC_WEIGHT = 0.2
TRADE_WEIGHT = 0.5


def word_set(text: str) -> frozenset[str]:
    """The words of a space-separated list, as a set (keeps long word lists readable)."""
    return frozenset(text.split())


FILLER_WORDS = word_set(
    "the and of for a an de des du la le les el los las y und et e di da do van von der"
)
GENERIC_WORDS = word_set(
    """labs lab laboratories group groups holdings holding technologies technology tech
    solutions solution systems system global international intl services service worldwide
    enterprises enterprise industries ventures partners associates companies digital online
    network networks brands products works world hq collective agency
    europe european america americas american asia pacific emea uk usa nordic"""
)
# Words a company's group or holding adds to its name ("Volkswagen Group", "Cisco Systems",
# "Spotify Technology", "Koninklijke Philips"), in the scripts of the spec's markets; a name
# is the same company with or without them.
GROUP_WORDS = word_set(
    """group groups holding holdings technology technologies tech systems system corporation
    corp company companies co incorporated inc international intl the koninklijke gruppen
    grupo gruppo groupe konzern"""
)
_CJK_GROUP = re.compile(r"(?:グループ|ホールディングス|集团|集團|控股|그룹|홀딩스)+$")
# Words that say what a company does (each names a field of industries.py).
TRADE_WORDS = frozenset(w for i in INDUSTRIES for w in i.words) - GENERIC_WORDS
# Trades of local small businesses, most of which have no page on the network.
LOCAL_TRADES = frozenset(w for i in INDUSTRIES if i.local for w in i.words)
STRONG_NAME = 0.85  # similarity from which a name alone makes a match "medium"
MATCH_FLOOR = 0.8  # edit similarity from which two different words count as one (typos, plurals)
MAX_WORDS = 24  # a 200-character name is compared on its first words


def strip_legal_suffixes(name: str) -> str:
    """``"Northwind Labs Ltd."`` -> ``"Northwind Labs"``, ``"Klarna Bank AB"`` -> ``"Klarna Bank"``,
    ``"ソニー株式会社"`` -> ``"ソニー"``; keeps the name when only a legal form."""
    cleaned = " ".join(name.split()).strip(" ,")
    stripped, before = cleaned, ""
    while stripped != before:  # "Henkel AG & Co. KGaA": "Henkel AG &", then "Henkel"
        before = stripped
        stripped = _SUFFIX.sub("", stripped).rstrip(" ,&")
        stripped = _CJK_SUFFIX.sub("", _CJK_PREFIX.sub("", stripped)).strip(" ,")
    return stripped or cleaned


def identity(name: str) -> tuple[str, ...]:
    """The words that say which company a name means, without its legal form and the words
    a group or holding adds: ``"Volkswagen AG"`` and ``"Volkswagen Group"`` -> ``("volkswagen",)``.
    A name made only of such words keeps them all."""
    stripped = strip_legal_suffixes(name)
    words = words_of(_CJK_GROUP.sub("", stripped) or stripped)
    kept = tuple(word for word in words if word not in GROUP_WORDS)
    return kept or words


def words_of(name: str) -> tuple[str, ...]:
    """The folded words of a name without its legal suffix.

    ``"Procter & Gamble Co."`` -> ``("procter", "and", "gamble")``. A name with no
    letters or digits at all (emoji, symbols) is one word: itself, without spaces.
    """
    text = fold_case(strip_legal_suffixes(name)).translate(UNDECOMPOSED)
    text = text.replace("&", " and ").replace("+", " and ")
    text = re.sub(r"['’`´]", "", text)  # "McDonald's" is one word
    found = tuple(word for word in re.split(r"[\W_]+", text) if word)
    if found:
        return found[:MAX_WORDS]
    bare = "".join(text.split())
    return (bare,) if bare else ()


def word_weight(word: str) -> float:
    """How much a word says about which company is meant (see the module docstring)."""
    if word in FILLER_WORDS:
        return FILLER_WEIGHT
    if word in GENERIC_WORDS:
        return GENERIC_WEIGHT
    if word in TRADE_WORDS:
        return TRADE_WEIGHT
    return 1.0


@dataclass(frozen=True, slots=True)
class NameProfile:
    """A name ready to compare: its words, their weights and its letters run together."""

    words: tuple[str, ...]
    weights: tuple[float, ...]
    compact: str

    @property
    def distinctive(self) -> tuple[str, ...]:
        """The words that weigh fully: what tells this company from its namesakes."""
        return tuple(w for w, weight in zip(self.words, self.weights, strict=True) if weight == 1)


@lru_cache(maxsize=8192)
def profile(name: str) -> NameProfile:
    """The comparable form of ``name`` (cached: corpus names are compared on every lookup)."""
    words = words_of(name)
    weights = tuple(word_weight(word) for word in words)
    if weights and max(weights) < 1:
        weights = (1.0,) * len(weights)  # nothing distinctive: every word counts
    return NameProfile(words, weights, "".join(words))


def _word_similarity(a: str, b: str) -> float:
    if a == b:
        return 1.0
    if min(len(a), len(b)) < 4:
        return 0.0  # short words differ by one letter too easily: "lab" / "lob"
    ratio = fuzz.ratio(a, b) / 100
    return ratio if ratio >= MATCH_FLOOR else 0.0


def profile_similarity(a: NameProfile, b: NameProfile) -> float:
    """The weighted word match of two profiles, 0..1 (see the module docstring)."""
    if not a.words or not b.words:
        return 0.0
    if a.compact == b.compact:
        return 1.0
    pairs = []
    for i, word_a in enumerate(a.words):
        for j, word_b in enumerate(b.words):
            similar = _word_similarity(word_a, word_b)
            if similar:
                pairs.append((similar, a.weights[i] + b.weights[j], i, j))
    pairs.sort(reverse=True)
    used_a: set[int] = set()
    used_b: set[int] = set()
    matched = 0.0
    for similar, weight, i, j in pairs:
        if i not in used_a and j not in used_b:
            used_a.add(i)
            used_b.add(j)
            matched += weight * similar
    return min(matched / (sum(a.weights) + sum(b.weights)), 1.0)


def name_similarity(query: str, company_name: str) -> float:
    """0..1: how alike two company names are as a person judges them, to 3 decimals."""
    return round(profile_similarity(profile(query), profile(company_name)), 3)


def display_name(typed: str) -> str:
    """The name as a page would show it: legal suffix dropped, all-lowercase words capitalised.

    ``"acme"`` -> ``"Acme"``; ``"eBay"`` and ``"IBM"`` stay as typed.
    """
    stripped = strip_legal_suffixes(typed)
    return " ".join(word[:1].upper() + word[1:] if word.islower() else word
                    for word in stripped.split())
