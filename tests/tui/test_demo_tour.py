"""The guided tour (`creditscope demo`, F2): real keys in the real explorer, captions with
live prices, free (sandbox only), pausable, steppable, looping, and handed over on any
other key. Played at a speed where a scene takes milliseconds."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Input, Static

from creditscope.cli import main
from creditscope.commands import web
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.accounts import key_digest
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.screens.company import CompanyScreen
from creditscope.tui.screens.events import EventsScreen
from creditscope.tui.screens.restaurants.search_screen import RestaurantsScreen
from creditscope.tui.tour.caption import TourCaption, TourState
from creditscope.tui.tour.driver import TourDriver, TourOptions
from creditscope.tui.tour.script import SCENES
from explorer_factory import explorer_factory, in_process
from pilot_support import settle

from .conftest import FROZEN_NOW

MakeApp = Callable[..., CreditscopeApp]
FAST = 500.0  # a 5 s dwell takes 10 ms
START_CREDITS = 10_000
LIVE_URL = "https://api.example.test"
LIVE_KEY = "sk_live_tour_must_not_print_1234"
LAST = len(SCENES) - 1


def metered_app(tmp_path: Path) -> tuple[CreditscopeApp, Any]:
    """An explorer on an in-memory sandbox whose balance the test can read."""
    sandbox = create_app(SandboxConfig(db_path=None, frozen_time=FROZEN_NOW,
                                       keys={DEMO_KEY: START_CREDITS}))

    build = explorer_factory(in_process(sandbox))  # creditscope's own client, this service
    settings = Settings(cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                        config_file=tmp_path / "config" / "config.toml")
    return CreditscopeApp(settings, client_factory=build, clock=lambda: FROZEN_NOW), sandbox


def balance_fall(sandbox: Any) -> int:
    return START_CREDITS - int(sandbox.state.store.balance(key_digest(DEMO_KEY)))


def spent(app: CreditscopeApp) -> int:
    assert app.client is not None
    return int(app.client.ledger.session_spent())


async def until(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


async def start(pilot: Pilot[Any], **options: Any) -> TourDriver:
    app: Any = pilot.app
    await app.wait_for_client()
    await settle(pilot)
    return app.start_tour(TourOptions(speed=FAST, **options))  # type: ignore[no-any-return]


async def held(pilot: Pilot[Any], tour: TourDriver) -> None:
    """Wait until a paused tour holds at the end of its scene, and the screen caught up."""
    await until(pilot, tour.holding.is_set)
    await settle(pilot)


async def paused_tour(pilot: Pilot[Any]) -> TourDriver:
    """The tour started paused, holding at the end of its first scene."""
    tour = await start(pilot, paused=True)
    await held(pilot, tour)
    return tour


def captions(app: CreditscopeApp) -> list[TourCaption]:
    return [caption for screen in app.screen_stack for caption in screen.query(TourCaption)]


def caption_text(app: CreditscopeApp) -> str:
    [caption] = app.screen.query(TourCaption)
    return "\n".join(str(part.render()) for part in caption.query(Static))


# --- it plays every area, for free ------------------------------------------------------


async def test_the_tour_drives_every_area_with_real_keys_and_counts_every_credit(
    tmp_path: Path,
) -> None:
    app, sandbox = metered_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        seen: set[str] = set()
        app.screen_change_signal.subscribe(app, lambda screen: seen.add(type(screen).__name__))
        tour = await start(pilot, loop=False)
        await until(pilot, tour.stopped.is_set)
        await settle(pilot)
        assert tour.started == list(range(len(SCENES)))
        # Beyond the areas: Try it (an endpoint), the provider form, Import request, Usage.
        assert {"EndpointScreen", "ProviderRequestForm", "ImportRequestScreen",
                "UsageScreen"} <= seen, seen
        assert tour.refusal is None
        records = app.client.ledger.session_records if app.client else []
        bought = {record.operation for record in records if record.credits_charged}
        assert bought == {"ticketing/discovery", "professional_network/find_company",
                          "restaurants/search", "restaurants/details", "restaurants/menu",
                          "restaurants/reviews"}
        assert spent(app) == balance_fall(sandbox) > 0
        # What was typed is in the boxes: keystrokes, not shortcuts.
        await app.switch_mode("company")
        assert app.screen.query_one("#name", Input).value == "Microsoft"
        assert app.screen.query_one("#website", Input).value == "microsoft.com"
        await app.switch_mode("events")
        assert app.screen.query_one("#events-location", Input).value == "Lisbon, PT"
        # Played once: the captions are gone and the explorer is the visitor's.
        assert app.tour is None and captions(app) == []


async def test_every_caption_fits_two_rows_at_80_columns_and_names_sandbox_credits(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tour = await paused_tour(pilot)
        [caption] = app.screen.query(TourCaption)
        words = caption.query_one(".tour-text", Static)
        for number, scene in enumerate(SCENES, 1):
            text = scene.caption(app)
            caption.show(TourState(scene.title, text, number, len(SCENES), paused=True))
            await settle(pilot)
            assert words.region.height <= 2, f"{scene.title}: {text}"
        said = " ".join(scene.caption(app) for scene in SCENES)
        assert "sandbox credits, not billed" in said and "it is free" not in said
        tour.stop()


async def test_at_80x24_the_feed_the_tour_walks_through_is_in_view(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tour = await paused_tour(pilot)
        await pilot.press("right")  # The feed
        await held(pilot, tour)
        feed = app.screen.query_one("#events-feed")
        assert feed.region.height - 1 >= 3, feed.region  # rows under the header
        tour.stop()
        await settle(pilot)
        assert app.screen.query_one("#events-hint").display  # the area's own again


async def test_it_loops_and_the_second_pass_is_free_from_the_cache(tmp_path: Path) -> None:
    app, sandbox = metered_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        tour = await start(pilot, loop=True)
        await until(pilot, lambda: tour.loops == 1)
        first_pass = spent(app)
        await until(pilot, lambda: tour.started.count(LAST) == 2)
        await settle(pilot)
        assert tour.running and tour.started[:len(SCENES) + 1] == [*range(len(SCENES)), 0]
        assert spent(app) == first_pass == balance_fall(sandbox)
        tour.stop()


# --- never outside the sandbox ----------------------------------------------------------


@pytest.mark.parametrize("overrides", [{"base_url": LIVE_URL}, {"api_key": LIVE_KEY}],
                         ids=["live service", "real key"])
async def test_the_tour_refuses_a_live_configuration_and_sends_nothing(
    make_app: MakeApp, overrides: dict[str, Any],
) -> None:
    app = make_app(**overrides)
    async with app.run_test(size=(120, 36)) as pilot:
        tour = await start(pilot)
        await until(pilot, tour.stopped.is_set)
        await settle(pilot)
        assert tour.refusal is not None and "sandbox" in tour.refusal
        assert tour.started == [] and captions(app) == [] and app.tour is None
        assert app.client is not None and app.client.ledger.session_records == []
        assert LIVE_KEY not in tour.refusal


@pytest.mark.parametrize("env", [{"CREDITSCOPE_BASE_URL": LIVE_URL},
                                 {"CREDITSCOPE_API_KEY": LIVE_KEY}],
                         ids=["live service", "real key"])
def test_the_demo_command_refuses_a_live_configuration_with_exit_2(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
) -> None:
    def never(self: CreditscopeApp) -> None:
        raise AssertionError("the explorer must not start")

    monkeypatch.setattr(CreditscopeApp, "run", never)
    result = CliRunner().invoke(main, ["demo", "--once"], env=env)
    assert result.exit_code == 2, result.output
    assert "only" in result.output and "sandbox" in result.output
    assert "Nothing was sent" in result.output and LIVE_KEY not in result.output


def test_the_demo_command_plays_the_tour_on_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    ran: list[CreditscopeApp] = []
    monkeypatch.setattr(CreditscopeApp, "run", lambda self: ran.append(self))
    result = CliRunner().invoke(main, ["demo", "--once", "--speed", "2"])
    assert result.exit_code == 0, result.output
    [app] = ran
    assert app._tour_at_start == TourOptions(loop=False, speed=2.0)
    assert "demo" in CliRunner().invoke(main, ["--help"]).output


def test_web_demo_runs_the_tour_in_each_tab_and_only_on_the_sandbox(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    servers: list[Any] = []
    monkeypatch.setattr(web.DemoServer, "serve", lambda self, debug=False: servers.append(self))
    result = CliRunner().invoke(main, ["web", "--demo"])
    assert result.exit_code == 0, result.output
    assert servers[0].command.endswith("-m creditscope demo")
    assert "the guided tour on the built-in sandbox" in result.output
    refused = CliRunner().invoke(main, ["web", "--demo"], env={"CREDITSCOPE_BASE_URL": LIVE_URL})
    assert refused.exit_code == 2 and "sandbox" in refused.output and len(servers) == 1


# --- the visitor's keys -------------------------------------------------------------


async def test_any_other_key_stops_it_and_leaves_the_explorer_usable(tmp_path: Path) -> None:
    app, sandbox = metered_app(tmp_path)
    async with app.run_test(size=(120, 36)) as pilot:
        tour = await start(pilot, loop=True)
        await until(pilot, lambda: 2 in tour.started and isinstance(app.screen, CompanyScreen))
        await pilot.press("x")
        assert tour.stopped.is_set() and app.tour is None
        await settle(pilot)
        assert captions(app) == []
        assert "x" not in app.screen.query_one("#name", Input).value  # the stopping key is used up
        started = list(tour.started)
        await pilot.pause(0.2)
        assert tour.started == started  # nothing more is typed
        # The visitor drives.
        await pilot.press("escape", "escape", "3", "slash", *"Tokyo", "enter")
        await settle(pilot)
        assert isinstance(app.screen, RestaurantsScreen)
        assert app.screen.place.startswith("Tokyo")
        assert spent(app) == balance_fall(sandbox)


async def test_space_pauses_and_resumes(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        tour = await start(pilot, loop=True)
        await until(pilot, lambda: 1 in tour.started)
        await pilot.press("space")
        assert tour.paused and tour.running
        await pilot.pause(0.1)
        started = list(tour.started)
        await pilot.pause(0.4)  # at this speed, two scenes would have played meanwhile
        assert tour.started == started
        assert "Paused" in caption_text(app) and "Space plays" in caption_text(app)
        await pilot.press("space")
        await until(pilot, lambda: len(tour.started) > len(started))
        assert not tour.paused and "Paused" not in caption_text(app)
        tour.stop()


async def test_arrows_step_between_scenes_and_a_paused_step_holds_at_its_end(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        tour = await paused_tour(pilot)
        assert tour.started == [0] and f"Paused 1/{len(SCENES)} · Events" in caption_text(app)
        for _ in range(2):
            await pilot.press("right")
            await held(pilot, tour)
        assert tour.started == [0, 1, 2] and isinstance(app.screen, CompanyScreen)
        assert f"3/{len(SCENES)} · Company lookup" in caption_text(app)
        await pilot.press("left")
        await held(pilot, tour)
        assert tour.started == [0, 1, 2, 1] and isinstance(app.screen, EventsScreen)
        # Far ahead: a scene brings about what it needs (a restaurant open) by itself.
        for _ in range(4):
            await pilot.press("right")
            await held(pilot, tour)
        assert tour.index == 5 and "The menu" in caption_text(app)
        assert app.screen.query_one("#menu-part").loaded  # type: ignore[attr-defined]
        tour.stop()


async def test_f2_starts_the_tour_from_the_explorer(make_app: MakeApp) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        await pilot.press("f2")
        tour = app.tour
        assert tour is not None
        await until(pilot, lambda: bool(captions(app)))
        tour.stop()


# --- the first screen offers the tour -----------------------------------------------------


def empty_text(app: CreditscopeApp) -> str:
    return str(app.screen.query_one("#events-results .call-empty", Static).render())


async def test_the_first_screen_offers_the_tour_and_a_priced_sample_search(
    make_app: MakeApp,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        offer = empty_text(app)
        assert "F2" in offer and "guided tour" in offer
        assert "Enter to search Lisbon (3 cr live; sandbox credits, not billed)" in offer
        box = app.screen.query_one("#events-location", Input)
        assert box.has_focus and box.value == ""
        await pilot.press("enter")
        await settle(pilot)
        assert box.value == "Lisbon"
        assert spent(app) == 3
        # Searched once, Enter in an emptied box is a mistake to explain again, free.
        box.value = ""
        box.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert spent(app) == 3 and "Type a place first" in str(
            app.screen.query_one("#events-hint", Static).render())


async def test_a_live_service_gets_no_offer_and_enter_in_the_empty_box_sends_nothing(
    make_app: MakeApp,
) -> None:
    app = make_app(base_url=LIVE_URL)
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        await settle(pilot)
        assert "F2" not in empty_text(app)
        await pilot.press("enter")
        await settle(pilot)
        assert app.client is not None and app.client.ledger.session_records == []


def test_the_first_frame_does_not_load_the_tour() -> None:
    import subprocess
    import sys

    probe = ("import sys; import creditscope.commands.tui, creditscope.tui.app, "
             "creditscope.tui.screens.events; "
             "print(any(m.startswith('creditscope.tui.tour') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == "False"


# --- what the captions look like ----------------------------------------------------------


def paused_at(scene: int) -> Callable[[Pilot[Any]], Any]:
    """A ``run_before``: the tour, paused, stepped to ``scene`` and holding at its end."""

    async def run_before(pilot: Pilot[Any]) -> None:
        tour = await paused_tour(pilot)
        for _ in range(scene):
            await pilot.press("right")
            await held(pilot, tour)
        await asyncio.sleep(0.05)
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
@pytest.mark.parametrize("scene", [0, 5], ids=["events", "menu"])
def test_caption_snapshots(snap_compare: Any, make_app: MakeApp, size: tuple[int, int],
                           scene: int) -> None:
    assert snap_compare(make_app(), terminal_size=size, run_before=paused_at(scene))


def test_first_visit_offer_snapshot(snap_compare: Any, make_app: MakeApp) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.wait_for_client()  # type: ignore[attr-defined]
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=(80, 24), run_before=run_before)
