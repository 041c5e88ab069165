"""Issue 35, "Rules in the table": what is special to one operation (how long an
answer stays fresh, what counts as a match, which answer is the price list) is a
field of its row, so a made-up operation added to the table alone gets all three,
with no edit to the client."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from creditscope import models, operations
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger

BASE_URL = "http://127.0.0.1:19401"  # never reached: the transport answers


class GuessQuery(models.QueryModel):
    """Query of ``GET /test/guess``."""

    word: models.FilledText


class Guess(models.ApiModel):
    """Response of ``GET /test/guess``: how sure, and prices as the catalog says them."""

    sure: str
    catalog: models.Catalog


def _catalog(prices: dict[str, int]) -> models.Catalog:
    return models.Catalog.model_validate({
        "providers": [{"id": "test", "name": "test", "endpoints": [
            {"name": name, "path": "/" + name, "method": "GET", "credits": credits}
            for name, credits in prices.items()]}],
        "totalEndpoints": len(prices),
    })


GUESS = operations.Operation(
    "test/guess", "GET", 4, True, 3600, Guess, GuessQuery, "Guess", "Guesses.",
    fresh_for=lambda answer, ttl: 60 if answer.sure == "no" else ttl,
    grade=lambda answer: answer.sure,
    price_list=lambda answer: answer.catalog,
)


@pytest.fixture
def guess() -> Iterator[operations.Operation[Guess]]:
    with operations.registered(GUESS) as op:
        yield op


def _client(tmp_path: Path, sure: str, menu_price: int) -> DataClient:
    body = {"sure": sure,
            "catalog": _catalog({"restaurants/menu": menu_price, "test/guess": 4})
            .model_dump(mode="json")}

    def answer(_: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=json.dumps(body).encode(),
                              headers={"Content-Type": "application/json",
                                       "X-Credits-Charged": "4"})

    return DataClient(BASE_URL, "sk_test_rules_0001", transport=httpx.MockTransport(answer),
                      cache=ResponseCache(tmp_path / "cache"),
                      ledger=CreditLedger(tmp_path / "ledger.sqlite3"))


@pytest.mark.parametrize(("sure", "fresh_for"), [("no", 60), ("yes", 3600)])
async def test_a_rows_rules_decide_lifetime_grade_and_prices(
    guess: operations.Operation[Guess], tmp_path: Path, sure: str, fresh_for: int,
) -> None:
    client = _client(tmp_path, sure, menu_price=7)
    async with client:
        result = await client.call(guess, {"word": "acme"})
        assert result.record.match_grade == sure  # the row's grade, in Usage's column
        entry = client.cached_entry(guess, {"word": "acme"})
        assert entry is not None
        assert entry.expires_at - entry.stored_at == pytest.approx(fresh_for, abs=1)
        assert entry.expires_at > time.time()
        # The answer is a price list (its row says so): the menu is re-priced from it.
        assert client.price_of("restaurants/menu") == 7
        again = await client.call(guess, {"word": "acme"})  # from the cache, re-read
        assert again.record.credits_saved == 4
