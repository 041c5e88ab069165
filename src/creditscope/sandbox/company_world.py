"""Any company name a prospect types: the company itself and its namesakes.

A name the sandbox does not know is still a company: its page, website and
every field are derived from the name's folded words by stable hashing, so the
same name answers the same on every machine and after every restart. Most
names have a page; a company of a local trade (a bakery, a plumber) usually has
none, and some pages are momentarily unavailable. Namesakes are the same
distinctive words in other trades and countries ("Acme" -> "Acme Logistics",
"Acme Foods"), each generated the same way, so looking one up directly gives
the page the first lookup showed.

A well-known company (:mod:`creditscope.sandbox.listed`) is itself, with its
real facts; its namesakes are its country subsidiaries ("Siemens Deutschland
GmbH" on siemens.de), and a name that resembles nothing the world knows
(:mod:`creditscope.sandbox.plausibility`) is no company the network has a page
for, and has no namesakes.
"""

from __future__ import annotations

import enum
import random
import unicodedata
from dataclasses import dataclass, replace
from functools import cached_property

from creditscope import models
from creditscope.sandbox.companies import by_words, industry_for, is_flaky, pages
from creditscope.sandbox.company_pages import (
    LEGAL_FORMS,
    PageSeed,
    build_page,
    country_domain,
    home_countries,
    page_slug,
    weighted_country,
)
from creditscope.sandbox.industries import BY_NAME
from creditscope.sandbox.listed import (
    ListedCompany,
    listed_named,
    listed_page,
    listed_slugs,
    size_index,
)
from creditscope.sandbox.naming import (
    LOCAL_TRADES,
    STRONG_NAME,
    TRADE_WORDS,
    display_name,
    name_similarity,
    profile,
    words_of,
)
from creditscope.sandbox.plausibility import is_nonsense
from creditscope.sandbox.seeding import rng_for, stable_hash
from creditscope.sandbox.websites import normalise_domain, registrable_matches, split_domain
from creditscope.text_folding import fold_case

# Trades a namesake may be in (the name word as shown), and light variants of a name.
NAMESAKE_KINDS = (
    "Logistics", "Foods", "Health", "Capital", "Media", "Robotics", "Studio", "Consulting",
    "Analytics", "Energy", "Hotels", "Pharma", "Travel", "Insurance", "Software", "Bank",
    "Publishing", "Construction", "Design", "Realty",
)  # fmt: skip
LIGHT_VARIANTS = ("Group", "Holdings", "Labs", "Global", "Technologies")
NAMESAKE_COUNT_WEIGHTS = (2, 3, 3, 2, 1)  # 0..4 namesakes
GENERIC_TLDS = (("com", 45), ("io", 8), ("co", 4), ("net", 4), ("ai", 2))
COUNTRY_TLD_WEIGHT = 37
LEGAL_FORM_SHARE = 0.4
# Scripts whose names point to a country, by the first word of the character's name.
SCRIPT_COUNTRIES: dict[str, tuple[str, ...]] = {
    "ARABIC": ("AE", "SA", "EG", "MA"), "HEBREW": ("IL",), "CJK": ("CN", "TW", "JP"),
    "HIRAGANA": ("JP",), "KATAKANA": ("JP",), "HANGUL": ("KR",), "CYRILLIC": ("UA", "BG", "RS"),
    "GREEK": ("GR", "CY"), "THAI": ("TH",), "DEVANAGARI": ("IN",), "BENGALI": ("BD", "IN"),
    "TAMIL": ("IN", "LK"), "GEORGIAN": ("GE",), "ARMENIAN": ("AM",),
}  # fmt: skip
MAX_LABEL = 63
LOCAL_NO_PAGE_PERCENT = 80
UNAVAILABLE_PERCENT = 8
CURATED_NEARBY = 0.6  # a root this similar to a curated name belongs to the curated world
# Where a well-known company has a subsidiary page: country, name word, legal form.
SUBSIDIARY_COUNTRIES: tuple[tuple[str, str, str], ...] = (
    ("DE", "Deutschland", "GmbH"), ("GB", "United Kingdom", "Ltd"), ("FR", "France", "SAS"),
    ("JP", "Japan", "K.K."), ("IT", "Italia", "S.r.l."), ("ES", "España", "S.L."),
    ("NL", "Nederland", "B.V."), ("SE", "Sverige", "AB"), ("AU", "Australia", "Pty Ltd"),
    ("IN", "India", "Pvt Ltd"), ("BR", "Brasil", "Ltda"), ("CH", "Schweiz", "AG"),
    ("PL", "Polska", "Sp. z o.o."), ("CA", "Canada", "Inc"), ("MX", "México", "S.A. de C.V."),
)  # fmt: skip
SUBSIDIARIES = (2, 3)  # how many country pages a well-known company has in a lookup


class Fate(enum.Enum):
    """Whether a company has a page on the network, and whether it loads right now."""

    PAGE = "page"
    UNAVAILABLE = "unavailable"
    NO_PAGE = "no page"


@dataclass(frozen=True)
class WorldCompany:
    """A company as the lookup finds it: its name, website, fate and (lazily) its page."""

    name: str
    website: str
    fate: Fate
    slug: str
    known: bool = False  # one of the curated companies
    listed: ListedCompany | None = None  # a well-known company: its facts
    industry: str | None = None  # its field when not the one its name points to
    largest_size: int | None = None  # a subsidiary's page is no larger than its parent's

    @cached_property
    def page(self) -> models.Company:
        """Its page on the network (what hydrating the search hit returns)."""
        if self.known:
            return pages()[self.slug]
        if self.listed is not None:
            return listed_page(self.listed)
        field = BY_NAME[self.industry] if self.industry else industry_for(self.name)
        return build_page(PageSeed(self.name, self.website, field, self.slug, self.largest_size))

    @property
    def names(self) -> tuple[str, ...]:
        """The names it is found by: a well-known company's other names too."""
        return self.listed.names if self.listed is not None else (self.name,)


def fate_of(name: str) -> Fate:
    """A generated company's fate, from its words.

    A local trade ("… Bakery") usually has no page; a name with another trade
    word ("… Consulting") sometimes has a page that is momentarily unavailable;
    a brand name ("Acme", "Coca-Cola") always has a page.
    """
    words = profile(name).words
    roll = stable_hash("fate", " ".join(words)) % 100
    if LOCAL_TRADES.intersection(words):
        return Fate.NO_PAGE if roll < LOCAL_NO_PAGE_PERCENT else Fate.PAGE
    if len(words) < 2 or not TRADE_WORDS.intersection(words):
        return Fate.PAGE
    return Fate.UNAVAILABLE if roll < UNAVAILABLE_PERCENT else Fate.PAGE


def script_countries(name: str) -> tuple[str, ...]:
    """Countries a name's script points to (``"شركة"`` -> Arabic-speaking ones), else ()."""
    for char in name:
        if char.isalpha() and not char.isascii():
            script = unicodedata.name(char, "").split(" ")[0]
            if script in SCRIPT_COUNTRIES:
                return SCRIPT_COUNTRIES[script]
    return ()


def _domain_label(name: str, rng: random.Random) -> str:
    """``"Northwind Labs"`` -> ``"northwindlabs"`` or ``"northwind-labs"``; IDN as Punycode."""
    words = [fold_case(word) for word in words_of(name)]
    label = ("-" if len(words) > 1 and rng.random() < 0.4 else "").join(words)
    if not label.isascii():
        label = "xn--" + label.encode("punycode").decode("ascii")
    label = "".join(ch for ch in label if ch.isalnum() or ch == "-")[:MAX_LABEL].strip("-")
    return label or f"company-{stable_hash('label', name) % 10**6}"


def derived_company(name: str, website: str | None = None) -> WorldCompany:
    """The generated company called ``name``; it lists ``website`` when that is its own domain."""
    shown = display_name(name)
    rng = rng_for("world-company", " ".join(profile(shown).words))
    countries = script_countries(shown)
    if website and registrable_matches(website, shown):
        host = normalise_domain(website)
    else:
        label = _domain_label(shown, rng)
        tlds = [tld for tld, _ in GENERIC_TLDS]
        weights = [weight for _, weight in GENERIC_TLDS]
        if countries or rng.random() * (sum(weights) + COUNTRY_TLD_WEIGHT) < COUNTRY_TLD_WEIGHT:
            host = f"{label}.{country_domain(rng.choice(countries or (weighted_country(rng),)))}"
        else:
            host = f"{label}.{rng.choices(tlds, weights=weights)[0]}"
    homes = home_countries("", f"https://{host}")
    country = rng.choice(homes) if homes else weighted_country(rng)
    forms = LEGAL_FORMS.get(country, ())
    if forms and rng.random() < LEGAL_FORM_SHARE:
        shown = f"{shown} {rng.choice(forms)}"
    return WorldCompany(shown, f"https://{host}", fate_of(shown), invented_slug(shown))


def invented_slug(name: str) -> str:
    """An invented company's page address: never a real or curated company's (a suffix from
    its name tells them apart: ``"the-walt-disney-company-3f2a"``)."""
    slug = page_slug(name)
    if slug in listed_slugs() or slug in pages():
        return f"{slug}-{stable_hash('namesake', name) % 16**4:04x}"
    return slug


def known_company(name: str) -> WorldCompany | None:
    """The curated company whose name has these words, if any."""
    entry = by_words().get(profile(name).words)
    if entry is None:
        return None
    if not entry.has_page:
        fate = Fate.NO_PAGE
    else:
        fate = Fate.UNAVAILABLE if is_flaky(entry.slug) else Fate.PAGE
    return WorldCompany(entry.name, entry.website, fate, entry.slug, known=True)


def listed_company(name: str) -> WorldCompany | None:
    """The well-known company one of whose names has these words, if any."""
    found = listed_named(name)
    if found is None:
        return None
    return WorldCompany(found.name, found.website, Fate.PAGE, found.slug, listed=found)


def subsidiary(parent: ListedCompany, country: str) -> WorldCompany:
    """A well-known company's page for one country: ``"Siemens Deutschland GmbH"``."""
    _, word, form = next(entry for entry in SUBSIDIARY_COUNTRIES if entry[0] == country)
    name = f"{parent.name} {word} {form}"
    website = f"https://www.{parent.label}.{country_domain(country)}"
    largest = max(0, size_index(parent.employees) - 1) if parent.employees else None
    return WorldCompany(
        name, website, Fate.PAGE, page_slug(name), industry=parent.industry, largest_size=largest
    )


def subsidiary_named(name: str) -> WorldCompany | None:
    """``"Siemens Deutschland"`` -> that subsidiary page, when the rest is a well-known name."""
    words = profile(name).words
    for country, word, _ in SUBSIDIARY_COUNTRIES:
        tail = profile(word).words
        if len(words) > len(tail) and words[-len(tail):] == tail:
            parent = listed_named(" ".join(words[: -len(tail)]))
            if parent is not None and parent.country != country:
                return subsidiary(parent, country)
    return None


def company_named(name: str, website: str | None = None) -> WorldCompany:
    """The company a lookup of ``name`` is about: a curated one, a well-known one, else a
    generated one (with no page when the name is nonsense)."""
    found = known_company(name) or listed_company(name) or subsidiary_named(name)
    if found is not None:
        return found
    derived = derived_company(name, website)
    return replace(derived, fate=Fate.NO_PAGE) if is_nonsense(name) else derived


def subsidiaries(parent: ListedCompany, website: str | None) -> list[WorldCompany]:
    """A few of its country pages, and the one whose website was passed, if that is one."""
    rng = rng_for("subsidiaries", parent.slug)
    countries = [c for c, _, _ in SUBSIDIARY_COUNTRIES if c != parent.country]
    chosen = rng.sample(countries, rng.choice(SUBSIDIARIES))
    if website:
        domain = split_domain(normalise_domain(website))
        country = domain.country
        if domain.name == parent.label and country in countries and country not in chosen:
            chosen.insert(0, country)
    return [subsidiary(parent, country) for country in chosen]


def _root(name: str) -> str:
    """The distinctive words of a name as typed: ``"Blue Heron Consulting"`` -> ``"Blue Heron"``."""
    distinctive = set(profile(name).distinctive)
    kept = [word for word in display_name(name).split() if set(words_of(word)) & distinctive]
    return " ".join(kept)


def namesakes(subject: WorldCompany, website: str | None = None) -> list[WorldCompany]:
    """Similarly named companies in other trades and countries (none around curated names
    or nonsense; a well-known company's are its subsidiaries)."""
    if subject.listed is not None:
        return subsidiaries(subject.listed, website)
    root = _root(subject.name)
    if subject.known or not root or is_nonsense(subject.name):
        return []
    if any(name_similarity(root, page.name or "") >= CURATED_NEARBY for page in pages().values()):
        return []  # the curated families already answer this name
    rng = rng_for("namesakes", " ".join(profile(root).words))
    count = rng.choices(range(len(NAMESAKE_COUNT_WEIGHTS)), weights=NAMESAKE_COUNT_WEIGHTS)[0]
    names = [f"{root} {kind}" for kind in rng.sample(NAMESAKE_KINDS, count)]
    if rng.random() < 0.5:
        names.insert(0, root)
    if rng.random() < 0.3:
        names.append(f"{root} {rng.choice(LIGHT_VARIANTS)}")
    found = []
    root_words = set(profile(root).words)
    for name in names:
        words = profile(name).words
        if words == profile(subject.name).words or not root_words <= set(words):
            continue  # the company itself, or a root (emoji, symbols) lost in the new name
        company = known_company(name) or derived_company(name)
        if company.fate is Fate.NO_PAGE:
            continue
        if subject.fate is Fate.NO_PAGE and name_similarity(subject.name, name) >= STRONG_NAME:
            continue  # a small company's namesakes are other trades, never near-twins
        found.append(company)
    return found
