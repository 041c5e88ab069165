"""`creditscope serve` as a real process on a loopback port."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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


def _serve_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if not name.startswith("CREDITSCOPE_")}
    return env | {"CREDITSCOPE_DATA_DIR": str(tmp_path / "data"),
                  "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "absent.toml"), **extra}


@pytest.mark.slow
def test_a_busy_port_prints_no_address_and_says_which_port_to_choose(tmp_path: Path) -> None:
    """The banner used to print the URL as if served, then uvicorn failed (exit 3)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        done = subprocess.run(
            [sys.executable, "-m", "creditscope", "serve", "--port", str(port)],
            env=_serve_env(tmp_path), capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 1
    assert "http://" not in done.stdout and "creditscope sandbox at" not in done.stdout
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr
    assert "--port 0 for any free one" in done.stderr


@pytest.mark.slow
def test_the_printed_sample_curl_runs_as_printed(tmp_path: Path) -> None:
    """Served with the operator's own key (never printed), the sample reads it from
    $CREDITSCOPE_API_KEY, expanded by the shell it is pasted into."""
    curl = shutil.which("curl")
    if curl is None or shutil.which("bash") is None:
        pytest.skip("curl and bash are needed to run the printed command")
    key = "sk_test_printed_sample_7311"
    port = _free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        process = subprocess.Popen(
            [sys.executable, "-m", "creditscope", "serve", "--port", str(port)],
            env=_serve_env(tmp_path, CREDITSCOPE_SERVE_KEYS=key), stdout=output,
            stderr=subprocess.STDOUT, text=True)
    try:
        _wait_until_up(f"http://127.0.0.1:{port}", process)
        banner = log.read_text()  # printed (and flushed) before the server listened
        [sample] = [line.strip() for line in banner.splitlines() if "X-API-Key" in line]
        ran = subprocess.run(["bash", "-c", sample], capture_output=True, text=True,
                             timeout=30, check=False,
                             env={**os.environ, "CREDITSCOPE_API_KEY": key})
    finally:
        process.terminate()
        process.wait(timeout=15)
    assert key not in banner
    assert ran.returncode == 0, ran.stderr
    answer = json.loads(ran.stdout)
    assert answer["location"].startswith("Lisbon") and len(answer["results"]) == 3


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"])
async def test_the_printed_address_is_one_the_server_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, host: str
) -> None:
    """Bound to every interface, the banner names loopback: http://0.0.0.0:… is no Host
    the server answers. --port 0 prints the port the system chose."""
    from click.testing import CliRunner

    from creditscope.cli import main
    from creditscope.commands import serve_start

    served: list[Any] = []
    monkeypatch.setattr(serve_start, "serve_on",
                        lambda config, sock: served.append((config.app, sock.getsockname())))
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "0",
                                       "--db", str(tmp_path / "db")])
    assert result.exit_code == 0, result.output
    [(app, (_, port))] = served
    base = f"http://127.0.0.1:{port}"
    assert f"creditscope sandbox at {base}" in result.output
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=base) as http:
        assert (await http.get("/catalog")).status_code == 200
