"""Opening a link: only an ``http`` or ``https`` URL with a host is ever opened.

A link comes from outside (an event's page, from the service). Handed on as it is, a
``javascript:`` URL runs in the page of ``creditscope web`` (textual-serve passes it
to ``window.open``), ``file:`` and ``data:`` open what they name, and a value that
begins with ``-`` reaches the host's browser command as an option
(``--renderer-cmd-prefix=…`` runs a program). :func:`link_refusal` says why a URL is
not opened; everything that opens a URL asks it first (the explorer's
``open_url``), and shows a refused one as text with that reason.

Pure and importing nothing of the package but :mod:`creditscope.outside_text`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from creditscope.outside_text import hidden

OPENABLE_SCHEMES = frozenset({"http", "https"})


def link_refusal(url: str) -> str | None:
    """Why ``url`` is not opened (a sentence), or None when it is a web link to open."""
    if not url:
        return "there is no link"
    if url.startswith("-"):
        return "it begins with '-', which a browser would read as an option"
    if any(char.isspace() or hidden(char) for char in url):
        return "it holds spaces or invisible characters"
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:  # a malformed host ("http://[") or port
        return "it is not a well-formed URL"
    if parts.scheme.lower() not in OPENABLE_SCHEMES:
        scheme = f"a {parts.scheme}: link" if parts.scheme else "not a full web address"
        return f"it is {scheme}; only http and https links are opened"
    if not host:
        return "it names no host"
    return None


def openable(url: str) -> bool:
    """True when ``url`` may be handed to a browser."""
    return link_refusal(url) is None
