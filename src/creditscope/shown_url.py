"""A service URL as it may be shown, logged, exported or stored: its user info masked.

A base URL may carry a user name and password (``http://user:pass@host/``). The
client still sends to the URL as configured (httpx turns user info into basic auth),
but everywhere else (the header, Settings, Activity, errors, ``credits``, history, HAR
exports, cache keys, ``doctor``) the URL goes through :func:`shown_url`, which
replaces the user info with ``***``: the reader sees credentials are there, never which.

Pure standard library: the explorer's first frame uses it.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

MASK = "***"
# The user info of any URL-looking text, for what ``urlsplit`` refuses (a bad IPv6 host).
_USER_INFO = re.compile(r"//[^/?#]*@")


def shown_url(url: str) -> str:
    """``url`` with any user name and password replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _USER_INFO.sub(f"//{MASK}@", url, count=1)
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rpartition("@")[2]
    return parts._replace(netloc=f"{MASK}@{host}").geturl()
