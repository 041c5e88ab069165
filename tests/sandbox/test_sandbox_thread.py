"""The explorer's sandbox on a thread of its own: the same answers as in-process, several
at once, its work off the caller's loop, a late answer a timeout, closing ends it, and
no configured key ever reaches it."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from creditscope import operations, sandbox_thread
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.asgi_call import Answer
from creditscope.sandbox_thread import SandboxThreadTransport
from creditscope.settings import Settings
from creditscope.wiring import explorer_client, explorer_transport, sandbox_app, sandbox_transport


def client_over(transport: httpx.AsyncBaseTransport) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=transport, base_url=SANDBOX_BASE_URL,
                             headers={"X-API-Key": DEMO_KEY}, timeout=30)


@pytest.fixture
async def sandbox(tmp_path: Path) -> AsyncIterator[SandboxThreadTransport]:
    transport = SandboxThreadTransport(partial(sandbox_app, tmp_path / "sandbox.sqlite3"))
    yield transport
    await transport.aclose()


async def test_the_thread_answers_as_the_in_process_sandbox(
    sandbox: SandboxThreadTransport,
) -> None:
    async with client_over(sandbox) as far, client_over(sandbox_transport(None)) as near:
        for path, params in (("/catalog", {}), ("/restaurants/search", {"location": "Lisbon"}),
                             ("/restaurants/search", {"location": "Narnia"}),
                             ("/restaurants/search", {"location": "São Paulo"})):
            remote, local = await far.get(path, params=params), await near.get(path, params=params)
            assert remote.status_code == local.status_code
            assert remote.json() == local.json()
            assert remote.headers.get("x-credits-charged") == local.headers.get("x-credits-charged")
        refused = await far.get("/restaurants/search", params={"location": "Lisbon"},
                                headers={"X-API-Key": "sk_not_a_key"})
        assert refused.status_code == 401


async def test_requests_in_flight_together_each_get_their_own_answer(
    sandbox: SandboxThreadTransport,
) -> None:
    cities = ("Lisbon", "Paris", "Tokyo", "Oslo", "Lima", "Cairo", "Rome", "Berlin")
    async with client_over(sandbox) as http:
        answers = await asyncio.gather(
            *(http.get("/restaurants/search", params={"location": city}) for city in cities))
    for city, answer in zip(cities, answers, strict=True):
        assert answer.status_code == 200
        assert city in answer.text  # each answer echoes its own place


async def test_the_sandbox_answers_on_its_own_thread_never_the_callers_loop(
    sandbox: SandboxThreadTransport, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its SQLite meter and generated answers run there: the explorer's loop stays free."""
    answered_on: list[threading.Thread] = []
    real_call = sandbox_thread.call_app

    async def recording(*args: Any) -> Answer:
        answered_on.append(threading.current_thread())
        return await real_call(*args)

    monkeypatch.setattr(sandbox_thread, "call_app", recording)
    async with client_over(sandbox) as http:
        assert (await http.get("/restaurants/search", params={"location": "Lisbon"})).is_success
    assert answered_on == [sandbox.thread]
    assert sandbox.thread is not threading.current_thread()


async def test_a_late_answer_is_a_read_timeout_and_the_next_request_is_answered(
    sandbox: SandboxThreadTransport, monkeypatch: pytest.MonkeyPatch,
) -> None:
    real_call = sandbox_thread.call_app

    async def stalled(*args: Any) -> Answer:
        await asyncio.sleep(30)
        return await real_call(*args)

    async with client_over(sandbox) as http:
        monkeypatch.setattr(sandbox_thread, "call_app", stalled)
        with pytest.raises(httpx.ReadTimeout):
            await http.get("/catalog", timeout=httpx.Timeout(30, read=0.2))
        monkeypatch.setattr(sandbox_thread, "call_app", real_call)
        assert (await http.get("/catalog")).status_code == 200


async def test_closing_ends_the_thread_and_a_later_request_says_so() -> None:
    transport = SandboxThreadTransport(partial(sandbox_app, None))
    async with client_over(transport) as http:
        assert (await http.get("/catalog")).status_code == 200
    transport.thread.join(timeout=10)  # AsyncClient's exit closed the transport
    assert not transport.thread.is_alive()
    async with client_over(transport) as http:
        with pytest.raises(httpx.ConnectError, match="sandbox stopped"):
            await http.get("/catalog")


async def test_a_configured_key_never_reaches_the_sandbox(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no base URL, a real key in the settings stays home: the sandbox is called
    with its own demo key only."""
    secret = "sk_live_never_in_the_sandbox_0123456789"
    seen: list[str] = []
    real_call = sandbox_thread.call_app

    async def recording(app: Any, method: str, url: str, headers: list[tuple[str, str]],
                        body: bytes) -> Answer:
        seen.append(f"{url} {headers} {body!r}")
        return await real_call(app, method, url, headers, body)

    monkeypatch.setattr(sandbox_thread, "call_app", recording)
    settings = Settings(cache_dir=tmp_path / "c", data_dir=tmp_path / "d",
                        config_file=tmp_path / "config.toml", api_key=secret)
    client = explorer_client(settings)
    try:
        await client.call(operations.RESTAURANT_SEARCH, {"location": "Lisbon"})
    finally:
        await client.aclose(close_files=True)
    assert seen and DEMO_KEY in seen[0]
    assert not any(secret in request for request in seen)


def test_the_explorer_reaches_the_sandbox_on_a_thread_and_a_live_service_directly(
    tmp_path: Path,
) -> None:
    sandbox = Settings(cache_dir=tmp_path / "c", data_dir=tmp_path / "d",
                       config_file=tmp_path / "config.toml")
    live = sandbox.model_copy(update={"base_url": "https://api.example.com"})
    transport = explorer_transport(sandbox)
    try:
        assert isinstance(transport, SandboxThreadTransport)
    finally:
        if isinstance(transport, SandboxThreadTransport):
            asyncio.run(transport.aclose())
    assert explorer_transport(live) is None


async def test_a_sandbox_that_cannot_start_fails_each_request_as_a_connection_error() -> None:
    def broken() -> Any:
        raise RuntimeError("no database here")

    transport = SandboxThreadTransport(broken)
    async with client_over(transport) as http:
        with pytest.raises(httpx.ConnectError, match="could not start: no database here"):
            await http.get("/catalog")


async def test_a_request_given_up_while_the_sandbox_starts_leaves_the_start_to_the_next(
    tmp_path: Path,
) -> None:
    # A search replaced by the next one while the sandbox app is still being built: waiting
    # for the app, it cancelled the app every request waits for; the build then raised in
    # the sandbox's thread, which ended, and every later request failed.
    failures: list[BaseException] = []
    previous_hook = threading.excepthook
    threading.excepthook = lambda failed: failures.append(failed.exc_value)  # type: ignore[assignment]
    building = threading.Event()

    def slow_app() -> Any:
        building.wait(5)  # FastAPI's import on a slow machine
        return sandbox_app(tmp_path / "sandbox.sqlite3")

    transport = SandboxThreadTransport(slow_app)
    try:
        async with client_over(transport) as http:
            given_up = asyncio.create_task(http.get("/catalog"))
            await asyncio.sleep(0.05)  # waiting for the app
            given_up.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await given_up
            building.set()
            answer = await http.get("/restaurants/search", params={"location": "Lisbon"})
            assert answer.status_code == 200
    finally:
        await transport.aclose()
        threading.excepthook = previous_hook
    assert failures == []
