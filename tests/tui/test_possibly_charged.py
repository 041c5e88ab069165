"""Issue 35 in the explorer: a search whose answer is lost after the service charged
it is sent once, its error says "possibly charged 2 cr", the Retry button says its
price and that the earlier try may have been charged, and the next answer's balance
settles it as charged."""

from __future__ import annotations

from pathlib import Path

import httpx
from textual.widgets import Button

from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.error_panel import RETRY, ErrorPanel
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE, frozen_sandbox, sandbox_client_factory
from .screen_text import visible_text
from .test_restaurants_screens import search, spent

SEARCH = "restaurants/search"


class LosesAnswers(httpx.AsyncBaseTransport):
    """The sandbox; the next ``lose`` answers are charged, then lost (a read timeout)."""

    def __init__(self) -> None:
        self.inner = frozen_sandbox()
        self.lose = 0
        self.searches = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        await response.aread()
        if request.url.path.endswith("/search"):
            self.searches += 1
        if self.lose > 0:
            self.lose -= 1
            raise httpx.ReadTimeout("answer lost after the service charged", request=request)
        return response


async def test_a_lost_search_is_possibly_charged_and_its_retry_says_so(
    tmp_path: Path, settings: Settings,
) -> None:
    service = LosesAnswers()
    app = CreditscopeApp(settings, client_factory=sandbox_client_factory(tmp_path, service),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Madrid")  # the session's first balance
        service.lose = 1
        await search(pilot, "Lisbon")
        assert service.searches == 2  # the lost one was not sent again
        assert "possibly charged 2 cr" in visible_text(app)
        panel = app.screen.query_one(ErrorPanel)
        [retry] = [b for b in panel.query(Button) if b.name == RETRY]
        assert str(retry.label) == "Retry · 2 cr · earlier try possibly charged 2 cr"
        assert app.client is not None
        assert app.client.ledger.session_totals().possibly_charged == 2
        await pilot.click(retry)  # the user decides: one more search, at its price
        await settle(pilot)
        assert service.searches == 3
        assert app.client.ledger.session_totals().possibly_charged == 0
        assert spent(app, SEARCH) == 2 * service.searches  # the lost one, settled as charged
