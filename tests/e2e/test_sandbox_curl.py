"""Activity's "copy as curl" of a sandbox call works, as copied, against `creditscope serve`.

The explorer runs its sandbox in-process, at an address that resolves nowhere. The
copied command targets `creditscope serve`'s default address after comment lines
saying how to start it; here a served sandbox on a free port answers it with the
same page the explorer showed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from browser_harness import free_port, stop_process_group, wait_for_port

from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.curl import LocalService, curl_command
from creditscope.client.ledger import CreditLedger
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.tui.screens.activity import SERVE_ADDRESS, SERVE_COMMAND


async def test_the_copied_command_runs_against_creditscope_serve(tmp_path: Path) -> None:
    transport = httpx.ASGITransport(app=create_app(SandboxConfig(db_path=None)))
    async with DataClient(SANDBOX_BASE_URL, DEMO_KEY, transport=transport,
                          cache=ResponseCache(tmp_path / "cache"), ledger=CreditLedger(None),
                          is_sandbox=True) as client:
        body = {"name": "Northwind Labs Ltd", "website": "northwind-labs.co.uk"}
        await client.call("professional_network/find_company", body)
        record = client.ledger.session_records[-1]
    copied = curl_command(record, local=LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS,
                                                     SERVE_COMMAND))
    assert DEMO_KEY not in copied
    assert f"#   {SERVE_COMMAND}" in copied.splitlines()

    port = free_port()  # 8080 may be taken on this machine: same command, other port
    command = copied.replace(SERVE_ADDRESS, f"http://127.0.0.1:{port}")
    env = {**os.environ, "CREDITSCOPE_API_KEY": DEMO_KEY}
    server = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port),
         "--db", str(tmp_path / "sandbox.sqlite3")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        wait_for_port(port, server, timeout=30)
        ran = subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True,
                             timeout=30, check=False)
    finally:
        stop_process_group(server)
    assert ran.returncode == 0, ran.stderr
    served = json.loads(ran.stdout)
    shown = json.loads(record.raw_body or "{}")
    assert [m["company_url"] for m in served["matches"]] == [
        m["company_url"] for m in shown["matches"]
    ]
    assert served["matches"][0]["confidence"] == "high"


@pytest.fixture(autouse=True)
def _needs_curl() -> None:
    if subprocess.run(["which", "curl"], capture_output=True, check=False).returncode != 0:
        pytest.skip("curl is not installed")
