"""A screen reads its answer typed by the operation it asked for, and a handler that
reads another operation's answer fails loudly instead of reading the wrong fields."""

from __future__ import annotations

import pytest

from creditscope import models, operations
from creditscope.client.records import CallRecord, Result
from creditscope.tui.calls import CallRequest, ResultArea


def succeeded(request: CallRequest[models.Catalog], data: models.Catalog) -> ResultArea.Succeeded:
    record = CallRecord(request.operation, "GET", "http://sandbox.test/catalog", {},
                        status=200, raw_body="{}")
    return ResultArea.Succeeded(ResultArea(), request, Result(data, record))


CATALOG = models.Catalog(providers=[], totalEndpoints=0)


def test_the_answer_is_the_operations_model_and_the_record_the_call() -> None:
    event = succeeded(CallRequest(operations.CATALOG), CATALOG)
    assert event.is_for(operations.CATALOG) and not event.is_for(operations.RESTAURANT_MENU)
    answer = event.answer(operations.CATALOG)
    assert answer.data is CATALOG and answer.data.totalEndpoints == 0
    assert event.record.status == 200 and event.record.operation == "catalog"


def test_reading_another_operations_answer_raises() -> None:
    event = succeeded(CallRequest(operations.CATALOG), CATALOG)
    with pytest.raises(TypeError, match=r"this answers catalog \(Catalog\), not restaurants/menu"):
        event.answer(operations.RESTAURANT_MENU)


def test_a_request_keeps_its_operation_and_submission_apart_from_a_refresh() -> None:
    request = CallRequest(operations.RESTAURANT_MENU, {"id": "r1"}, label="the menu")
    fresh = request.refreshed()
    assert (fresh.op, fresh.operation, fresh.refresh) == (
        operations.RESTAURANT_MENU, "restaurants/menu", True)
    assert fresh.submission != request.submission  # paid again: a new submission
