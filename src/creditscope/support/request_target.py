"""Which operation a pasted URL names on the service creditscope is connected to.

The host is what matters, not how it was reached: ``http://`` and ``https://``, a
default port (``:443``, ``:80``) written or not, and every spelling of this machine
(``localhost``, ``127.0.0.1``, ``::1``) are the same service. A request
for another host is refused on a live service (the configured key must never go
there). On the built-in sandbox nothing real can leak, so it is replayed there,
with a note naming the host the customer called: a support engineer on a fresh
install can try what a customer pasted.
"""

from __future__ import annotations

import functools
import ipaddress
from dataclasses import dataclass
from typing import Any
from urllib.parse import SplitResult, urlsplit

from creditscope import operations
from creditscope.settings_preview import is_sandbox
from creditscope.support.curl_parse import ImportProblem

# Where `creditscope serve` runs the sandbox: Activity's copy-as-curl of a sandbox call.
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
_DEFAULT_PORTS = (None, 80, 443)


class OtherService(ImportProblem):
    """The request is for another host than the configured (live) service. How to switch
    is the interface's business (a setting in the explorer, an environment variable in
    the CLI)."""

    def __init__(self, host: str, connected_to: str) -> None:
        super().__init__(f"The request is for {host}, but creditscope is connected to "
                         f"{connected_to}. Nothing was imported.")
        self.host = host


@dataclass(frozen=True)
class Target:
    """The operation a URL names, and what the user should know about how it was read."""

    operation: operations.Operation[Any]
    notes: tuple[str, ...] = ()


def absolute(url: str) -> str:
    """``url`` with a scheme: a bare host is ``https://``, as curl does for ours."""
    if url.startswith("/") or "://" in url:
        return url
    return "https://" + url


def target_of(url: str, base_url: str) -> Target:
    """The operation ``url`` names on the service at ``base_url``; ImportProblem otherwise."""
    try:
        parts = urlsplit(absolute(url))
        port = parts.port
    except ValueError:
        raise ImportProblem("The URL is malformed; paste it as the customer sent it.") from None
    base = urlsplit(base_url)
    notes: list[str] = []
    path = parts.path.rstrip("/") or "/"
    if parts.hostname and not _same_service(parts.hostname, port, base):
        if not _host_like(parts.hostname):
            # Not echoed: a word taken for the URL may be a key (-H X-API-Key: sk_…).
            raise ImportProblem("The command's URL has no host name where one should be. "
                                "Paste the whole command, URL included.")
        shown = host_and_port(parts.hostname, port)  # never echo user:password@
        if not is_sandbox(base_url):
            raise OtherService(shown, host_and_port(base.hostname or "", base.port))
        notes.append(_replay_note(shown, parts.hostname))
    elif parts.hostname:
        path = _inside_base_path(path, base.path.rstrip("/"))
        if parts.scheme.lower() != base.scheme.lower():
            notes.append(f"{parts.scheme}:// and {base.scheme}:// reach the same service; "
                         f"creditscope uses {base.scheme}://.")
    op = operations.BY_PATH.get(path)
    if op is None:
        known = ", ".join(o.path for o in operations.OPERATIONS)
        raise ImportProblem(f"{path} is not a path of this service. Known paths: {known}.")
    return Target(op, tuple(notes))


def same_service(url: str, base_url: str) -> bool:
    """True when ``url`` is on the service at ``base_url`` (the rule of ``target_of``)."""
    try:
        parts = urlsplit(absolute(url))
        return bool(parts.hostname) and _same_service(parts.hostname or "", parts.port,
                                                      urlsplit(base_url))
    except ValueError:
        return False


def _same_service(host: str, port: int | None, base: SplitResult) -> bool:
    """Same host, and the same port once a scheme's default port counts as no port."""
    return (_machine(host) == _machine(base.hostname or "")
            and _non_default(port) == _non_default(base.port))


def _non_default(port: int | None) -> int | None:
    return None if port in _DEFAULT_PORTS else port


@functools.lru_cache(maxsize=1024)  # a HAR names a few hosts thousands of times
def _machine(host: str) -> str:
    """The host as one name however it is spelled: case and a final dot aside, and every
    loopback spelling (``localhost``, ``127.0.0.1``, ``::1``) the one machine a local
    ``creditscope serve`` answers on."""
    name = host.lower().rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return "localhost"
    try:
        return "localhost" if ipaddress.ip_address(name).is_loopback else name
    except ValueError:
        return name


def host_and_port(host: str, port: int | None) -> str:
    """``api.example.com`` or ``127.0.0.1:8080``: a host as a user names it, a default
    port (``:443``, ``:80``) left out and an IPv6 address in brackets."""
    shown = f"[{host}]" if ":" in host else host
    return shown if _non_default(port) is None else f"{shown}:{port}"


def _host_like(host: str) -> bool:
    """A name with a dot, an IP address or localhost: not a stray word read as a URL."""
    return "." in host or ":" in host or host in _LOOPBACK


def _inside_base_path(path: str, prefix: str) -> str:
    if not prefix:
        return path
    if not path.startswith(prefix + "/"):
        raise ImportProblem(f"{path} is outside the service's base path {prefix}.")
    return path[len(prefix):]


def _replay_note(shown: str, host: str) -> str:
    if host in _LOOPBACK:
        return f"Replayed on the built-in sandbox; the command was for {shown}."
    return f"Replayed on the sandbox (demo data); the customer called {shown}."
