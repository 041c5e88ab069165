"""A visitor of `creditscope web` driving real explorer tabs over the WebSocket,
as a script would: change the service and save, write a file on the server,
leave a huge tab behind, go online, run the server's clipboard tool. Loopback
only; each test is bounded in time.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import time
from pathlib import Path

import aiohttp
import pytest
from web_attacker import open_tab, web_server

pytestmark = pytest.mark.slow

CONFIG = '# the presenter\'s own settings\ntheme = "textual-dark"\n'
ESCAPE, CTRL_A, CTRL_K, CTRL_P, CTRL_S = "\x1b", "\x01", "\x0b", "\x10", "\x13"
SHIFT_TAB = "\x1b[Z"


def environment(tmp_path: Path) -> dict[str, str]:
    config = tmp_path / "config.toml"
    config.write_text(CONFIG, encoding="utf-8")
    os.chmod(config, 0o600)
    return {"CREDITSCOPE_CONFIG_FILE": str(config)}


async def test_a_tab_cannot_change_the_service_nor_write_files_on_the_server(
    tmp_path: Path,
) -> None:
    started = time.monotonic()
    env = environment(tmp_path)
    config = Path(env["CREDITSCOPE_CONFIG_FILE"])
    target = tmp_path / "written-by-visitor.json"
    with web_server(tmp_path, env=env) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            tab = await open_tab(session, server.base)
            await tab.wait_for("creditscope")

            # Settings: every field is disabled, and saving by key or palette is refused.
            await tab.keys(ESCAPE, "6")
            await tab.wait_for("read-only")
            await tab.keys("\t", "\t", "\t", *"http://attacker.example", pause=0.05)
            await tab.keys(CTRL_S)
            for command in ("Save settings", "Use the built-in sandbox", "Clear cache"):
                await tab.keys(ESCAPE, CTRL_P)
                await tab.keys(*command, pause=0.03)
                mark = tab.mark()
                await tab.keys("\r")
                await tab.wait_for("Not saved", since=mark)  # refused, and told so
            assert config.read_text(encoding="utf-8") == CONFIG
            assert oct(config.stat().st_mode & 0o777) == "0o600"

            # Activity's Save JSON, with a path of the visitor's choosing: a download.
            await tab.keys(ESCAPE, "4")
            await tab.wait_for("/restaurants/search")
            await tab.keys(ESCAPE, "5")
            await tab.wait_for("Search every session")
            await tab.keys(CTRL_S)  # Save response JSON (the key grammar: ^s saves)
            await tab.wait_for("your browser downloads it")
            await tab.keys(CTRL_A, CTRL_K)
            await tab.keys(*str(target), pause=0.02)
            await tab.keys("\r")
            _, key = await tab.wait_message("deliver_file_start")

            async with aiohttp.ClientSession() as stranger:  # no cookie: no download
                refused = await stranger.get(f"{server.base}/download/{key}")
                assert refused.status == 403
            download = await session.get(f"{server.base}/download/{key}")
            assert download.status == 200
            assert "written-by-visitor.json" in download.headers["Content-Disposition"]
            assert "/" not in download.headers["Content-Disposition"].split("filename=")[1]
            body = await download.json(content_type=None)
            assert "providers" in body or "endpoints" in str(body)
            await tab.close()
        # Printed once; requests are not logged with it.
        assert server.log().count(server.token) == 1

    assert not target.exists()
    assert list((tmp_path / "server-cwd").iterdir()) == [], "a file appeared in the server's cwd"
    home = Path(os.environ["HOME"])
    assert [p for p in home.rglob("*") if p.is_file()] == [], "a file appeared in $HOME"
    assert config.read_text(encoding="utf-8") == CONFIG
    assert time.monotonic() - started < 120


async def test_a_huge_tab_is_clamped_and_its_process_ends_when_the_socket_closes(
    tmp_path: Path,
) -> None:
    with web_server(tmp_path, env=environment(tmp_path)) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            tab = await open_tab(session, server.base, size="4000x1200")
            await tab.wait_for("creditscope")
            await tab.resize(4000, 1200)
            await asyncio.sleep(1)
            [explorer] = server.explorers()
            environ = Path(f"/proc/{explorer}/environ").read_bytes().split(b"\0")
            assert b"COLUMNS=250" in environ and b"ROWS=80" in environ
            assert b"CREDITSCOPE_WEB_DEMO=1" in environ
            await tab.close()
            await _until_gone(server, timeout=15)

            # A tab too stuck to hear "quit" (stopped) is ended too.
            tab = await open_tab(session, server.base)
            await tab.wait_for("creditscope")
            [stuck] = server.explorers()
            os.kill(stuck, signal.SIGSTOP)
            await tab.close()
            await _until_gone(server, timeout=15)
        assert server.process.poll() is None, "the server must keep running"


async def _until_gone(server: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while server.explorers():  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, "the tab's explorer outlived its socket"
        await asyncio.sleep(0.2)


async def test_a_tab_cannot_go_online_nor_run_the_servers_clipboard_tool(
    tmp_path: Path,
) -> None:
    """The presenter set offline mode and has a desktop with a clipboard tool: a visitor
    presses "Go online" on an offline miss, then copies a call as curl."""
    started = time.monotonic()
    ran = tmp_path / "clipboard-tool-ran"
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("wl-copy", "xclip", "xsel"):
        tool = tools / name
        tool.write_text(f"#!/bin/sh\ncat > {ran}\n", encoding="utf-8")
        tool.chmod(0o755)
    env = environment(tmp_path)
    Path(env["CREDITSCOPE_CONFIG_FILE"]).write_text(CONFIG + "offline = true\n")
    env.update(PATH=f"{tools}:{os.environ['PATH']}", DISPLAY=":0")
    with web_server(tmp_path, env=env) as server:
        async with aiohttp.ClientSession(cookies=server.cookie) as session:
            tab = await open_tab(session, server.base, size="160x40")
            await tab.wait_for("creditscope")
            await tab.keys(ESCAPE, "3")  # Restaurants, its location box focused
            await tab.wait_for("Location")
            await tab.keys(*"Porto", pause=0.05)
            await tab.keys("\r")
            await tab.wait_for("Not cached (offline)")
            mark = tab.mark()
            await tab.keys(SHIFT_TAB, "\r")  # the error's "Go online" button
            await tab.wait_for("cannot go online", since=mark, timeout=15)

            await tab.keys(ESCAPE, "5")  # Activity: the refused call, copied as curl
            await tab.wait_for("offline_miss")
            mark = tab.mark()
            await tab.keys("\t", "c")
            await tab.wait_for("to your browser", since=mark, timeout=15)
            await asyncio.sleep(1)  # a tool, had one been started, has run by now
            await tab.close()
    assert not ran.exists(), "a clipboard tool ran on the server"
    ledgers = list(Path(os.environ["XDG_DATA_HOME"]).rglob("*ledger*.sqlite3"))
    charged = [sqlite3.connect(ledger).execute(
        "SELECT COUNT(*) FROM calls WHERE credits_charged > 0").fetchone()[0]
        for ledger in ledgers]
    assert sum(charged) == 0, "the tab spent credits though the presenter set offline"
    assert time.monotonic() - started < 120
