"""Name similarity as support staff judge it: the distinctive words decide."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from creditscope.sandbox.company_lookup import strip_legal_suffixes
from creditscope.sandbox.naming import STRONG_NAME, name_similarity

# For each query, candidate names from most to least similar, as a person ranks them.
ORDERED: list[tuple[str, list[str]]] = [
    ("Northwind Labs", ["Northwind Labs Ltd", "Northwind", "Northwind Traders", "Orchid Labs"]),
    ("Contoso", ["Contoso Inc.", "The Contoso Group", "Contoso Pharmaceuticals", "Contosa Bank",
                 "Fabrikam"]),
    ("Blue Yonder Airlines", ["blue yonder airlines", "Blue Yonder", "Blue Yonder Energy",
                              "Yonder Airlines", "Blue Sky Airlines"]),
    ("Acme", ["ACME Inc", "Acme Holdings", "Acme Logistics GmbH", "Acme Foods & Logistics",
              "Apex"]),
    ("Woodgrove Bank", ["Woodgrove Bank PLC", "Woodgrove", "Woodgrove Capital S.A.",
                        "Riverbend Bank"]),
    ("Stripe", ["Stripe, Inc.", "Stripes", "Stripe Payments", "Stripe Robotics Europe",
                "Strip Club"]),
]  # fmt: skip


@pytest.mark.parametrize(("query", "ranked"), ORDERED, ids=[q for q, _ in ORDERED])
def test_candidates_rank_as_a_person_ranks_them(query: str, ranked: list[str]) -> None:
    scores = [name_similarity(query, name) for name in ranked]
    assert all(a > b for a, b in itertools.pairwise(scores)), dict(zip(ranked, scores, strict=True))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("NORTHWIND ltd", "Northwind"),  # case and legal suffix
        ("Café Contoso", "Cafe Contoso GmbH"),  # accents
        ("Société Générale S.A.", "societe generale"),
        ("Procter & Gamble Co.", "Procter and Gamble"),  # & is "and"
        ("Gamble & Procter", "Procter & Gamble"),  # word order
        ("Coca-Cola", "CocaCola"),  # punctuation and spacing
        ("McDonald's", "McDonalds"),
        ("Kowalski & Daughters", "Kowalski and Daughters Sp. z o.o."),
    ],
)
def test_suffix_case_accents_punctuation_and_order_are_ignored(a: str, b: str) -> None:
    assert name_similarity(a, b) == 1.0


def test_generic_words_weigh_little_and_distinctive_words_decide() -> None:
    # Sharing only "Labs" is nearly nothing; sharing "Northwind" is nearly everything.
    assert name_similarity("Northwind Labs", "Orchid Labs") < 0.2
    assert name_similarity("Northwind Labs", "Northwind Group") > 0.8
    # A trade word tells two namesakes apart: not strong enough for "medium".
    assert name_similarity("Northwind Labs", "Northwind Traders") < STRONG_NAME
    assert name_similarity("Northwind", "Northwind Logistics") < STRONG_NAME
    # A name made only of generic words still compares on them.
    assert name_similarity("Global Solutions", "Global Solutions Ltd") == 1.0


def test_typos_and_plurals_count_nearly_in_full() -> None:
    assert name_similarity("Nortwind Labs", "Northwind Labs") > 0.9
    assert name_similarity("Northwind", "Northwood") < 0.5  # another name, not a typo


@pytest.mark.parametrize(
    ("raw", "stripped"),
    [("Acme Pty Ltd", "Acme"), ("Acme Sp. z o.o.", "Acme"), ("Acme S.A. de C.V.", "Acme"),
     ("Acme K.K.", "Acme"), ("Acme Pvt Ltd", "Acme"), ("Kowalski &", "Kowalski"),
     ("& Partners Ltd", "& Partners")],
)  # fmt: skip
def test_legal_forms_of_many_countries_are_dropped(raw: str, stripped: str) -> None:
    assert strip_legal_suffixes(raw) == stripped


names = st.text(min_size=0, max_size=60)


@given(names, names)
def test_similarity_is_symmetric_and_between_0_and_1(a: str, b: str) -> None:
    score = name_similarity(a, b)
    assert 0.0 <= score <= 1.0
    assert score == name_similarity(b, a)


@example("ᾀ")  # its capital is two letters, "ἈΙ": case-folding must come before marks go
@given(st.text(min_size=1, max_size=60).filter(lambda t: t.strip()))
def test_a_name_is_fully_similar_to_itself(name: str) -> None:
    assert name_similarity(name, name) in (0.0, 1.0)  # 0 only when nothing is left to compare
    assert name_similarity(name, name.upper()) == name_similarity(name, name)
