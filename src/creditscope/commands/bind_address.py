"""What a bind address means (loopback only, or every interface), and which ``Host``
header names a server answers to: one rule for ``creditscope web`` and ``serve``.

A server that answers to any ``Host`` can be reached by a page on another site
through DNS rebinding (``attacker.example`` resolving to 127.0.0.1): the browser
then treats the server as that site's own. Loopback names, the bound address and
the names the user adds are answered; any other is refused.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

# Host names a server answers to unless --allowed-host adds more.
LOOPBACK_HOST_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

_HOST_HEADER = re.compile(r"^(?:\[(?P<ipv6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9._-]+))(?::\d{1,5})?$")


def is_loopback(host: str) -> bool:
    """True if ``host`` is ``localhost`` or a loopback IP address (IPv4 or IPv6)."""
    name = host.strip().strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """True for a bind address meaning "every interface" (``0.0.0.0``, ``::``, empty)."""
    return host.strip("[]") in ("", "0.0.0.0", "::")


def host_name(authority: str) -> str | None:
    """``"[::1]:8000"`` -> ``"::1"``, ``"Localhost:8000"`` -> ``"localhost"``; None if malformed."""
    match = _HOST_HEADER.match(authority.strip().lower())
    if match is None:
        return None
    return match["ipv6"] or match["name"]


def allowed_host_names(bind_host: str, extra_hosts: Iterable[str] = ()) -> frozenset[str]:
    """Loopback names, the bind address itself (unless a wildcard), and ``extra_hosts``."""
    hosts = set(LOOPBACK_HOST_NAMES)
    named = [*extra_hosts] if is_wildcard(bind_host) else [bind_host, *extra_hosts]
    # "demo.local:8000" and "[fe80::1]" name the same host as "demo.local" and "fe80::1".
    hosts.update(host_name(host) or host.strip().strip("[]").lower()
                 for host in named if host.strip())
    return frozenset(hosts)
