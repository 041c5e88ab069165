"""The explorer's sandbox in a child process: the same answers as in-process, several at
once, a crash survived, no orphan, no key in its environment, and FastAPI never in the
explorer's own process."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.pipe_frames import MAX_HEADER, FrameError, encode_frame, read_frame
from creditscope.sandbox_process import SandboxProcessTransport, child_environment
from creditscope.settings import Settings
from creditscope.wiring import explorer_transport, sandbox_transport

pytestmark = pytest.mark.xdist_group("sandbox-process")


def client_over(transport: httpx.AsyncBaseTransport) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=transport, base_url=SANDBOX_BASE_URL,
                             headers={"X-API-Key": DEMO_KEY}, timeout=30)


@pytest.fixture
async def child(tmp_path: Path) -> AsyncIterator[SandboxProcessTransport]:
    transport = SandboxProcessTransport(tmp_path / "sandbox.sqlite3")
    yield transport
    await transport.aclose()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not status.exists() or "State:\tZ" not in status.read_text()


async def test_the_child_answers_as_the_in_process_sandbox(
    child: SandboxProcessTransport,
) -> None:
    async with client_over(child) as far, client_over(sandbox_transport(None)) as near:
        for path, params in (("/catalog", {}), ("/restaurants/search", {"location": "Lisbon"}),
                             ("/restaurants/search", {"location": "Narnia"})):
            remote, local = await far.get(path, params=params), await near.get(path, params=params)
            assert remote.status_code == local.status_code
            assert remote.json() == local.json()
            assert remote.headers.get("x-credits-charged") == local.headers.get("x-credits-charged")
        refused = await far.get("/restaurants/search", params={"location": "Lisbon"},
                                headers={"X-API-Key": "sk_not_a_key"})
        assert refused.status_code == 401


async def test_requests_in_flight_together_each_get_their_own_answer(
    child: SandboxProcessTransport,
) -> None:
    cities = ("Lisbon", "Paris", "Tokyo", "Oslo", "Lima", "Cairo", "Rome", "Berlin")
    async with client_over(child) as http:
        answers = await asyncio.gather(
            *(http.get("/restaurants/search", params={"location": city}) for city in cities))
    for city, answer in zip(cities, answers, strict=True):
        assert answer.status_code == 200
        assert city in answer.text  # each answer echoes its own place


async def test_a_killed_child_fails_its_request_and_the_next_one_starts_it_again(
    child: SandboxProcessTransport,
) -> None:
    async with client_over(child) as http:
        assert (await http.get("/catalog")).status_code == 200
        first = child.pid
        assert first is not None
        os.kill(first, 9)
        deadline = time.monotonic() + 10
        while alive(first) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # The request that meets the dead child may fail (ConnectError, saying so); the
        # one after it is answered by a fresh child.
        with contextlib.suppress(httpx.ConnectError):
            await http.get("/catalog")
        answer = await http.get("/catalog")
        assert answer.status_code == 200 and child.pid not in (None, first)


async def test_a_request_given_up_while_the_child_starts_leaves_the_start_to_the_next(
    child: SandboxProcessTransport,
) -> None:
    # A search replaced by the next one while the sandbox starts: it was cancelled, and with
    # it the start every request waits for: the next failed at once, and the child's "ready"
    # raised in the reading thread.
    failures: list[BaseException] = []
    previous_hook = threading.excepthook
    threading.excepthook = lambda failed: failures.append(failed.exc_value)  # type: ignore[assignment]
    try:
        async with client_over(child) as http:
            given_up = asyncio.create_task(http.get("/catalog"))
            await asyncio.sleep(0.01)  # sent, the child still starting
            given_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await given_up
            answer = await http.get("/restaurants/search", params={"location": "Lisbon"})
            assert answer.status_code == 200
        await asyncio.sleep(0.2)
    finally:
        threading.excepthook = previous_hook
    assert failures == []


async def test_closing_ends_the_child(tmp_path: Path) -> None:
    transport = SandboxProcessTransport(None)
    async with client_over(transport) as http:
        assert (await http.get("/catalog")).status_code == 200
    pid = transport.pid  # AsyncClient's exit closed the transport
    assert pid is None


def test_the_child_ends_when_the_explorer_goes_away() -> None:
    """However the explorer ends (a crash, a kill), its side of the pipe closes: the
    child reads the end of its stdin and exits, never an orphan."""
    child = subprocess.Popen([sys.executable, "-m", "creditscope.sandbox.pipe_server"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdin is not None
    ready = read_frame(child.stdout)
    assert ready is not None and ready[0].get("ready") is True
    child.stdin.close()
    assert child.wait(timeout=15) == 0


async def test_no_setting_of_the_explorer_reaches_the_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = "sk_live_never_in_the_sandbox_0123456789"
    monkeypatch.setenv("CREDITSCOPE_API_KEY", secret)
    assert "CREDITSCOPE_API_KEY" not in child_environment()
    transport = SandboxProcessTransport(None)
    try:
        async with client_over(transport) as http:
            await http.get("/catalog")
            pid = transport.pid
            assert pid is not None
            environ = Path(f"/proc/{pid}/environ")
            if environ.exists():
                assert secret.encode() not in environ.read_bytes()
            assert secret not in " ".join(Path(f"/proc/{pid}/cmdline").read_text().split("\0"))
    finally:
        await transport.aclose()


def test_the_explorer_talks_to_the_sandbox_through_a_child(tmp_path: Path) -> None:
    sandbox = Settings(cache_dir=tmp_path / "c", data_dir=tmp_path / "d",
                       config_file=tmp_path / "config.toml")
    live = sandbox.model_copy(update={"base_url": "https://api.example.com"})
    transport = explorer_transport(sandbox)
    try:
        assert isinstance(transport, SandboxProcessTransport)
    finally:
        if isinstance(transport, SandboxProcessTransport):
            asyncio.run(transport.aclose())
    assert explorer_transport(live) is None


def test_a_search_in_the_explorer_never_loads_fastapi_in_its_process(tmp_path: Path) -> None:
    """The memory the explorer keeps all day: the sandbox's FastAPI, routes and data
    live in the child. A real search through the real wiring, in a fresh process."""
    script = textwrap.dedent(f"""
        import asyncio, sys
        from pathlib import Path
        from textual.widgets import Input
        from creditscope.wiring import explorer_client
        from creditscope.settings import Settings
        from creditscope.tui.app import CreditscopeApp
        from creditscope.tui.screens.restaurants.results_table import RestaurantResults

        async def main():
            tmp = Path({str(tmp_path)!r})
            settings = Settings(cache_dir=tmp / "cache", data_dir=tmp / "data",
                                config_file=tmp / "config.toml")
            app = CreditscopeApp(settings, client_factory=explorer_client)
            async with app.run_test(size=(120, 36)) as pilot:
                await app.wait_for_client()
                await app.switch_mode("restaurants")
                await pilot.pause()
                box = app.screen.query_one("#location", Input)
                box.value = "Lisbon"
                box.focus()
                await pilot.press("enter")
                for _ in range(300):
                    await pilot.pause(0.05)
                    if app.screen.query_one(RestaurantResults).row_count:
                        break
                rows = app.screen.query_one(RestaurantResults).row_count
            print(rows, "fastapi" in sys.modules, any(m.startswith("creditscope.sandbox.app")
                                                      for m in sys.modules))
        asyncio.run(main())
    """)
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    rows, fastapi_loaded, sandbox_loaded = done.stdout.split()
    assert int(rows) > 0
    assert (fastapi_loaded, sandbox_loaded) == ("False", "False")


def test_frames_round_trip_and_refuse_what_is_not_a_frame() -> None:
    stream = io.BytesIO(encode_frame({"id": 7, "url": "/x"}, b"body") + encode_frame({"id": 8}))
    assert read_frame(stream) == ({"id": 7, "url": "/x"}, b"body")
    assert read_frame(stream) == ({"id": 8}, b"")
    assert read_frame(stream) is None  # the other end closed between frames
    with pytest.raises(FrameError):
        read_frame(io.BytesIO(encode_frame({"id": 1}, b"body")[:-2]))  # cut inside a frame
    with pytest.raises(FrameError):
        read_frame(io.BytesIO((MAX_HEADER + 1).to_bytes(4, "big") + (0).to_bytes(4, "big")))
    with pytest.raises(FrameError):
        read_frame(io.BytesIO(encode_frame({"id": 1})[:8]))  # lengths, then nothing
    with pytest.raises(FrameError):
        read_frame(io.BytesIO((3).to_bytes(4, "big") + (0).to_bytes(4, "big") + b"[1]"))
