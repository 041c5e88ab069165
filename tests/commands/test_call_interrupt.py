"""Ctrl+C during ``creditscope call``, in a real process against a loopback service that
takes the request and never answers: the first press says the answer is still awaited
(the request may be charged, so it is kept), the second stops at once with exit 130 and
says what the request may have cost. Before, the first press waited silently for the
30-second timeout and the second ended in click's bare "Aborted!" with exit 1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import pytest

MENU_PRICE = 5  # the spec's price of restaurants/menu


@pytest.fixture
def silent_service() -> Iterator[tuple[str, threading.Event]]:
    """A loopback HTTP service that reads each request and never answers it."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    received = threading.Event()
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            conn.settimeout(5)
            try:
                if conn.recv(65536):
                    received.set()
            except OSError:
                pass
            held.append(conn)  # open, silent: the client waits for an answer

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", received
    stop.set()
    thread.join(timeout=5)
    for conn in held:
        conn.close()
    server.close()


def _creditscope(base_url: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "CREDITSCOPE_BASE_URL": base_url,
           "CREDITSCOPE_API_KEY": "sk_test_interrupted_0001"}
    return subprocess.Popen([sys.executable, "-m", "creditscope", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_two_ctrl_c_stop_a_call_in_flight_and_say_it_may_be_charged(
    silent_service: tuple[str, threading.Event],
) -> None:
    base_url, received = silent_service
    process = _creditscope(base_url, "call", "restaurants/menu", "--id", "r_1")
    try:
        assert received.wait(30), "the request never reached the service"
        time.sleep(0.3)  # the request is on the wire: the client waits for its answer
        process.send_signal(signal.SIGINT)
        time.sleep(1.0)
        assert process.poll() is None, "the first Ctrl+C keeps waiting for a maybe-paid answer"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert "Waiting for the answer already on its way" in stderr
    assert "Ctrl+C again stops now" in stderr
    assert f"possibly charged {MENU_PRICE} cr" in stderr
    assert "Aborted!" not in stderr and "Traceback" not in stderr
    stdout, _ = _creditscope(base_url, "credits").communicate(timeout=60)
    assert f"Possibly charged {MENU_PRICE} cr" in stdout
