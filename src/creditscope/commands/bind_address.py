"""What a bind address means: loopback only, or every interface."""

from __future__ import annotations

import ipaddress


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
