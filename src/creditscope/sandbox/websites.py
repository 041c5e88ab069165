"""Websites as the lookup compares them: the host, its registrable name and the
country its country-code domain stands for.

A small table instead of the full public-suffix list: the sandbox only needs
the common second-level business suffixes (``co.uk``, ``com.au``, ``co.jp``…)
and which two-letter domains are used as generic ones (``.io``, ``.co``, ``.ai``…).
"""

from __future__ import annotations

from dataclasses import dataclass

from creditscope.sandbox.naming import profile, word_set
from creditscope.text_folding import fold_case
from creditscope.web_hosts import website_host

# Second-level labels under a country code that are a public suffix, not a name.
SECOND_LEVEL = word_set(
    "co com net org ac gov edu ne or go gob nic ltd plc sch mil biz info nom firm gen"
)
# Country-code domains sold and used as generic ones: no country implied.
GENERIC_CCTLDS = word_set("io co ai tv me fm ly to cc ws sh ac gg la so vc gl sc ms cx")
# Where the ISO code and the domain differ, or the domain is not one country.
CCTLD_COUNTRY = {"uk": "GB"}
_EU = "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE"
EU_COUNTRIES = tuple(sorted(word_set(_EU)))
# Words a company puts around its name in a domain: getacme.com, acmehq.com, acme-app.io.
_DOMAIN_PREFIXES = ("get", "try", "use", "the", "join", "go")
_DOMAIN_SUFFIXES = ("hq", "app", "inc", "corp", "group", "global", "online", "labs", "co")


def normalise_domain(website: str) -> str:
    """``"HTTPS://www.Northwind.com:8443/about"`` -> ``"northwind.com"``; IDN as Punycode.

    "" when no host can be read at all.
    """
    return website_host(website).removeprefix("www.")


@dataclass(frozen=True, slots=True)
class Domain:
    """A host split as a registry sees it: ``northwind-labs`` + ``co.uk``."""

    host: str
    name: str
    suffix: str

    @property
    def country(self) -> str | None:
        """ISO code of the country the domain stands for; None for generic ones."""
        return country_of_suffix(self.suffix)

    @property
    def is_eu(self) -> bool:
        """``.eu``: somewhere in the European Union."""
        return self.suffix == "eu"


def split_domain(host: str) -> Domain:
    """``"shop.northwind-labs.co.uk"`` -> ``Domain(name="northwind-labs", suffix="co.uk")``."""
    labels = host.split(".")
    size = 1
    if len(labels) >= 3 and len(labels[-1]) == 2 and labels[-2] in SECOND_LEVEL:
        size = 2
    name = labels[-size - 1] if len(labels) > size else ""
    return Domain(host, name, ".".join(labels[-size:]))


def country_of_suffix(suffix: str) -> str | None:
    """``"co.uk"`` -> ``"GB"``, ``"de"`` -> ``"DE"``, ``"com"`` / ``"io"`` -> None."""
    top = suffix.rsplit(".", 1)[-1]
    if len(top) != 2 or top in GENERIC_CCTLDS or top == "eu":
        return None
    return CCTLD_COUNTRY.get(top, top.upper())


def _unicode_label(label: str) -> str:
    """``"xn--bcher-kva"`` -> ``"bücher"``; other labels unchanged."""
    if not label.startswith("xn--"):
        return label
    try:
        return label.encode("ascii").decode("idna")
    except UnicodeError:
        try:
            return label[4:].encode("ascii").decode("punycode")
        except UnicodeError:
            return label


def _compact(text: str) -> str:
    """Folded letters and digits of any script: ``"Bücher-Haus"`` -> ``"bucherhaus"``."""
    return "".join(ch for ch in fold_case(text) if ch.isalnum())


def name_variants(company_name: str) -> set[str]:
    """Letters-only forms of a company name its domain might use.

    ``"Northwind Labs"`` -> ``{"northwindlabs", "northwind"}``.
    """
    names = profile(company_name)
    forms = {_compact("".join(names.words)), _compact("".join(names.distinctive))}
    return {form for form in forms if form}


def registrable_matches(website: str, company_name: str) -> bool:
    """Whether the website's registrable name is the company's name.

    ``("acme.io", "Acme")`` and ``("www.get-acme.com", "ACME Inc")`` match;
    ``("acme-foods.com", "Acme")`` does not.
    """
    domain = split_domain(normalise_domain(website))
    label = _compact(_unicode_label(domain.name))
    if not label:
        return False
    candidates = {label}
    candidates |= {label[len(p):] for p in _DOMAIN_PREFIXES if label.startswith(p)}
    candidates |= {label[: -len(s)] for s in _DOMAIN_SUFFIXES if label.endswith(s)}
    return bool(candidates & name_variants(company_name))
