"""What counts as the same request (``Operation.identity``) and what counts as a website
(``web_hosts``): pure functions, no service."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from creditscope import operations
from creditscope.web_hosts import website_host, website_identity, website_problem

FIND = "professional_network/find_company"
SEARCH = "restaurants/search"


def same(operation: str, *variants: dict[str, object]) -> bool:
    return len({operations.identity_key(operation, params) for params in variants}) == 1


def test_near_duplicate_company_requests_are_one_request() -> None:
    assert same(
        FIND,
        {"name": "Northwind Labs Ltd ", "website": "https://www.northwind-labs.co.uk/"},
        {"name": "northwind labs ltd", "website": "northwind-labs.co.uk"},
        {"name": "NORTHWIND  LABS LTD.", "website": "HTTPS://WWW.Northwind-Labs.co.uk:443/team"},
        # the spec: legal suffixes such as Ltd are removed before searching
        {"name": "Northwind Labs", "website": "northwind-labs.co.uk."},
    )
    assert same(FIND, {"name": "Acme, Inc."}, {"name": "acme"}, {"name": "Acme", "website": ""})


@pytest.mark.parametrize(("first", "second"), [
    ({"name": "AT&T"}, {"name": "AT T"}),  # the service reads "&" as "and"
    ({"name": "Acme AG"}, {"name": "Acme"}),  # a suffix the spec does not name: kept
    ({"name": "Ltd"}, {"name": ""}),  # a name that is only a suffix stays itself
    ({"name": "Acme", "website": "shop.acme.com"}, {"name": "Acme", "website": "acme.com"}),
    ({"name": "Acme", "website": "acme.com"}, {"name": "Acme"}),
])
def test_requests_the_service_may_answer_differently_stay_apart(
    first: dict[str, object], second: dict[str, object],
) -> None:
    assert not same(FIND, first, second)


def test_a_place_folds_case_accents_and_spaces_but_never_a_point() -> None:
    assert same(SEARCH, {"location": "Lisbon"}, {"location": "lisbon"},
                {"location": " Lisbon "}, {"location": "LISBON"})
    assert same(SEARCH, {"location": "Zürich, CH"}, {"location": "zurich,  ch"})
    assert not same(SEARCH, {"location": "38.72,-9.14"}, {"location": "38.72,9.14"})
    assert not same(SEARCH, {"location": "Lisbon", "cuisine": "thai"}, {"location": "Lisbon"})


def test_an_opaque_cursor_is_only_trimmed() -> None:
    discovery = "ticketing/discovery"
    assert same(discovery, {"cursor": " abC  d "}, {"cursor": "abC  d"})
    assert not same(discovery, {"cursor": "abC"}, {"cursor": "abc"})


@pytest.mark.parametrize(("website", "words"), [
    ("n/a", "not “n/a”"),
    ("-", "not “-”"),
    ("TBD", "not “TBD”"),
    ("https://", "not “https://”"),
    ("info@example.co.uk", "is an e-mail address, not a website"),
    ("mailto:info@example.co.uk", "is an e-mail address"),
    ("not a site", "it has spaces"),
    ("com", "a public suffix"),
    ("co.uk", "is co.uk alone, a public suffix"),
    (".com", "not “.com”"),
    ("northwind.notatld", "ends in .notatld, which is not a top-level domain"),
    ("shop.northwind.notatld", "ends in .notatld, which"),
    ("example", "not “example”"),  # a reserved top-level domain alone
    ("192.168.0.1", "not “192.168.0.1”"),
    ("localhost", "not “localhost”"),
])
def test_what_is_not_a_website_is_said_plainly(website: str, words: str) -> None:
    problem = website_problem(website)
    assert problem is not None and words in problem


def test_an_e_mail_address_is_told_what_to_give_instead() -> None:
    """The phrase follows the field's name: "website is an e-mail address, ..."."""
    assert website_problem("info@example.co.uk") == (
        "is an e-mail address, not a website: give the site, such as example.com")


@pytest.mark.parametrize("website", [
    "northwind-labs.co.uk", "https://www.northwind-labs.co.uk/", "http://shop.acme.com:8080/x",
    "bücher.de", "acme.example", "user.github.io", "www.com", "  acme.io  ", "",
])
def test_real_websites_pass(website: str) -> None:
    assert website_problem(website) is None


def test_www_is_dropped_only_where_a_site_remains() -> None:
    assert website_identity("https://www.northwind-labs.co.uk/") == "northwind-labs.co.uk"
    assert website_identity("www.com") == "www.com"  # "com" alone would be no site
    assert website_identity("shop.acme.com") == "shop.acme.com"
    assert website_identity("Bücher.de") == "xn--bcher-kva.de"


def test_a_host_is_compared_lower_case_and_in_punycode() -> None:
    """What the service compares: an IDN as Punycode, label by label (IDNA where it
    applies, bare Punycode where IDNA refuses, as for an emoji)."""
    assert website_host("HTTPS://Café.Example:8443/menu") == "xn--caf-dma.example"
    assert website_host("shop.☕.example.") == "shop.xn--53h.example"
    # Latin and Hebrew in one label break IDNA's bidi rule: named by bare Punycode
    assert website_host("https://WWW.Shop\u05d0.Example./menu") == "www.xn--shop-otf.example"
    assert website_identity("\u05d0shop.example") == "xn--shop-ktf.example"
    assert website_host("https://") == "" and website_host("http://[") == ""


def test_a_refused_value_is_quoted_up_to_forty_characters() -> None:
    forty = "n/a " + "x" * 36
    assert f"not “{forty}”" in (website_problem(forty) or "")
    longer = forty + "y"
    assert f"not “{longer[:39]}…”" in (website_problem(longer) or "")


def test_the_longest_host_allowed_is_253_characters() -> None:
    longest = "a" * 63 + "." + "b" * 63 + "." + "c" * 63 + "." + "d" * 57 + ".com"
    assert len(longest) == 253 and website_problem(longest) is None
    assert website_problem("d" + longest) is not None


def test_a_trailing_comma_or_suffix_does_not_make_another_company() -> None:
    assert same(FIND, {"name": "Acme,"}, {"name": "acme"})
    assert same(FIND, {"name": "Acme, Inc."}, {"name": "ACME"})


FOLDED = (FIND, SEARCH, "ticketing/discovery")
# Names and places as people type them: letters (some accented), digits, spaces, punctuation.
TYPED = st.text(alphabet=st.sampled_from(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéüçñÉÜ0123456789 ,.&-'/"),
    min_size=1, max_size=30)


@settings(max_examples=150, deadline=None)
@given(operation=st.sampled_from(FOLDED), text=TYPED, site=TYPED)
def test_identity_is_idempotent(operation: str, text: str, site: str) -> None:
    op = operations.get(operation)
    params = {name: text for name in ("name", "location", "cursor") if name in
              op.request_model.model_fields}
    if "website" in op.request_model.model_fields:
        params["website"] = site
    once = op.identity(params)
    assert op.identity(once) == once


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.text(alphabet="abcdefghijklmnopqrstuvwxyzéü", min_size=1,
                              max_size=8), min_size=1, max_size=4),
       gaps=st.lists(st.sampled_from([" ", "  ", "\t"]), min_size=4, max_size=4))
def test_case_and_space_variants_are_one_request(words: list[str], gaps: list[str]) -> None:
    plain = " ".join(words)
    spaced = gaps[0] + "".join(w + gaps[i % 4] for i, w in enumerate(words)).rstrip() + gaps[1]
    for operation, field in ((FIND, "name"), (SEARCH, "location")):
        assert same(operation, {field: plain}, {field: plain.upper()}, {field: plain.title()},
                    {field: spaced})
