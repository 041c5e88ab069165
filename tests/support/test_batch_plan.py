"""A batch's plan and output rows, below the command: what a customer's file turns into
before anything is sent (blank, invalid and unknown-place rows, the invalid rows listed),
and the output columns and cells of a dry run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from client_fakes import FakeService
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.ledger import CreditLedger
from creditscope.support.batch_index import Outcome
from creditscope.support.batch_input import InputRow
from creditscope.support.batch_output import output_columns, result_rows
from creditscope.support.batch_plan import SHOWN_INVALID, plan_batch, row_request
from creditscope.support.batch_run import ABANDONED

SEARCH = "restaurants/search"
FIND = "professional_network/find_company"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[DataClient]:
    made = DataClient("https://api.example.test", "sk_test_batch_1234",
                      transport=FakeService().transport,
                      cache=ResponseCache(tmp_path / "cache"),
                      ledger=CreditLedger(tmp_path / "ledger.sqlite3"))
    yield made
    made.ledger.close()


def row(line: int, **params: Any) -> InputRow:
    return InputRow(line, params, echo=tuple(str(value) for value in params.values()))


def test_blank_rows_are_counted_and_the_first_invalid_rows_listed(client: DataClient) -> None:
    rows = [InputRow(2, {}, blank=True), InputRow(3, {}, blank=True), row(4, location="Lisbon")]
    rows += [row(line, location="Lisbon", limit=0) for line in range(5, 5 + SHOWN_INVALID + 5)]
    plan = plan_batch(client, SEARCH, rows)
    try:
        assert (plan.rows, plan.blank, plan.invalid, plan.valid) == (
            len(rows), 2, SHOWN_INVALID + 5, 1)
        assert [shown.line for shown, _ in plan.invalid_shown] == list(range(5, 5 + SHOWN_INVALID))
        assert (plan.distinct, plan.to_send, plan.price) == (1, 1, 2)
    finally:
        plan.index.close()


def test_an_unknown_place_is_invalid_unless_the_customer_allows_it(client: DataClient) -> None:
    hogwarts = row(2, location="Hogwarts")
    clean, why = row_request(client, SEARCH, hogwarts)
    assert clean is None and "--allow-unknown-place" in why
    assert row_request(client, SEARCH, row(3, location="Lisbon")) == (
        {"location": "Lisbon", "limit": 10}, "")
    refused = plan_batch(client, SEARCH, [hogwarts])
    allowed = plan_batch(client, SEARCH, [hogwarts], allow_unknown_place=True)
    try:
        assert (refused.invalid, refused.price) == (1, 0)
        assert (allowed.invalid, allowed.price) == (0, 2)
    finally:
        refused.index.close()
        allowed.index.close()


def test_columns_that_clash_are_prefixed_and_the_rest_kept_as_written() -> None:
    source: Any = SimpleNamespace(echo_columns=("Status", "Name", "confidence", "CRM id"))
    columns = output_columns(source, FIND)
    assert columns.echo == ("input_Status", "Name", "confidence", "CRM id")
    assert columns.keys == ("matches", "best_match", "best_match_url", "result_confidence",
                            "name_similarity", "website_match")


def test_dry_run_rows_say_what_each_line_would_cost_and_why_not(client: DataClient) -> None:
    lines = [row(2, location="Lisbon"), InputRow(3, {}, blank=True), row(4, location="lisbon "),
             row(5, location="Lisbon", limit=0), row(6, location="Porto")]
    plan = plan_batch(client, SEARCH, lines[:4])  # line 6 was added after the plan
    columns: Any = SimpleNamespace(echo=("location", "limit"), keys=())
    try:
        out = list(result_rows(lines, client, plan, columns, not_run="", dry_run=True))
    finally:
        plan.index.close()
    assert [(r["line"], r["status"], r["credits"], r["cache"]) for r in out] == [
        (2, "valid", 2, ""), (3, "blank", 0, ""), (4, "valid", 0, "same as line 2"),
        (5, "invalid", 0, ""), (6, "invalid", 0, "")]
    assert out[1]["error"] == "" and out[0]["error"] == ""
    assert "limit" in out[3]["error"]
    assert out[4]["error"] == "changed since it was checked"
    assert (out[0]["location"], out[3]["limit"]) == ("Lisbon", "0")  # the customer's cells
    assert "limit" not in out[0]  # a row shorter than the header: its cells, no more


def test_a_request_abandoned_in_flight_says_on_its_first_line_it_may_be_charged(
    client: DataClient,
) -> None:
    """What the run keeps for an exchange abandoned on the wire (a second Ctrl+C): its
    price as possibly charged, on the line that sent it; the duplicate line sent nothing."""
    lines = [row(2, location="Lisbon"), row(3, location="lisbon")]
    plan = plan_batch(client, SEARCH, lines)
    source: Any = SimpleNamespace(echo_columns=("location",))
    columns = output_columns(source, SEARCH)
    try:
        [request] = plan.index.requests()
        plan.index.finish(request.id, Outcome("error", 0, "miss", ABANDONED, possibly_charged=2))
        out = list(result_rows(lines, client, plan, columns, not_run="", dry_run=False))
    finally:
        plan.index.close()
    assert [(r["status"], r["credits"], r["possibly_charged"], r["error"]) for r in out] == [
        ("error", 0, 2, ABANDONED), ("error", 0, 0, ABANDONED)]
