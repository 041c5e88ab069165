"""JSON nested absurdly deep in the explorer: a service's answer shows the same clear
error panel as any answer the client cannot use (no traceback, the charge counted), and
a pasted request's body is explained in the Import request dialog."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from textual.widgets import Static

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.error_panel import ErrorPanel
from security.hostile_corpus import DEEP_JSON

from .conftest import SIZE
from .test_events_screen import search, stub_app
from .test_support_desk import calls, open_area, paste_into_import, static_text


def deep_feed(levels: int) -> str:
    return ('{"location": {"lat": 38.72, "lng": -9.14, "nearest_city": "Lisbon"},'
            ' "count": 0, "cursor": null, "events": [], "extra": '
            + "[" * levels + "]" * levels + "}")


@pytest.mark.parametrize("levels", [900, 200_000])
async def test_a_deep_answer_shows_a_clear_error_panel_and_counts_the_charge(
    tmp_path: Path, settings: Settings, levels: int
) -> None:
    app = stub_app(tmp_path, settings, lambda request: httpx.Response(
        200, text=deep_feed(levels), headers={"X-Credits-Charged": "3"}))
    async with app.run_test(size=SIZE) as pilot:
        screen = await search(pilot, "Lisbon")
        panel = screen.query_one(ErrorPanel)
        assert panel.display
        message = str(panel.query_one(".error-message", Static).render())
        assert "deeper than 64 levels" in message
        assert app.client is not None and app.client.ledger.session_spent() == 3


@pytest.mark.parametrize("body", DEEP_JSON[1:4], ids=lambda body: f"{len(body)}-chars")
async def test_a_pasted_request_with_a_deep_body_is_explained_in_the_dialog(
    make_app: Callable[..., CreditscopeApp], body: str
) -> None:
    from creditscope.sandbox import SANDBOX_BASE_URL

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_area(pilot, "company")
        await paste_into_import(pilot, f"curl -X POST {SANDBOX_BASE_URL}/professional_network"
                                       f"/find_company -d '{{\"name\": {body}}}'")
        assert "64 levels" in static_text(app, "#import-result")
        assert calls(app) == 0


async def test_a_huge_body_is_drawn_cut_with_its_full_length() -> None:
    import json

    from textual.app import App, ComposeResult

    from creditscope.tui.widgets.json_view import MAX_SHOWN_CHARS, JsonView

    rows = [{"id": f"r{i}", "name": f"Tasca {i}", "cuisine": "thai"} for i in range(20_000)]
    raw = json.dumps({"location": "Lisbon", "total": len(rows), "results": rows})

    class Viewer(App[None]):
        def compose(self) -> ComposeResult:
            yield JsonView()

    app = Viewer()
    async with app.run_test(size=SIZE) as pilot:
        view = app.query_one(JsonView)
        view.show(raw)
        await pilot.pause()
        assert len(view.document) < MAX_SHOWN_CHARS + 200
        assert "characters in all; copy or save the response" in view.document
        view.show(deep_feed(900))  # not drawable as JSON: shown as sent, no traceback
        await pilot.pause()
        assert view.document.endswith("]}")
