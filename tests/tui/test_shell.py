"""Pilot tests of the explorer shell: navigation, meter, activity, forms, settings, errors."""

from __future__ import annotations

import stat
from collections.abc import Callable
from typing import Any

from textual.widgets import Button, Input, Label, Static

from creditscope import operations
from creditscope.sandbox import DEMO_KEY, REVOKED_KEY
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.spend_guard import REPEAT_WINDOW
from creditscope.tui.widgets.credit_meter import CreditMeter
from creditscope.tui.widgets.error_panel import ErrorPanel
from pilot_support import settle
from textual_internals import shown_notifications

from .conftest import SIZE

MakeApp = Callable[..., CreditscopeApp]


def text_of(widget: Any) -> str:
    """The plain text a Static/Label shows."""
    return str(widget.render())


async def test_number_keys_and_clicks_switch_areas(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.current_mode == "catalog"
        await pilot.press("5")
        await settle(pilot)
        assert app.current_mode == "activity"
        assert app.screen.query_one("#nav-activity").has_class("-current")
        await pilot.click("#nav-settings")
        await settle(pilot)
        assert app.current_mode == "settings"
        await pilot.click("#nav-catalog")
        await settle(pilot)
        assert app.current_mode == "catalog"


async def test_meter_counts_a_paid_call_but_not_a_cache_hit(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        meter = app.screen.query_one(CreditMeter)
        assert "0 cr spent" in text_of(meter)
        client = await app.wait_for_client()
        await client.call("restaurants/search", {"location": "Paris"})
        await settle(pilot)
        assert "2 cr spent" in text_of(meter)
        assert "0 cr saved" in text_of(meter)
        assert "left" in text_of(meter)  # the sandbox reports the balance
        await client.call("restaurants/search", {"location": "Paris"})  # cached: free
        await settle(pilot)
        assert "2 cr spent" in text_of(meter)
        assert "2 cr saved" in text_of(meter)


async def test_activity_inspector_masks_the_key(make_app: MakeApp) -> None:
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        client = await app.wait_for_client()
        await client.call("restaurants/search", {"location": "Paris", "cuisine": "thai"})
        await settle(pilot)
        request = text_of(app.screen.query_one("#request-detail", Static))
        assert "/restaurants/search" in request
        assert "cuisine = thai" in request
        assert "sk_…4242" in request
        assert DEMO_KEY not in request
        response = text_of(app.screen.query_one("#response-detail", Static))
        assert response.startswith("200 · 2 cr · cache miss")


async def test_copy_as_curl_reads_the_key_from_the_environment(
    make_app: MakeApp, copied: list[str]
) -> None:
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        client = await app.wait_for_client()
        await client.call("restaurants/search", {"location": "Paris"})
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        assert len(copied) == 1
        comment, command = copied[0].rsplit("\n", 1)
        # The in-process sandbox has no address: the command targets `creditscope serve`,
        # after the lines saying how to start it.
        assert "creditscope serve --port 8080" in comment
        assert all(line.startswith("#") for line in comment.splitlines())
        assert command.startswith("curl -sS -X GET 'http://127.0.0.1:8080/restaurants/search?")
        assert "location=Paris" in command
        assert '"X-API-Key: $CREDITSCOPE_API_KEY"' in command
        assert DEMO_KEY not in copied[0]
        # Beside it, `p` and `j` copy the same call as a Python and a JavaScript program.
        await pilot.press("p", "j")
        await settle(pilot)
        said = [shown.message for shown in shown_notifications(app) if shown.title == "Copied"]
    python, javascript = copied[1:]
    assert "import httpx" in python and 'os.environ["CREDITSCOPE_API_KEY"]' in python
    assert '"http://127.0.0.1:8080/restaurants/search"' in python
    assert "await fetch(url" in javascript and "process.env.CREDITSCOPE_API_KEY" in javascript
    assert DEMO_KEY not in python + javascript
    assert said[-2].startswith("Python (httpx) program (")
    assert said[-1].startswith("JavaScript (fetch) program (")


async def test_provider_form_sends_and_shows_the_request_id(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        await pilot.press(*"Trailforks")
        await pilot.press("tab", *"https://trailforks.com", "tab", *"me@example.com", "enter")
        await settle(pilot)
        created = text_of(app.screen.query_one("#provider-created", Label))
        assert "Request sent" in created and "preq_" in created


async def test_a_sent_provider_form_is_not_sent_again_until_it_is_edited(
    make_app: MakeApp,
) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        form = app.screen
        await pilot.press(*"Trailforks", "enter")
        await settle(pilot)
        first = text_of(form.query_one("#provider-created", Label))
        send = form.query_one("#provider-send", Button)
        assert "Request sent" in first and send.disabled and "Sent" in str(send.label)
        await pilot.press("enter", "enter")  # the box still has the cursor: Enter again
        await settle(pilot)
        records = app.client.ledger.session_records  # type: ignore[union-attr]
        assert len([r for r in records if r.operation == "provider-requests"]) == 1
        assert text_of(form.query_one("#provider-created", Label)) == first  # the same id
        await pilot.press("s")  # an edit: a new request, offered at its price
        await settle(pilot)
        assert not send.disabled and str(send.label).startswith("Send request · ")
        await pilot.pause(REPEAT_WINDOW)  # a person's edit; quicker Enters are one press
        await pilot.press("enter")
        await settle(pilot)
        records = app.client.ledger.session_records  # type: ignore[union-attr]
        assert len([r for r in records if r.operation == "provider-requests"]) == 2


async def test_provider_form_errors_keep_what_was_typed(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        form = app.screen
        cases = [
            ("", "https://ok.example", "", "name", "name is required"),
            ("Strava", "ftp://nope", "", "url", "http:// or https://"),
            ("Strava", "", "not-an-email", "email", "name@example.com"),
        ]
        for name, url, email, bad, message in cases:
            for field, value in (("name", name), ("url", url), ("email", email)):
                form.query_one(f"#provider-{field}", Input).value = value
            await pilot.click("#provider-send")
            await settle(pilot)
            assert message in text_of(form.query_one(f"#provider-{bad}-error", Label))
            assert form.query_one(f"#provider-{bad}", Input).has_class("-invalid")
            kept = {
                f: form.query_one(f"#provider-{f}", Input).value for f in ("name", "url", "email")
            }
            assert kept == {"name": name, "url": url, "email": email}
            assert text_of(form.query_one("#provider-created", Label)) == ""
        records = app.client.ledger.session_records  # type: ignore[union-attr]
        assert not [r for r in records if r.operation == "provider-requests"]


async def test_settings_are_saved_to_a_private_file(make_app: MakeApp) -> None:
    app = make_app(initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#budget", Input).value = "500"
        app.screen.query_one("#api-key", Input).value = DEMO_KEY
        app.screen.query_one("#ttl-restaurants_search", Input).value = "120"
        await pilot.press("ctrl+s")
        await settle(pilot)
        path = app.settings.config_file
        assert path.exists()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        text = path.read_text()
        assert "budget = 500" in text
        assert "restaurants_search = 120" in text
        assert DEMO_KEY in text
        assert app.settings.budget == 500
        key_input = app.screen.query_one("#api-key", Input)
        assert key_input.value == "" and "sk_…4242" in key_input.placeholder


async def test_settings_refuse_a_bad_number_in_place(make_app: MakeApp) -> None:
    app = make_app(initial_mode="settings")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.screen.query_one("#budget", Input).value = "lots"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "whole number" in text_of(app.screen.query_one("#settings-message", Static))
        assert app.screen.query_one("#budget", Input).value == "lots"
        assert not app.settings.config_file.exists()


async def test_invalid_key_error_offers_settings(make_app: MakeApp) -> None:
    app = make_app(api_key=REVOKED_KEY, initial_mode="catalog")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        area = app.screen.query_one("#catalog-results", ResultArea)
        area.run(CallRequest(operations.RESTAURANT_SEARCH, {"location": "Paris"}))
        await settle(pilot)
        panel = area.query_one(ErrorPanel)
        assert panel.display
        assert "Invalid API key" in text_of(panel.query_one(".error-title", Label))
        assert "invalid_api_key" in text_of(panel.query_one(".error-code", Label))
        button = panel.query_one(Button)
        assert str(button.label) == "Open settings"
        await pilot.click(button)
        await settle(pilot)
        assert app.current_mode == "settings"


async def test_help_lists_screen_and_global_keys(make_app: MakeApp) -> None:
    app = make_app(initial_mode="activity")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        sections = {section.title: section.rows
                    for section in app.screen.sections}  # type: ignore[attr-defined]
        assert ("c", "Copy curl") in sections["In Activity"]
        assert ("4", "Catalog") in sections["Everywhere"]
        remap = next(rows for title, rows in sections.items() if title.startswith("To remap"))
        assert ("nav.catalog", "Catalog") in remap  # the name the config's [keys] takes


async def test_keys_are_remappable_by_binding_id(make_app: MakeApp) -> None:
    app = make_app(initial_mode="catalog", keys={"nav.activity": "f5"})
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert app.current_mode == "activity"
