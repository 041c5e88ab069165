"""The company lookup's request, from what the user typed: shared by the Company area
and its comparison screen. Local checks only: nothing is sent from here."""

from __future__ import annotations

import re
from typing import Any

from creditscope import operations

FIND_COMPANY = operations.FIND_COMPANY.name  # what prices, keys and imports go by
# A website the service can compare: a domain, optionally with scheme and path.
_WEBSITE = re.compile(r"^(https?://)?[^\s/.]+(\.[^\s/.]+)+(/\S*)?$", re.IGNORECASE)


def lookup_params(name: str, website: str) -> dict[str, Any]:
    """The request body from the form: an empty website is left out."""
    return {"name": name.strip(), "website": website.strip() or None}


def check_form(name: str, website: str) -> tuple[str, str] | None:
    """(field, message) for the first problem in the form, or None; nothing is sent."""
    if not name.strip():
        return "name", "Company name is required."
    if website.strip() and not _WEBSITE.match(website.strip()):
        return "website", "Website: give a domain or address such as example.com."
    return None
