"""Issue 35 in the explorer's header: the credit meter (spent, saved, possibly charged,
balance left) counts the configured account alone (service and key). Another key's
calls written to the same ledger file, by another client or by this explorer before
the key was changed in Settings, are not this account's spend nor its balance."""

from __future__ import annotations

import httpx
from pydantic import SecretStr

from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.credit_meter import CreditMeter
from creditscope.wiring import explorer_client
from explorer_factory import explorer_factory, in_process
from pilot_support import settle

from .conftest import FROZEN_NOW, SIZE
from .test_restaurants_screens import search, text_of

SERVICE = "http://127.0.0.1:19701"  # answered in this process: nothing is dialled
KEY_A, KEY_B = "sk_live_account_a_0001", "sk_live_account_b_0002"
BALANCE_A, BALANCE_B = 10_000, 500
SEARCH = "restaurants/search"


def meter_text(app: CreditscopeApp) -> str:
    return text_of(app.screen.query_one(CreditMeter))


def two_account_setup(
    settings: Settings,
) -> tuple[Settings, Settings, httpx.AsyncBaseTransport]:
    """Settings for two keys on one service (so one ledger file), and that service."""
    service = in_process(create_app(SandboxConfig(
        keys={KEY_A: BALANCE_A, KEY_B: BALANCE_B}, frozen_time=FROZEN_NOW)))
    on_a = settings.model_copy(update={"base_url": SERVICE, "api_key": SecretStr(KEY_A)})
    return on_a, on_a.model_copy(update={"api_key": SecretStr(KEY_B)}), service


async def test_another_clients_key_is_not_in_the_meter(settings: Settings) -> None:
    on_a, on_b, service = two_account_setup(settings)
    other = explorer_client(on_b, service=service)  # e.g. `creditscope call` with key B
    await other.call(SEARCH, {"location": "Porto"})
    await other.aclose()
    app = CreditscopeApp(on_a, client_factory=explorer_factory(service),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Lisbon")
        meter = meter_text(app)
        assert "2 cr spent" in meter
        assert f"{BALANCE_A - 2:,} left".replace(",", " ") in meter


async def test_a_key_changed_in_settings_starts_its_own_meter(settings: Settings) -> None:
    on_a, on_b, service = two_account_setup(settings)
    app = CreditscopeApp(on_a, client_factory=explorer_factory(service),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=SIZE) as pilot:
        await search(pilot, "Lisbon")
        assert "2 cr spent" in meter_text(app)
        app.rebuild_client(on_b)  # what saving Settings with another key does
        await app.wait_for_client()
        await settle(pilot)
        meter = meter_text(app)
        assert "0 cr spent" in meter
        assert "left" not in meter  # key A's balance is not key B's
        await search(pilot, "Porto")
        meter = meter_text(app)
        assert "2 cr spent" in meter
        assert f"{BALANCE_B - 2} left" in meter
        app.rebuild_client(on_a)  # back to key A: its spend and balance again
        await app.wait_for_client()
        await settle(pilot)
        meter = meter_text(app)
        assert "2 cr spent" in meter
        assert f"{BALANCE_A - 2:,} left".replace(",", " ") in meter
