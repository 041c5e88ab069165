"""A made-up operation added to the operations table only (``test/echo``: one required
text parameter and a limited count) is validated by the client, served and checked
by a sandbox route generated from the table, priced, cached with its TTL, and
batchable, and checked by ``check-service`` (its rules generated from the row), with no
other edit anywhere."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, FastAPI, Request
from pydantic import Field

from creditscope import models, operations
from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.errors import InvalidRequest
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CacheStatus
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.sandbox.openapi import KEYED_GET_ERRORS
from creditscope.sandbox.routes.endpoint import query_operation
from creditscope.settings import ttl_settings_model
from creditscope.support.batch_input import BatchFile, BatchFileProblem
from creditscope.support.batch_output import output_columns, result_rows, write_rows
from creditscope.support.batch_plan import plan_batch
from creditscope.support.batch_run import BatchRun
from service_check_support import run_check

BASE_URL = "http://sandbox.test"


class EchoQuery(models.QueryModel):
    """Query of ``GET /test/echo``."""

    text: models.FilledText
    times: int = Field(default=1, ge=1, le=3)


class Echo(models.ApiModel):
    """Response of ``GET /test/echo``."""

    echo: str
    length: int


ECHO = operations.Operation(
    "test/echo", "GET", 4, True, 120, Echo, EchoQuery, "Echo", "Says the text back.",
    ("echo", "length"),
)


def echo_data(_: Request, query: EchoQuery) -> dict[str, Any]:
    said = " ".join([query.text] * query.times)
    return {"echo": said, "length": len(said)}


@pytest.fixture
def echo() -> Iterator[operations.Operation[Echo]]:
    with operations.registered(ECHO) as op:
        yield op
    assert "test/echo" not in operations.BY_NAME


@pytest.fixture
def echo_app(echo: operations.Operation[Echo]) -> FastAPI:
    """The sandbox with the echo route, generated from the table's row."""
    app = create_app(SandboxConfig())
    router = APIRouter()
    query_operation(router, echo.name, KEYED_GET_ERRORS, echo_data)  # the data is the test's
    app.include_router(router)
    return app


@pytest.fixture
async def client(echo_app: FastAPI, tmp_path: Path) -> AsyncIterator[DataClient]:
    transport = httpx.ASGITransport(app=echo_app)
    async with DataClient(
        BASE_URL, DEMO_KEY, transport=transport, cache=ResponseCache(tmp_path / "cache"),
        ledger=CreditLedger(tmp_path / "ledger.sqlite3"),
    ) as made:
        yield made


def test_the_client_validates_it_from_the_table(echo: operations.Operation[Echo]) -> None:
    from creditscope.client.validation import accepted_fields, required_fields, validate

    assert accepted_fields("test/echo") == ("text", "times")
    assert required_fields("test/echo") == ("text",)
    assert validate("test/echo", {"text": "hi", "times": "2"}) == {"text": "hi", "times": 2}
    assert validate("test/echo", {"text": "hi"}) == {"text": "hi", "times": 1}  # the default
    for params, field, message in [
        ({}, "text", "text is required"),
        ({"text": "  "}, "text", "text must not be empty"),
        ({"text": "x" * 1001}, "text", "text is 1001 characters; at most 1000"),
        ({"text": "hi", "times": 4}, "times", "times must be between 1 and 3"),
        ({"text": "hi", "loud": "yes"}, "loud", "test/echo has no parameter 'loud' "
                                                "(accepted: text, times)"),
    ]:
        with pytest.raises(InvalidRequest) as caught:
            validate("test/echo", params)
        assert (caught.value.field, caught.value.message) == (field, message)


async def test_the_sandbox_serves_checks_and_charges_it(client: DataClient) -> None:
    http = client._http  # the same in-process sandbox, without the client's own checks
    headers = {"X-API-Key": DEMO_KEY}
    for params, named in [({}, "text"), ({"text": " "}, "text"),
                          ({"text": "hi", "times": 9}, "times")]:
        answer = await http.get("/test/echo", params=params, headers=headers)
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "invalid_parameter" and error["message"].startswith(f"{named}:")
        assert "X-Credits-Charged" not in answer.headers
    answer = await http.get("/test/echo", params={"text": "hi", "times": 2}, headers=headers)
    assert answer.status_code == 200 and answer.json() == {"echo": "hi hi", "length": 5}
    assert answer.headers["X-Credits-Charged"] == "4"
    assert (await http.get("/test/echo", params={"text": "hi"})).status_code == 401
    document = (await http.get("/openapi.json")).json()
    times = next(p for p in document["paths"]["/test/echo"]["get"]["parameters"]
                 if p["name"] == "times")
    assert (times["schema"]["minimum"], times["schema"]["maximum"]) == (1, 3)


async def test_it_is_priced_and_cached_with_its_ttl(client: DataClient) -> None:
    assert client.price_of("test/echo") == 4
    assert client.ttls["test/echo"] == 120
    assert client.plan("test/echo", {"text": "hi"}).cost == 4
    first = await client.call(ECHO, {"text": "hi", "times": 2})  # a Result[Echo]
    assert isinstance(first.data, Echo) and first.data.echo == "hi hi"
    assert first.record.credits_charged == 4
    # Its name (the CLI's, a batch's) reaches the same row, price and cache entry.
    again = await client.call("test/echo", {"text": "hi", "times": "2"})
    assert again.record.cache is CacheStatus.HIT and again.record.credits_charged == 0
    assert client.cache_state("test/echo", {"text": "hi", "times": 2}) is CacheStatus.HIT
    # The TTL settings model is built from the table: [ttl] test_echo, CREDITSCOPE_TTL__TEST_ECHO.
    ttl = ttl_settings_model(operations.OPERATIONS)
    assert ttl().by_operation()["test/echo"] == 120
    assert ttl.model_validate({"test_echo": 5}).by_operation()["test/echo"] == 5


async def test_out_of_the_table_it_is_refused_and_costs_nothing(
    make_client: Callable[..., DataClient],
) -> None:
    client = make_client()
    with pytest.raises(InvalidRequest) as caught:
        await client.call(ECHO, {"text": "hi"})
    assert (caught.value.code, caught.value.field) == ("unknown_operation", "operation")
    assert client.ledger.session_spent() == 0


async def test_it_is_batchable(client: DataClient, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("times\n2\n")
    with pytest.raises(BatchFileProblem, match="required column 'text' is missing"):
        BatchFile(bad, "test/echo")
    path = tmp_path / "echo.csv"
    path.write_text("text,times\nhi,2\nhi,2\nbye,\n,3\n")
    source = BatchFile(path, "test/echo")
    plan = plan_batch(client, "test/echo", source)
    assert (plan.rows, plan.invalid, plan.distinct, plan.price) == (4, 1, 2, 8)
    run = BatchRun(client, plan)
    await run.run()
    assert run.spent == 8
    columns = output_columns(source, "test/echo")
    assert columns.all[-4:] == ("text", "times", "echo", "length")
    out = io.StringIO()
    write_rows(out, "jsonl", columns.all,
               result_rows(source, client, plan, columns, not_run="not run",
                           dry_run=False))
    plan.index.close()
    lines = out.getvalue().splitlines()
    assert '"echo": "hi hi", "length": 5' in lines[0]
    assert '"cache": "same as line 2"' in lines[1]
    assert '"echo": "bye", "length": 3' in lines[2]
    assert '"status": "invalid"' in lines[3] and '"error": "text is required"' in lines[3]


async def test_check_service_checks_it(echo_app: FastAPI, tmp_path: Path) -> None:
    plan, report = await run_check(echo_app, tmp_path)
    assert "test/echo" in {step.operation for step in plan.paid}
    echo_rules = sorted((r.rule.name, r.rule.says, r.verdict.value) for r in report.results
                        if r.rule.operation == "test/echo")
    assert echo_rules == [
        ("catalog price", "the catalog lists GET /test/echo at 4 credits", "holds"),
        ("fields", "the answer has the fields and types of Echo", "holds"),
        ("limit", "text empty is refused, free", "holds"),
        ("limit", "times above 3 is refused, free", "holds"),
        ("limit", "times below 1 is refused, free", "holds"),
        ("no key", "refused without a key (401 or 403), free", "holds"),
        ("price", "the balance falls by exactly 4 credits", "holds"),
        ("wrong key", "a wrong key is refused with invalid_api_key, free", "holds"),
    ]
    assert report.all_hold and report.spent == plan.credits
