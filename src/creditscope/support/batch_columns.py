"""Which column of a customer's table holds which parameter: by name, by meaning, or as told.

A CRM export says ``Account Name`` and ``Website URL``, a German list ``Firma`` and
``Webseite``, a Japanese one ``会社名``: each means ``name`` or ``website``. A header
cell is matched after folding (case, accents, spaces and punctuation ignored:
``Company_Name``, ``company name`` and ``COMPANY-NAME`` are one), first against the
operation's own parameter names, then against the aliases below, in the languages
of the markets the service covers. ``--name-column`` / ``--website-column`` name the
column outright, for a header no table could guess. Two columns that could both be
the same parameter are never chosen between silently.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

# Header words (folded as ``fold_header`` folds them) that mean a parameter.
_ALIASES: dict[str, tuple[str, ...]] = {
    "name": (
        # English
        "company", "company name", "companies", "organisation", "organization",
        "organisation name", "organization name", "org", "org name", "account",
        "account name", "customer", "customer name", "client", "client name", "business",
        "business name", "firm", "legal name", "employer", "prospect", "lead company",
        # German
        "firma", "firmenname", "unternehmen", "unternehmensname", "kunde", "kundenname",
        # French
        "société", "nom de la société", "nom de société", "entreprise",
        "nom de l'entreprise", "nom entreprise", "raison sociale", "nom du client",
        # Spanish
        "empresa", "nombre de la empresa", "nombre empresa", "compañía", "cliente",
        "razón social", "organización",
        # Portuguese
        "nome da empresa", "nome empresa", "companhia", "razão social", "organização",
        # Dutch
        "bedrijf", "bedrijfsnaam", "onderneming", "organisatie", "klant", "klantnaam",
        # Italian
        "azienda", "nome azienda", "società", "ragione sociale", "impresa",
        # Polish, Swedish
        "nazwa firmy", "företag", "företagsnamn",
        # Japanese
        "会社名", "会社", "企業名", "企業", "社名", "法人名", "取引先名", "顧客名",
    ),
    "website": (
        # English
        "website", "website url", "web site", "site", "url", "homepage", "home page", "web",
        "web address", "domain", "domain name", "company website", "company domain",
        "company url", "www", "company domain name",
        # German
        "webseite", "internetseite", "internetadresse", "homepage url", "domäne",
        # French
        "site web", "site internet", "adresse web", "domaine",
        # Spanish, Portuguese
        "sitio web", "página web", "dominio", "sítio", "domínio", "endereço web",
        # Dutch
        "webadres", "domein", "internetadres",
        # Italian
        "sito web", "sito", "indirizzo web",
        # Polish, Swedish
        "strona www", "strona internetowa", "webbplats", "hemsida", "domän",
        # Japanese
        "ウェブサイト", "webサイト", "ホームページ", "サイト", "ドメイン", "url",
    ),
}


def fold_header(text: str) -> str:
    """``"Nom de l'entreprise "`` -> ``"nomdelentreprise"``: case, accents, spaces and
    punctuation left out, letters of every script kept."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return re.sub(r"[\W_]+", "", bare)


_BY_ALIAS: dict[str, str] = {fold_header(alias): param for param, aliases in _ALIASES.items()
                             for alias in aliases}


class ColumnChoiceProblem(ValueError):
    """Columns cannot be told apart, or a named column is not in the header."""


def column_params(columns: Sequence[str], accepted: Sequence[str],
                  chosen: Mapping[str, str]) -> tuple[str | None, ...]:
    """The parameter each column holds (None: not a parameter), in the columns' order.

    ``chosen`` maps a parameter to the header the user named for it (``--name-column``);
    ``ColumnChoiceProblem`` when that header is missing, or when two columns could both
    be one parameter (``Website`` and ``Domain``) and nothing says which."""
    folded = [fold_header(column) for column in columns]
    params: list[str | None] = [None] * len(columns)
    for param, header in chosen.items():
        if fold_header(header) not in folded:
            raise ColumnChoiceProblem(f"no column {header!r} for {param} "
                                      f"(the header has {', '.join(columns)})")
        params[folded.index(fold_header(header))] = param
    by_name = {fold_header(name): name for name in accepted}
    for index, key in enumerate(folded):
        if params[index] is None and key in by_name and by_name[key] not in chosen:
            params[index] = by_name[key]
    for index, key in enumerate(folded):
        meant = _BY_ALIAS.get(key)
        if params[index] is not None or meant not in accepted or meant in params:
            continue
        rivals = [columns[other] for other, rival in enumerate(folded)
                  if other != index and _BY_ALIAS.get(rival) == meant and params[other] is None]
        if rivals:
            raise ColumnChoiceProblem(
                f"columns {columns[index]!r} and {rivals[0]!r} could both be the {meant}; "
                f"say which with --{meant}-column")
        params[index] = meant
    return tuple(params)


def also_means(column: str, params: Sequence[str | None]) -> str | None:
    """The parameter ``column`` usually means when another column already holds it
    (``Domain`` beside ``Website``), else None."""
    meant = _BY_ALIAS.get(fold_header(column))
    return meant if meant in params else None
