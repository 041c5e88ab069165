"""Text fields: pasted control characters never reach the screen, Enter takes the completion
on show, the provider dialog keeps Send on screen, and the catalog shows whole descriptions."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Label, Static

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.provider_form import ProviderRequestForm
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput, clean_text
from pilot_support import settle

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


async def paste(pilot: Pilot[Any], selector: str, text: str) -> Input:
    """Empty the field, focus it and paste ``text`` into it, as the terminal would."""
    widget = pilot.app.screen.query_one(selector, Input)
    widget.value = ""
    widget.focus()
    await pilot.pause()
    widget.post_message(events.Paste(text))
    await pilot.pause()
    return widget


def searches(app: CreditscopeApp, operation: str) -> list[dict[str, Any]]:
    """The params of every call of ``operation`` this session."""
    assert app.client is not None
    return [rec.params for rec in app.client.ledger.session_records if rec.operation == operation]


# --- control characters ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("red\x1b[31m", "red[31m"),  # ESC goes; the rest stays visible, nothing is guessed
        ("Lis\x00bon\x07", "Lisbon"),
        ("tab\tbed", "tab bed"),
        ("c1\x85\x9bx", "c1x"),
        ("\u202egnp.exe\u2066\u2069", "gnp.exe"),
        ("Café 🍕👩‍🍳", "Café 🍕👩‍🍳"),  # emoji, with their zero-width joiner, are fine
        ("خمسة", "خمسة"),  # right-to-left letters are fine
    ],
)
def test_clean_text_removes_only_control_and_bidi_override_characters(
    typed: str, kept: str
) -> None:
    assert clean_text(typed) == kept


async def test_pasted_escape_is_removed_and_the_screenshot_stays_valid_xml(
    make_app: MakeApp, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(initial_mode="company")
    bells: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: bells.append(None))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        name = await paste(pilot, "#name", "red\x1b[31m")
        assert name.value == "red[31m"
        assert name.cursor_position == len("red[31m")
        assert len(bells) == 1  # the terminal bell says something was left out
        await pilot.press("x")  # typing carries on where the paste ended
        assert name.value == "red[31mx"
        assert len(bells) == 1
        svg = Path(app.save_screenshot(path=str(tmp_path)))
        ET.parse(svg)  # raises on a raw control character
        assert "red[31mx" in svg.read_text().replace("&#160;", " ")


async def test_values_set_from_code_are_cleaned_too(make_app: MakeApp) -> None:
    app = make_app(initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        base_url = app.screen.query_one("#base-url", Input)
        base_url.value = "https://api.example\x1b]0;pwned\x07"
        assert base_url.value == "https://api.example]0;pwned"


@pytest.mark.parametrize(
    "mode", ["events", "company", "restaurants", "catalog", "activity", "settings"]
)
async def test_every_text_field_is_a_text_input(make_app: MakeApp, mode: str) -> None:
    app = make_app(initial_mode=mode)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if mode == "catalog":
            await pilot.press("ctrl+n")
            await settle(pilot)
        fields = list(app.screen.query(Input))
        assert fields
        for field in fields:
            # Number boxes accept digits only, so they cannot hold control characters either.
            assert isinstance(field, TextInput) or field.type == "integer", field


# --- Enter takes the completion the user sees ------------------------------------------------
# On a partial name it only completes (the button then shows the price); the next Enter sends.


async def test_enter_in_restaurants_completes_then_searches_the_suggested_city(
    make_app: MakeApp,
) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        location = app.screen.query_one("#location", TextInput)
        await pilot.press("slash")  # the form is one key away; the area starts unfocused
        await pilot.press(*"lisb")
        await settle(pilot)
        assert location.visible_suggestion == "Lisbon, PT"
        await pilot.press("enter")
        await settle(pilot)
        assert location.value == "Lisbon, PT"
        assert searches(app, "restaurants/search") == []
        assert "Search · 2 cr" in str(app.screen.query_one("#search", PriceButton).label)
        await pilot.press("enter")
        await settle(pilot)
        assert [params["location"] for params in searches(app, "restaurants/search")] == [
            "Lisbon, PT"
        ]
        summary = str(app.screen.query_one("#results-summary", Static).render())
        assert "restaurants near" in summary and "Lisbon" in summary


async def test_enter_in_events_completes_then_searches_the_suggested_city(
    make_app: MakeApp,
) -> None:
    app = make_app(initial_mode="events")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"Lisb")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        location = app.screen.query_one("#events-location", TextInput)
        assert location.value == "Lisbon, PT"
        assert searches(app, "ticketing/discovery") == []
        await pilot.press("enter")
        await settle(pilot)
        [params] = searches(app, "ticketing/discovery")
        assert (params["lat"], params["lng"]) == pytest.approx((38.7251, -9.1498))


async def test_enter_before_the_suggestion_shows_still_takes_it(make_app: MakeApp) -> None:
    # The suggester answers in a worker; a fast Enter must not search the partial text.
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        location = app.screen.query_one("#location", TextInput)
        location.focus()
        location.value = "paris"
        await pilot.press("enter")
        await settle(pilot)
        assert location.value == "Paris, FR"
        assert [params["location"] for params in searches(app, "restaurants/search")] == [
            "Paris, FR"
        ]


async def test_enter_without_a_suggestion_submits_what_was_typed(make_app: MakeApp) -> None:
    app = make_app(initial_mode="restaurants")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"Lisbon, PT")  # nothing left to complete
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert [params["location"] for params in searches(app, "restaurants/search")] == [
            "Lisbon, PT"
        ]


# --- the provider dialog ---------------------------------------------------------------------


async def test_send_stays_clickable_when_the_provider_form_is_full_of_errors(
    make_app: MakeApp,
) -> None:
    # Offline, so sending shows the error panel inside the dialog, under the three fields.
    app = make_app(initial_mode="catalog", offline=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, ProviderRequestForm)
        await pilot.press(*"Acme", "enter")
        await settle(pilot)
        await paste(pilot, "#provider-name", " ")
        await paste(pilot, "#provider-url", "ftp://x")
        await paste(pilot, "#provider-email", "nope")
        await pilot.click("#provider-send")
        await settle(pilot)

        def error(field: str) -> str:
            return str(form.query_one(f"#provider-{field}-error", Label).render())

        assert error("name") and error("url") and error("email")
        dialog = form.query_one(".dialog").region
        send = form.query_one("#provider-send").region
        assert dialog.contains_region(send) and send.bottom <= SIZE[1] - 1  # above the footer
        # Send still works by mouse: fixing the fields and clicking it clears their errors.
        await paste(pilot, "#provider-name", "Acme")
        await paste(pilot, "#provider-url", "https://acme.example")
        await paste(pilot, "#provider-email", "ops@acme.example")
        await pilot.click("#provider-send")
        await settle(pilot)
        assert not (error("name") or error("url") or error("email"))


# --- the catalog ---------------------------------------------------------------------------


async def test_the_highlighted_endpoint_is_described_in_full(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: Any = app.screen
        table = screen.query_one("#catalog-table", DataTable)
        detail = screen.query_one("#catalog-detail", Static)
        # The longest description is wider than the table leaves for it.
        longest = max(screen.rows, key=lambda row: len(row[4]))
        table.move_cursor(row=screen.rows.index(longest))
        await pilot.pause()
        shown = " ".join(str(detail.render()).split())
        assert " ".join(longest[4].split()) in shown
        assert f"{longest[1]} {longest[2]}" in shown and longest[3] in shown
        assert detail.region.bottom <= SIZE[1] - 1  # on screen, above the footer
        await pilot.press("slash", *"zzzz")
        await pilot.pause()
        assert not detail.display  # nothing highlighted, nothing described
