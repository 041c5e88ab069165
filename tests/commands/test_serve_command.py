"""`creditscope serve` as a real process on a loopback port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from creditscope.sandbox import DEFAULT_CREDITS, DEMO_KEY


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(base: str, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"serve exited early: {process.communicate()[0]}")
        try:
            httpx.get(f"{base}/catalog", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("serve did not start within 30 s")


@pytest.mark.slow
def test_serve_answers_over_http_and_prints_how_to_call_it(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "creditscope",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "served.sqlite3"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        _wait_until_up(base, process)
        with httpx.Client(base_url=base, timeout=10) as http:
            first = http.get(
                "/restaurants/search",
                params={"location": "Lisbon"},
                headers={"X-API-Key": DEMO_KEY},
            )
            second = http.get(
                "/ticketing/discovery", headers={"Authorization": f"Bearer {DEMO_KEY}"}
            )
            refused = http.get("/ticketing/discovery", headers={"X-API-Key": "nope"})
            document = http.get("/openapi.json")
        assert first.status_code == second.status_code == 200
        assert int(first.headers["X-Credits-Remaining"]) == DEFAULT_CREDITS - 2
        assert int(second.headers["X-Credits-Remaining"]) == DEFAULT_CREDITS - 5
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "invalid_api_key"
        assert "/restaurants/search" in document.json()["paths"]
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=15)
    assert base in output and DEMO_KEY in output and "curl" in output


@pytest.mark.slow
def test_serve_keeps_its_database_in_the_configured_data_dir(tmp_path: Path) -> None:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    data_dir = tmp_path / "chosen-data"
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("CREDITSCOPE_")}
    env |= {"XDG_DATA_HOME": str(tmp_path / "platform-data"), "HOME": str(tmp_path),
            "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "absent.toml"),
            "CREDITSCOPE_DATA_DIR": str(data_dir)}
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        _wait_until_up(base, process)
        paid = httpx.get(f"{base}/restaurants/search", params={"location": "Lisbon"},
                         headers={"X-API-Key": DEMO_KEY}, timeout=10)
        assert paid.status_code == 200
    finally:
        process.terminate()
        output, _ = process.communicate(timeout=15)
    database = data_dir / "sandbox.sqlite3"
    assert f"database:  {database}" in output
    assert database.stat().st_size > 0
    assert not (tmp_path / "platform-data").exists()  # nothing written to the platform's dir
