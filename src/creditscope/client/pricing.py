"""What each operation costs: the spec's price table, refreshed from ``GET /catalog``."""

from __future__ import annotations

from creditscope import models, operations


class PriceTable:
    """Credit price per operation. Starts from the spec; the catalog, when fetched, wins."""

    def __init__(self) -> None:
        self._prices: dict[str, int] = {op.name: op.credits for op in operations.OPERATIONS}
        self.from_catalog = False  # True once the service's own prices have been applied

    def price_of(self, operation: str) -> int:
        """Credits one successful request to ``operation`` costs."""
        return self._prices[operations.get(operation).name]

    def update_from_catalog(self, catalog: models.Catalog) -> list[str]:
        """Apply the catalog's prices; returns the operations whose price changed."""
        changed: list[str] = []
        for provider in catalog.providers:
            for endpoint in provider.endpoints:
                op = operations.BY_PATH.get(endpoint.path)
                if op is None or op.method != endpoint.method.upper() or endpoint.credits < 0:
                    continue  # an endpoint this client does not call
                if self._prices[op.name] != endpoint.credits:
                    changed.append(op.name)
                self._prices[op.name] = endpoint.credits
        self.from_catalog = True
        return changed
