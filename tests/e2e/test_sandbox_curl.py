"""Activity's "copy as curl", "copy as Python" and "copy as JavaScript" of a sandbox call
work, as copied, against `creditscope serve`.

The explorer runs its sandbox in-process, at an address that resolves nowhere. The
copied command or program targets `creditscope serve`'s default address after
comment lines saying how to start it; here one served sandbox on a free port
answers each of them with the same page the explorer showed.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from browser_harness import free_port, stop_process_group, wait_for_port

from creditscope.client.cache import ResponseCache
from creditscope.client.client import DataClient
from creditscope.client.code_snippets import javascript_snippet, python_snippet
from creditscope.client.curl import LocalService, curl_command
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CallRecord
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig
from creditscope.tui.screens.activity_copy import SERVE_ADDRESS, SERVE_COMMAND

LOCAL = LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS, SERVE_COMMAND)
ENV = {**os.environ, "CREDITSCOPE_API_KEY": DEMO_KEY}


@dataclass(frozen=True)
class Served:
    """A call the explorer made in-process, and `creditscope serve` running elsewhere."""

    record: CallRecord
    address: str  # the served sandbox's, on a free port (8080 may be taken here)


async def _explorer_call(tmp_path: Path) -> CallRecord:
    transport = httpx.ASGITransport(app=create_app(SandboxConfig(db_path=None)))
    async with DataClient(SANDBOX_BASE_URL, DEMO_KEY, transport=transport,
                          cache=ResponseCache(tmp_path / "cache"), ledger=CreditLedger(None),
                          is_sandbox=True) as client:
        body = {"name": "Northwind Labs Ltd", "website": "northwind-labs.co.uk"}
        await client.call("professional_network/find_company", body)
        return client.ledger.session_records[-1]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    tmp_path = tmp_path_factory.mktemp("served")
    record = asyncio.run(_explorer_call(tmp_path))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "serve", "--port", str(port),
         "--db", str(tmp_path / "sandbox.sqlite3")],
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        wait_for_port(port, server, timeout=30)
        yield Served(record, f"http://127.0.0.1:{port}")
    finally:
        stop_process_group(server)


def _run(served: Served, copied: str, command: list[str], program: Path) -> None:
    """Run the copied text (pointed at the served port) and compare its answer."""
    assert DEMO_KEY not in copied and "4242" not in copied  # the key comes from the env
    program.write_text(copied.replace(SERVE_ADDRESS, served.address), encoding="utf-8")
    ran = subprocess.run([*command, str(program)], env=ENV, capture_output=True, text=True,
                         timeout=30, check=False)
    assert ran.returncode == 0, ran.stderr
    answer = json.loads(ran.stdout)
    shown = json.loads(served.record.raw_body or "{}")
    assert [m["company_url"] for m in answer["matches"]] == [
        m["company_url"] for m in shown["matches"]
    ]
    assert answer["matches"][0]["confidence"] == "high"


def test_the_copied_curl_command_runs(served: Served, tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    copied = curl_command(served.record, local=LOCAL)
    assert f"#   {SERVE_COMMAND}" in copied.splitlines()
    _run(served, copied, ["bash"], tmp_path / "call.sh")


def test_the_copied_python_program_runs(served: Served, tmp_path: Path) -> None:
    copied = python_snippet(served.record, local=LOCAL)
    assert 'os.environ["CREDITSCOPE_API_KEY"]' in copied
    _run(served, copied, [sys.executable], tmp_path / "call.py")


def test_the_copied_javascript_program_runs(served: Served, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    copied = javascript_snippet(served.record, local=LOCAL)
    _run(served, copied, [node], tmp_path / "call.js")
