"""The Import dialog's paste box draws the text it holds, wrapped at the width it has
(a newcomer's trial: at 80 columns the catalog's "Try it" for a menu showed the id
``rst_lisbon_pt_011`` as ``…pt_01`` over ``011`` until something redrew the box)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from creditscope.tui.app import CreditscopeApp

from .areas import SIZES
from .screen_text import screen_rows

MakeApp = Callable[..., CreditscopeApp]


@pytest.mark.parametrize("size", ["80x24", "120x36"])
async def test_a_url_tried_from_the_catalog_is_drawn_as_held(
    make_app: MakeApp, size: str
) -> None:
    from textual.widgets import TextArea

    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZES[size]) as pilot:
        await app.wait_for_client()
        await pilot.pause(0.5)
        await pilot.press("down", "down", "down", "down", "enter")
        await pilot.pause(0.5)
        await pilot.press("t")  # as a person does: the dialog then sits still
        await pilot.pause(1.0)
        box = app.screen.query_one("#import-text", TextArea)
        held = box.text
        assert "restaurants/menu?id=" in held
        region = box.content_region
        drawn = "".join(row[region.x:region.right].strip()
                        for row in screen_rows(app)[region.y:region.bottom])
        assert drawn == held.replace("\n", "")


async def test_enter_after_a_paste_goes_to_the_priced_button_and_sends_nothing(
    make_app: MakeApp,
) -> None:
    # A newcomer's trial: Enter after pasting added a line break, and the dialog gave no
    # hint that Tab reaches its buttons.
    from textual.widgets import TextArea

    from creditscope.sandbox import SANDBOX_BASE_URL

    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        client = await app.wait_for_client()
        app.screen.set_focus(None)
        await pilot.press("i")
        await pilot.pause(0.3)
        box = app.screen.query_one("#import-text", TextArea)
        box.focus()
        await pilot.pause()
        pasted = f"curl '{SANDBOX_BASE_URL}/restaurants/menu?id=rst_lisbon_pt_011'"
        box.text = pasted
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert box.text == pasted  # no line break
        assert app.focused is not None and app.focused.id in ("import-open", "import-send")
        assert client.ledger.session_totals().spent == 0
