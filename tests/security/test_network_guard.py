"""The suite's network guard (tests/conftest.py, ``no_network``): a test reaching
beyond loopback fails; loopback and Unix sockets work as usual."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import httpx
import pytest


def test_a_connection_or_lookup_beyond_loopback_is_refused_and_recorded(
    network_attempts: list[str],
) -> None:
    with socket.socket() as sock, pytest.raises(OSError, match="must not reach the network"):
        sock.connect(("192.0.2.1", 80))  # TEST-NET-1: never routed
    with pytest.raises(OSError, match=r"name lookup of 'example\.com'"):
        socket.getaddrinfo("example.com", 443)
    with pytest.raises(httpx.ConnectError, match="must not reach the network"):
        httpx.get("https://example.com/", timeout=1)
    assert len(network_attempts) == 3
    network_attempts.clear()  # refused on purpose: this test must not fail for them


async def test_asyncio_connections_beyond_loopback_are_refused(
    network_attempts: list[str],
) -> None:
    with pytest.raises(OSError, match="must not reach the network"):
        await asyncio.open_connection("192.0.2.1", 80)
    assert network_attempts
    network_attempts.clear()


def test_loopback_and_unix_sockets_work(tmp_path: Path, network_attempts: list[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        for host in ("127.0.0.1", "localhost"):
            with socket.create_connection((host, port), timeout=5):
                pass
    if socket.has_ipv6:
        try:
            server6 = socket.create_server(("::1", 0), family=socket.AF_INET6)
        except OSError:
            pass  # no IPv6 loopback on this machine
        else:
            with server6, socket.create_connection(("::1", server6.getsockname()[1]), timeout=5):
                pass
    path = str(tmp_path / "s")
    with socket.socket(socket.AF_UNIX) as unix_server:
        unix_server.bind(path)
        unix_server.listen()
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(path)
    assert network_attempts == []
