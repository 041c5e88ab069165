"""``GET /catalog``, built from the one operations table so prices cannot drift, and an
operation added to the table is listed with no other edit."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from creditscope import models, operations

# provider id -> (name, category, description); an operation's provider is its first path segment.
PROVIDERS: dict[str, tuple[str, str, str]] = {
    "ticketing": (
        "Ticketed events",
        "Events",
        "Events near a point, with venues, dates, lineups and lead prices.",
    ),
    "professional_network": (
        "Professional network",
        "Companies",
        "Finds a company's page on a professional networking site and grades the candidates.",
    ),
    "restaurants": (
        "Restaurants",
        "Food & drink",
        "Restaurant search, listings, menus and reviews.",
    ),
    "platform": (
        "Platform",
        "Platform",
        "The catalog itself and requests for new providers. Public.",
    ),
}


def _provider_of(name: str) -> str:
    head = name.split("/")[0]
    return head if "/" in name else "platform"


def _provider_entry(provider_id: str) -> tuple[str, str, str]:
    """A provider's (name, category, description); one the list above does not know
    (an operation added to the table) is listed under its path's first segment."""
    known = PROVIDERS.get(provider_id)
    if known is not None:
        return known
    words = provider_id.replace("_", " ").replace("-", " ")
    return (words.capitalize(), "Other", f"Endpoints under /{provider_id}/.")


def catalog() -> dict[str, Any]:
    """Every provider with its endpoints and credit prices; ``totalEndpoints`` counts them."""
    return _catalog_of(operations.OPERATIONS)


@lru_cache(maxsize=4)  # keyed by the table: an operation added in a test is listed too
def _catalog_of(table: tuple[operations.Operation[Any], ...]) -> dict[str, Any]:
    ids = list(PROVIDERS) + [p for p in dict.fromkeys(_provider_of(op.name) for op in table)
                             if p not in PROVIDERS]
    providers = []
    for provider_id in ids:
        name, category, description = _provider_entry(provider_id)
        endpoints = [
            models.CatalogEndpoint(
                name=op.name.split("/")[-1],
                method=op.method,
                path=op.path,
                description=op.description,
                credits=op.credits,
            )
            for op in table
            if _provider_of(op.name) == provider_id
        ]
        providers.append(
            models.CatalogProvider(
                id=provider_id,
                name=name,
                category=category,
                description=description,
                endpoints=endpoints,
            )
        )
    body = models.Catalog(
        providers=providers, totalEndpoints=sum(len(p.endpoints) for p in providers)
    )
    return body.model_dump(mode="json")
