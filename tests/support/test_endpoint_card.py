"""The Catalog's endpoint card: parameters from the request models, examples the sandbox answers."""

from __future__ import annotations

import json

import pytest

from creditscope import models, operations
from creditscope.support.endpoint_card import EXAMPLE_PARAMS, operation_for_path, parameters_of
from creditscope.wiring import sandbox_example


def test_parameters_read_types_limits_defaults_and_pairs_from_the_model() -> None:
    shown = {p.name: (p.kind, p.required, p.rule) for p in parameters_of(models.EventFeedQuery)}
    assert shown["lat"] == ("number", False, "-90 to 90 · with lng")
    assert shown["limit"] == ("integer", False, "1 to 50 · default 20")
    search = {p.name: p for p in parameters_of(models.RestaurantSearchQuery)}
    assert search["location"].required and search["location"].rule == "1 to 1000 characters"
    assert search["cuisine"].kind.startswith("one of: italian, japanese")
    assert parameters_of(models.NoParameters) == []


def test_a_path_names_its_operation_and_an_unknown_one_none() -> None:
    found = operation_for_path("/restaurants/menu")
    assert found is not None and found.name == "restaurants/menu"
    assert operation_for_path("/weather/today") is None


@pytest.mark.parametrize("operation", [op.name for op in operations.OPERATIONS])
async def test_every_operation_has_an_example_the_sandbox_answers(operation: str) -> None:
    status, body = await sandbox_example(operation, EXAMPLE_PARAMS[operation])
    assert status in (200, 201), body
    answer = operations.get(operation).response_model.model_validate(json.loads(body))
    assert answer is not None
