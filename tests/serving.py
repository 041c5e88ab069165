"""Waiting for a ``creditscope serve`` subprocess to answer before a test uses it."""

from __future__ import annotations

import subprocess
import time

import httpx


def wait_until_serving(process: subprocess.Popen[str], base: str, timeout: float = 60) -> None:
    """Return once ``base`` answers HTTP; fail with the server's output if it exited or
    did not start within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, process.communicate()[0]
        assert time.monotonic() < deadline, f"creditscope serve did not start at {base}"
        try:
            httpx.get(f"{base}/openapi.json", timeout=1)
            return
        except httpx.TransportError:
            time.sleep(0.2)
