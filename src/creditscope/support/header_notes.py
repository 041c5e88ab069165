"""What to say about the headers of a pasted request: one line each for what was ignored.

A browser's "Copy as cURL" carries a dozen headers the service never reads
(``sec-fetch-*``, ``sec-ch-ua*``, ``user-agent``, ``referer``, cookies…). Listing
them one per line pushed the price off the Import dialog, so the browser's are
summed up in one note and any other unknown headers in a second.
"""

from __future__ import annotations

from collections.abc import Iterable

# Sent by every client, or set by creditscope itself: not worth a word.
_SILENT = frozenset({
    "content-type", "accept", "idempotency-key", "content-length", "host", "accept-encoding",
    "connection", "expect",
})
# What browsers (and tools copying their requests) add on their own.
_BROWSER = frozenset({
    "user-agent", "accept-language", "referer", "origin", "dnt", "pragma", "cache-control",
    "priority", "upgrade-insecure-requests", "te", "x-requested-with", "if-none-match",
    "if-modified-since", "postman-token", "sec-gpc", "purpose", "x-client-data",
    # HTTP/2's pseudo-headers as Chrome's Copy as PowerShell writes them: without their ":"
    "authority", "method", "path", "scheme",
})
_BROWSER_PREFIXES = ("sec-fetch-", "sec-ch-", ":")
# At most this many kinds are named (one line of the Import dialog), those a support
# engineer recognises first.
_SHOWN_FAMILIES = 4
_TELLING = ("sec-fetch-*", "sec-ch-*", "user-agent", "referer", "origin")


def _is_browser(name: str) -> bool:
    return name in _BROWSER or name.startswith(_BROWSER_PREFIXES)


def header_notes(names: Iterable[str], *, cookies: bool) -> list[str]:
    """At most two lines: the browser's headers (and cookies) ignored, and any others."""
    browser: list[str] = []
    other: list[str] = []
    for name in names:
        lowered = name.lower()
        if lowered in _SILENT:
            continue
        (browser if _is_browser(lowered) else other).append(name)
    notes: list[str] = []
    if browser or cookies:
        families = (["cookies"] if cookies else []) + _families(browser)
        more = "…" if len(families) > _SHOWN_FAMILIES else ""
        shown = ", ".join(families[:_SHOWN_FAMILIES]) + more
        count = len(browser) + (1 if cookies else 0)
        notes.append(f"{count} browser header{'s' if count != 1 else ''} ignored ({shown}).")
    if other:
        notes.append(f"Header{'s' if len(other) > 1 else ''} {', '.join(_unique(other))} "
                     "ignored: the service does not read "
                     + ("them." if len(other) > 1 else "it."))
    return notes


def _families(names: list[str]) -> list[str]:
    """``sec-fetch-mode, sec-fetch-site`` -> ``sec-fetch-*``: a short list of what was there."""
    shown: list[str] = []
    for name in names:
        lowered = name.lower()
        family = next((prefix + "*" for prefix in _BROWSER_PREFIXES[:2]
                       if lowered.startswith(prefix)), lowered)
        if family not in shown:
            shown.append(family)
    return sorted(shown, key=lambda family: (
        _TELLING.index(family) if family in _TELLING else len(_TELLING)))


def _unique(names: list[str]) -> list[str]:
    return list(dict.fromkeys(names))
