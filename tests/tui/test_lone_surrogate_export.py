"""A company lookup whose answer holds a lone surrogate exports to a file: the explorer
crashed with a traceback on ``e`` (the name could not be encoded), after the lookup was
paid for."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from textual.widgets import Input

from creditscope.settings import Settings
from pilot_support import open_with_letter, settle
from security.test_lone_surrogates import lone_surrogate_answer

from .conftest import SIZE
from .test_company import look_up, open_company, spent
from .test_events_screen import stub_app


async def test_a_lookup_holding_a_lone_surrogate_exports_to_json_and_csv(
    tmp_path: Path, settings: Settings
) -> None:
    app = stub_app(tmp_path, settings, lambda request: lone_surrogate_answer(request)
                   if request.url.path.endswith("find_company") else httpx.Response(404))
    async with app.run_test(size=SIZE) as pilot:
        await open_company(pilot)
        await look_up(pilot, "Acme")
        assert spent(app) == 10
        for name in ("matches.json", "matches.csv"):
            await open_with_letter(pilot, "e")
            app.screen.query_one("#save-path", Input).value = str(tmp_path / name)
            await pilot.press("enter")
            await settle(pilot)
        assert app.is_running
        exported = json.loads((tmp_path / "matches.json").read_text(encoding="utf-8"))
        assert exported["query"] == "Acme \ufffd Corp"
        assert "Acme \ufffd Corp" in (tmp_path / "matches.csv").read_text(encoding="utf-8")
