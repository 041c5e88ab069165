"""Secrets: a full session with a recognisable key, then every file the app (and
this test) wrote is searched for it: found only in the 0600 config file."""

from __future__ import annotations

import asyncio
import logging
import stat
from pathlib import Path

import httpx
import pytest
from pydantic import SecretStr
from reliability_support import CANARY_KEY, LIVE_URL, InstantRetry, cli_with_transport, run_cli

from creditscope import operations
from creditscope.client import errors
from creditscope.client.curl import curl_command
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.settings import load_settings, save_settings
from creditscope.wiring import build_client


async def test_the_key_is_only_in_the_0600_config_file(
    tmp_path: Path, isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    log_file = tmp_path / "session.log"
    handler = logging.FileHandler(log_file)
    root = logging.getLogger()
    root.addHandler(handler)
    old_level = root.level
    root.setLevel(logging.DEBUG)  # httpx, the sandbox and the client log everything they would
    try:
        app = create_app(SandboxConfig(db_path=tmp_path / "service.sqlite3",
                                       keys={CANARY_KEY: 1_000}))
        transport = httpx.ASGITransport(app=app)
        monkeypatch.setenv("CREDITSCOPE_BASE_URL", LIVE_URL)
        settings, _ = load_settings()
        typed = settings.model_copy(update={"api_key": SecretStr(CANARY_KEY)})  # in Settings
        config_file = save_settings(typed)  # Settings > Save
        settings, _ = load_settings()  # from now on the key comes from the file
        assert settings.api_key is not None
        client = build_client(settings, transport=transport)
        client.retry_policy = InstantRetry()
        exports = tmp_path / "exports"
        exports.mkdir()
        async with client:
            first = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
            # The same search again: a cache hit.
            hit = await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
            assert hit.record.cache == "hit"
            await client.call(operations.FIND_COMPANY, {"name": "Acme", "website": "acme.example"})
            with pytest.raises(errors.NotFound) as missing:
                await client.call(operations.RESTAURANT_DETAILS, {"id": "no-such-restaurant"})
            client.set_api_key("sk_live_wrong_key_0000")
            with pytest.raises(errors.InvalidApiKey):
                await client.call(operations.RESTAURANT_MENU, {"id": "rst_lisbon_pt_011"})
            client.set_api_key(CANARY_KEY)
            plan = client.plan("restaurants/menu", {"id": "rst_lisbon_pt_011"})
            assert CANARY_KEY not in repr(plan) and CANARY_KEY not in repr(client)
            records = [first.record, hit.record, missing.value.record]
            commands = [curl_command(r) for r in records if r is not None]
            (exports / "curl.sh").write_text("\n".join(commands))
            (exports / "activity.txt").write_text(
                "\n".join(repr(r) for r in client.ledger.session_records)
            )
            (exports / "error.txt").write_text(f"{missing.value!r} {missing.value}")
        client.ledger.close()
        assert client.cache is not None
        client.cache.close()
        cli_with_transport(monkeypatch, transport)
        for args, code in ((["call", "restaurants/search", "--location", "Porto", "--dry-run"], 0),
                           (["call", "restaurants/search", "--location", "Porto"], 0),
                           (["call", "restaurants/details", "--id", "nope"], 3),
                           (["credits"], 0), (["cache", "stats"], 0)):
            # In a thread: the CLI runs its own event loop.
            result = await asyncio.to_thread(run_cli, args)
            assert result.exit_code == code, (args, result.stderr)
            assert CANARY_KEY not in result.stdout + result.stderr, args
            (exports / f"cli-{len(list(exports.iterdir()))}.txt").write_text(
                result.stdout + result.stderr)
    finally:
        root.removeHandler(handler)
        handler.close()
        root.setLevel(old_level)

    needle = CANARY_KEY.encode()
    holders = []
    walked = 0
    for path in tmp_path.rglob("*"):
        if path.is_file() and not path.is_symlink():
            walked += 1
            if needle in path.read_bytes():
                holders.append(path)
    assert walked >= 10  # cache, ledger, sandbox db, log, exports, config...
    assert holders == [config_file], holders
    assert stat.S_IMODE(config_file.stat().st_mode) == 0o600
    assert log_file.stat().st_size > 0  # the log really captured the session
