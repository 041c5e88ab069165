"""What each operation costs: the spec's price table, refreshed from ``GET /catalog``."""

from __future__ import annotations

from creditscope import models, operations


class PriceTable:
    """Credit price per operation. Starts from the spec; the catalog, when fetched, wins."""

    def __init__(self) -> None:
        self._prices: dict[str, int] = {op.name: op.credits for op in operations.OPERATIONS}

    def price_of(self, operation: str) -> int:
        """Credits one successful request to ``operation`` costs."""
        return self._prices[operations.get(operation).name]

    def update_from_catalog(self, catalog: models.Catalog) -> None:
        """Apply the catalog's prices (0 is free; a negative one is ignored)."""
        for provider in catalog.providers:
            for endpoint in provider.endpoints:
                op = operations.BY_PATH.get(endpoint.path)
                if op is None or op.method != endpoint.method.upper() or endpoint.credits < 0:
                    continue  # an endpoint this client does not call
                self._prices[op.name] = endpoint.credits
