"""Famous names typed as prospects type them (issue 37): legal forms of every market (CJK
included), the group or holding word, local script and former names find the real company;
every page has its own address; no page shows a field's label as its value."""

from __future__ import annotations

import random
from typing import Any

import pytest

from creditscope.sandbox.company_lookup import find_company, strip_legal_suffixes, validate
from creditscope.sandbox.company_world import derived_company
from creditscope.sandbox.listed import listed, listed_page


def lookup(name: str) -> dict[str, Any]:
    return find_company(validate({"name": name}), 0.0, random.Random(0))


def first(name: str) -> dict[str, Any]:
    """The page of the best match for ``name``."""
    page: dict[str, Any] = lookup(name)["matches"][0]["company"]
    return page


@pytest.mark.parametrize(
    ("typed", "name", "headquarters"),
    [
        # the examples: each came back as an invented namesake in another country
        ("Volkswagen AG", "Volkswagen Group", "Wolfsburg, DE"),
        ("Koninklijke Philips N.V.", "Philips", "Amsterdam, NL"),
        ("Cisco Systems, Inc.", "Cisco", "San Jose, US"),
        ("Infosys Limited", "Infosys", "Bengaluru, IN"),
        ("Spotify Technology S.A.", "Spotify", "Stockholm, SE"),
        # the group, holding and technology words, either way round
        ("Volkswagen", "Volkswagen Group", "Wolfsburg, DE"),
        ("Siemens Group", "Siemens", "Munich, DE"),
        ("Alphabet Holdings", "Alphabet", "Mountain View, US"),
        ("SAP Technologies SE", "SAP", "Walldorf, DE"),
        # listed only in FinanceDatabase's 2023 database: came back as invented namesakes
        ("Powszechny Zakład Ubezpieczeń SA", "Powszechny Zaklad Ubezpieczen", "Warsaw, PL"),
        ("Public Bank Berhad", "Public Bank", "Kuala Lumpur, MY"),
        ("CK Asset Holdings Limited", "CK Asset Holdings", "Hong Kong, HK"),
        ("Wynn Macau, Limited", "Wynn Macau", "Macau, MO"),
        ("Alimentation Couche-Tard Inc.", "Alimentation Couche-Tard", "Laval, CA"),
    ],
)
def test_a_famous_company_typed_with_its_legal_form_or_group_word_is_itself(
    typed: str, name: str, headquarters: str
) -> None:
    page = first(typed)
    assert (page["name"], page["headquarters"]) == (name, headquarters)


@pytest.mark.parametrize(
    ("raw", "stripped"),
    [
        ("ソニー株式会社", "ソニー"),  # Japan, form after the name
        ("株式会社ファーストリテイリング", "ファーストリテイリング"),  # Japan, form before it
        ("トヨタ自動車(株)", "トヨタ自動車"),  # Japan, the form abbreviated
        ("山田商店有限会社", "山田商店"),  # Japan, limited company
        ("ヤマダ合同会社", "ヤマダ"),  # Japan, LLC
        ("台積電股份有限公司", "台積電"),  # Taiwan, company limited by shares
        ("腾讯控股有限公司", "腾讯控股"),  # China, limited company
        ("삼성전자 주식회사", "삼성전자"),  # Korea, after the name
        ("주식회사 카카오", "카카오"),  # Korea, before it
        ("OMV Aktiengesellschaft", "OMV"),  # Austria, the form spelled out
        ("Grupo Televisa, S.A.B.", "Grupo Televisa"),  # Mexico
        ("Türk Hava Yolları A.O.", "Türk Hava Yolları"),  # Turkey
        ("Akbank T.A.Ş.", "Akbank"),  # Turkey
        ("Galp Energia, SGPS, S.A.", "Galp Energia"),  # Portugal
    ],
)
def test_legal_forms_of_every_script_are_dropped(raw: str, stripped: str) -> None:
    assert strip_legal_suffixes(raw) == stripped
    assert lookup(raw)["query"] == stripped


def test_local_script_and_former_names_find_the_real_company() -> None:
    assert first("ソニーグループ株式会社")["name"] == "Sony"
    assert first("トヨタ自動車株式会社")["name"] == "Toyota"
    assert first("삼성전자 주식회사")["name"] == "Samsung Electronics"
    assert first("Facebook, Inc.")["name"] == "Meta"
    assert first("Madras Cements Ltd")["name"] == "The Ramco Cements"  # its former name


@pytest.mark.parametrize(
    ("typed", "headquarters"),
    [
        ("Breville Group Limited", "Sydney, AU"),  # the source says Alexandria, a district
        ("CSL Limited", "Melbourne, AU"),  # Parkville
        ("Gold Fields Limited", "Johannesburg, ZA"),  # Sandton: its postcode's city
        ("Lendlease Group", "Sydney, AU"),  # Barangaroo: its postcode's city
        ("Xylem Inc.", "Washington, US"),  # "Washington, D.C.", read as "DC"
        ("Infineon Technologies AG", "Neubiberg, DE"),  # a town of its own stays itself
    ],
)
def test_a_headquarters_district_is_shown_as_its_city(typed: str, headquarters: str) -> None:
    assert first(typed)["headquarters"] == headquarters


def test_a_companys_current_name_comes_before_another_companys_former_name() -> None:
    names = [match["company"]["name"] for match in lookup("Fortis Inc.")["matches"]]
    assert names[0] == "Fortis" and first("Fortis Inc.")["headquarters"] == "St. John's, CA"
    assert "Assurant" in names  # formerly Fortis, still found by that name, below


def test_an_invented_company_never_comes_before_a_real_one_of_the_same_name() -> None:
    matches = lookup("Face-book")["matches"]  # spelled as Facebook, Meta's former name
    assert matches[0]["company"]["name"] == "Meta" and matches[0]["name_similarity"] == 1.0
    assert matches[1]["company"]["name"] == "Face-book"  # the namesake the sandbox invents


@pytest.mark.parametrize(
    "pair", [("ソニー株式会社", "トヨタ株式会社"), ("ヤマダ株式会社", "タナカ株式会社")]
)
def test_two_companies_in_cjk_never_share_a_page_address(pair: tuple[str, str]) -> None:
    one, other = (first(name) for name in pair)
    assert one["url"] != other["url"]
    for page in (one, other):
        slug = page["url"].rsplit("/", 1)[1]
        assert slug.strip("-") and slug not in {"k-k", "kk"}  # never a bare legal form


def test_every_real_company_has_its_own_page_address() -> None:
    urls = [listed_page(company).url for company in listed()]
    assert len(urls) == len(set(urls))


@pytest.mark.parametrize(
    "typed", ["The-Walt-Disney-Company", "The-Hertz-Corporation", "The-Qt-Company"]
)
def test_an_invented_company_never_takes_a_real_companys_address(typed: str) -> None:
    real = {listed_page(company).url for company in listed()}
    assert derived_company(typed).page.url not in real  # the namesake it would invent
    body = lookup(typed)
    real_first = body["matches"][0]
    assert real_first["company_url"] in real  # the real one first, the invented below


# Words of an address field's labels, never of a city ("headquartered in headquarters").
LABEL_WORDS = {"headquarters", "seat", "office", "registered", "corporate", "operations"}


def test_no_page_shows_a_field_label_as_its_headquarters() -> None:
    assert first("Société Générale")["headquarters"] != "headquarters, FR"
    for company in listed():
        page = listed_page(company)
        city = (page.headquarters or "").rpartition(", ")[0].casefold()
        assert city != "city" and not LABEL_WORDS.intersection(city.split()), page.headquarters
