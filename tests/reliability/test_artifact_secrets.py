"""Secrets in the explorer's artefacts, and storage warnings shown to the user.

A Pilot session with a recognisable key (saved through ``save_settings``, as
Settings > Save does) looks up a company and searches restaurants, exports the
activity as curl, Python, JavaScript and JSON, and screenshots every area. Then every file under
the isolated XDG dirs and the temp dir, and the repo's committed screenshots
and snapshots, is searched for the key: it is only in the 0600 config file.
"""

from __future__ import annotations

import json
import stat
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest
from reliability_support import CANARY_KEY, LIVE_URL, InstantRetry
from textual.widgets import Input

from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME, ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.code_snippets import javascript_snippet, python_snippet
from creditscope.client.curl import curl_command
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import Settings, load_settings, save_settings
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.navigation import ordered_entries
from explorer_factory import explorer_factory, in_process
from pilot_support import settle
from textual_internals import shown_notifications

FROZEN_NOW = datetime(2025, 3, 14, 12, 30, 0, tzinfo=UTC)
REPO = Path(__file__).resolve().parents[2]


def files_holding(roots: list[Path], needle: bytes) -> tuple[list[Path], int]:
    """The files under ``roots`` that contain ``needle``, and how many files were read."""
    holders: list[Path] = []
    walked = 0
    for root in roots:
        for path in root.rglob("*"):
            if path.is_file() and not path.is_symlink():
                walked += 1
                if needle in path.read_bytes():
                    holders.append(path)
    return holders, walked


# It reads screenshots/, which the browser test rewrites: the same pytest-xdist worker.
@pytest.mark.xdist_group("screenshots")
async def test_the_key_is_only_in_the_0600_config_file(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    settings = Settings(base_url=LIVE_URL, api_key=CANARY_KEY)
    config_file = save_settings(settings)  # Settings > Save
    settings, _ = load_settings()  # from now on the key comes from the file
    assert settings.api_key is not None
    assert config_file.is_relative_to(isolated_dirs["config"])
    service = create_app(SandboxConfig(db_path=tmp_path / "service.sqlite3",
                                       keys={CANARY_KEY: 1_000}, frozen_time=FROZEN_NOW))

    def build(chosen: Settings) -> DataClient:
        assert chosen.api_key is not None
        return DataClient(LIVE_URL, chosen.api_key.get_secret_value(),
                          transport=httpx.ASGITransport(app=service),
                          cache=ResponseCache(chosen.cache_dir / "v1"),
                          ledger=CreditLedger(chosen.data_dir / "ledger.sqlite3"),
                          retry_policy=InstantRetry())

    exports = tmp_path / "exports"
    exports.mkdir()
    app = CreditscopeApp(settings, client_factory=build, clock=lambda: FROZEN_NOW,
                         initial_mode="company")
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        app.screen.query_one("#name", Input).value = "Acme"
        app.screen.query_one("#name", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        app.action_go("restaurants")
        await settle(pilot)
        app.screen.query_one("#location", Input).value = "Lisbon"
        app.screen.query_one("#location", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.client is not None
        records = list(app.client.ledger.session_records)
        assert app.credits.spent == 12 and len(records) == 2  # both calls worked, and paid
        (exports / "activity.sh").write_text("\n".join(curl_command(r) for r in records))
        (exports / "activity.py").write_text("\n".join(python_snippet(r) for r in records))
        (exports / "activity.js").write_text("\n".join(javascript_snippet(r) for r in records))
        (exports / "activity.json").write_text(json.dumps(
            [{k: v for k, v in vars(r).items()} for r in records], default=str))
        for entry in ordered_entries():
            app.action_go(entry.mode)
            await settle(pilot)
            app.save_screenshot(f"{entry.mode}.svg", path=str(exports))
    app.client.ledger.close()

    holders, walked = files_holding([tmp_path], CANARY_KEY.encode())
    assert walked >= 10  # config, cache, ledger, service db, exports, one SVG per area
    assert len(list(exports.glob("*.svg"))) == len(ordered_entries())
    assert holders == [config_file], holders
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    committed = [REPO / "screenshots", *REPO.glob("tests/**/__snapshots__")]
    holders, walked = files_holding(committed, CANARY_KEY.encode())
    assert walked > 0 and holders == []


async def test_a_damaged_cache_is_reported_once_the_client_is_ready(tmp_path: Path) -> None:
    settings = Settings(cache_dir=tmp_path / "cache", data_dir=tmp_path / "data",
                        config_file=tmp_path / "config" / "config.toml")
    cache_dir = settings.cache_dir / CACHE_FORMAT
    cache_dir.mkdir(parents=True)
    (cache_dir / DATABASE_NAME).write_bytes(b"this is not a database" * 100)

    # creditscope's own client: its cache is the damaged file in the settings' cache dir.
    app = CreditscopeApp(settings, client_factory=explorer_factory(
        lambda: in_process(create_app(SandboxConfig(db_path=None)))
    ),
                         clock=lambda: FROZEN_NOW)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        shown = [n for n in shown_notifications(app) if n.severity == "warning"]
        assert len(shown) == 1, shown
        assert "cache was damaged" in shown[0].message and shown[0].title == "Storage problem"
        assert list(cache_dir.parent.glob(f"{CACHE_FORMAT}.corrupt-*"))  # set aside, not deleted
