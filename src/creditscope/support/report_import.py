"""Reading back the lookup report (``t`` on a company lookup) as the request it reports.

The report is our own export: a support engineer pastes it from a ticket to run
the same lookup again. Its "Asked" line holds exactly what was sent (the name
between curly quotes, then the website or "no website"); nothing else is read.
"""

from __future__ import annotations

import re
from typing import Any

_HEADING = re.compile(r"^\s*## Company lookup: ", re.MULTILINE)
_ASKED = re.compile(r"^\s*- \*\*Asked:\*\* name “(?P<name>.*)”, "
                    r"(?:website (?P<website>\S+)|no website)\s*$", re.MULTILINE)


def looks_like_report(text: str) -> bool:
    """True for a pasted lookup report (its heading, or its "Asked" line alone)."""
    return _HEADING.search(text) is not None or _ASKED.search(text) is not None


def report_request(text: str) -> dict[str, Any] | None:
    """The find-company body the report's "Asked" line holds, or None without that line."""
    asked = _ASKED.search(text)
    if asked is None:
        return None
    body: dict[str, Any] = {"name": asked.group("name")}
    if asked.group("website"):
        body["website"] = asked.group("website")
    return body
