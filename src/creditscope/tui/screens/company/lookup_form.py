"""The company lookup's request, from what the user typed: shared by the Company area
and its comparison screen. Local checks only: nothing is sent from here."""

from __future__ import annotations

from typing import Any

from creditscope import operations
from creditscope.web_hosts import website_problem

FIND_COMPANY = operations.FIND_COMPANY.name  # what prices, keys and imports go by


def lookup_params(name: str, website: str) -> dict[str, Any]:
    """The request body from the form: an empty website is left out."""
    return {"name": name.strip(), "website": website.strip() or None}


def check_form(name: str, website: str) -> tuple[str, str] | None:
    """(field, message) for the first problem in the form, or None; nothing is sent."""
    if not name.strip():
        return "name", "Company name is required."
    problem = website_problem(website)  # the client's and the service's own rule
    if problem is not None:
        return "website", f"Website {problem}."
    return None
