"""Suite-wide isolation: no test reads or writes the developer's own config,
cache or data, and none reaches the network."""

from __future__ import annotations

import ipaddress
import os
import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Pilot helpers (settle) and their fixtures, shared by every test directory; the guard that
# fails a test when the explorer turned an unexpected exception into a notice.
pytest_plugins = ["pilot_support", "error_guard"]

# Threads that are not daemons and still run when the session ends keep Python
# from exiting: the run would print its summary and then hang until CI kills it.
STRAGGLER_GRACE_SECONDS = 5.0
_stragglers: list[str] = []


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    dirs = {name: tmp_path / name for name in ("config", "cache", "data", "home")}
    for path in dirs.values():
        path.mkdir()
    monkeypatch.setenv("HOME", str(dirs["home"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(dirs["config"]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(dirs["cache"]))
    monkeypatch.setenv("XDG_DATA_HOME", str(dirs["data"]))
    for name in list(__import__("os").environ):
        if name.startswith("CREDITSCOPE_"):
            monkeypatch.delenv(name, raising=False)
    return dirs


# --- no network: loopback and Unix sockets only -------------------------------------------

LOOPBACK_NAMES = frozenset({"localhost", "localhost.", "ip6-localhost"})
_network_attempts: list[str] = []


class NetworkAccessBlocked(OSError):
    """A test tried to reach beyond this machine (see :func:`no_network`)."""


def _is_loopback_host(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if not isinstance(host, str):
        return False
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return (mapped or address).is_loopback


def _is_numeric(host: object) -> bool:
    try:
        ipaddress.ip_address(str(host).split("%", 1)[0])
    except ValueError:
        return False
    return True


def _blocked(what: str) -> NetworkAccessBlocked:
    _network_attempts.append(what)
    return NetworkAccessBlocked(
        f"tests must not reach the network: {what} (only loopback and Unix sockets; "
        "mark a test @pytest.mark.allow_network, saying why, if it truly must)")


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex
_real_getaddrinfo = socket.getaddrinfo


def _guarded_connect(self: socket.socket, address: Any) -> None:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_host(address[0]):
        raise _blocked(f"connect to {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback_host(address[0]):
        raise _blocked(f"connect to {address!r}")
    return _real_connect_ex(self, address)


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    # Numeric addresses (binding 0.0.0.0, say) never ask a resolver; connect checks them.
    if host is not None and not _is_loopback_host(host) and not _is_numeric(host):
        raise _blocked(f"name lookup of {host!r}")
    return _real_getaddrinfo(host, *args, **kwargs)


def _guard_network(on: bool) -> None:
    socket.socket.connect = _guarded_connect if on else _real_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = (  # type: ignore[method-assign]
        _guarded_connect_ex if on else _real_connect_ex)
    socket.getaddrinfo = _guarded_getaddrinfo if on else _real_getaddrinfo


@pytest.fixture(autouse=True)
def no_network(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail any test that opens a connection beyond loopback, or looks up another name.

    The attempt raises :class:`NetworkAccessBlocked` (an ``OSError``, so the code under
    test fails fast as it would offline), and the test fails afterwards even if that
    code caught the error. Subprocesses are not covered: they are given loopback
    addresses or run offline (tests/packaging passes ``--offline`` to uv).
    """
    if request.node.get_closest_marker("allow_network"):
        yield
        return
    del _network_attempts[:]
    _guard_network(True)
    try:
        yield
    finally:
        _guard_network(False)
    if _network_attempts:
        attempts = "; ".join(dict.fromkeys(_network_attempts))
        del _network_attempts[:]
        pytest.fail(f"this test tried to reach the network: {attempts}", pytrace=False)


@pytest.fixture
def network_attempts() -> list[str]:
    """The attempts :func:`no_network` has refused in this test (clear it to allow them)."""
    return _network_attempts


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail, naming them, when threads that would stop Python from exiting remain.

    Each process checks its own threads: under pytest-xdist every worker does, and hands
    its stragglers to the controller (``workeroutput``, read in :func:`pytest_testnodedown`),
    which fails the run and names them; a worker's own exit status is not what xdist reports.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    for thread in threading.enumerate():
        if thread is threading.main_thread() or thread.daemon:
            continue
        thread.join(STRAGGLER_GRACE_SECONDS)
        if thread.is_alive():
            _stragglers.append(f"{thread!r} in {worker}" if worker else repr(thread))
    output = getattr(session.config, "workeroutput", None)  # set on xdist workers only
    if output is not None:
        output["stragglers"] = list(_stragglers)
    if _stragglers:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """On the xdist controller: a worker is done; its stragglers are the run's."""
    _stragglers.extend(getattr(node, "workeroutput", {}).get("stragglers", ()))


def pytest_unconfigure(config: pytest.Config) -> None:
    """After the report, end the process rather than wait for those threads forever
    (a worker too: it has already handed its stragglers to the controller)."""
    if _stragglers:
        if getattr(config, "workeroutput", None) is not None:
            os._exit(int(pytest.ExitCode.TESTS_FAILED))  # the controller names them
        print("\nthreads left running after the tests (Python cannot exit):", file=sys.stderr)
        for name in _stragglers:
            print(f"  {name}", file=sys.stderr)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(int(pytest.ExitCode.TESTS_FAILED))
