"""The explorer's remedy table covers every client exception, with today's wording."""

from __future__ import annotations

import pytest

from client_fakes import exception_classes
from creditscope.client import errors
from creditscope.tui import remedies
from creditscope.tui.widgets.error_panel import describe, next_steps


@pytest.mark.parametrize("cls", exception_classes(), ids=lambda cls: cls.__name__)
def test_every_client_exception_has_an_explorer_remedy(
    cls: type[errors.CreditscopeError],
) -> None:
    assert cls in remedies.REMEDIES, f"add {cls.__name__} to tui/remedies.py"


def test_the_panel_reads_the_table() -> None:
    key = errors.InvalidApiKey("key revoked", status=401, code="invalid_api_key")
    title, code, message, step = describe(key)
    assert (title, message) == ("Invalid API key", "key revoked")
    assert code == "invalid_api_key · HTTP 401" and step.startswith("Open Settings")
    assert [s.label for s in next_steps(key)] == ["Open settings"]
    assert [s.action for s in next_steps(errors.OfflineMiss("x"))] == [remedies.GO_ONLINE]
    assert next_steps(errors.NotFound("x")) == []
    assert describe(errors.RateLimited("slow", retry_after=3))[3] == "Retry in 3 s."
    assert describe(ValueError("boom"))[0] == "Unexpected error"
