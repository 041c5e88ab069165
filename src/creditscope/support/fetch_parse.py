"""Reading a browser's "Copy as fetch" into the same parts as curl's.

Chrome, Edge and Firefox write ``fetch("url", { … });`` where the options are JSON
(``"headers"``, ``"body"``, ``"method"``, and more that do not matter here). That
exact form is read; hand-written JavaScript (single quotes, variables) is not JSON
and is refused by ``pasted_code`` with what to paste instead.
"""

from __future__ import annotations

import json
import re
from typing import Any

from creditscope import json_limits
from creditscope.support.curl_parse import CurlCommand, DataPart, ImportProblem, ReadHeaders

_FETCH = re.compile(r"^\s*(?:await\s+)?fetch\(\s*(?P<url>\"(?:[^\"\\]|\\.)*\")\s*"
                    r"(?:,\s*(?P<options>\{.*\}))?\s*\)\s*;?\s*$", re.DOTALL)


def parse_fetch(text: str) -> CurlCommand | None:
    """The request of a browser's ``fetch(…)`` export, or None when it is not one."""
    found = _FETCH.match(text)
    if found is None:
        return None
    try:
        url = json.loads(found.group("url"))
        options: Any = json_limits.loads(found.group("options") or "{}")
    except json_limits.JsonTooDeep as deep:
        raise ImportProblem(f"The fetch(…) options are not read: {deep}.") from None
    except json.JSONDecodeError:
        return None
    if not isinstance(url, str) or not isinstance(options, dict):
        return None
    headers = ReadHeaders()
    for name, value in (options.get("headers") or {}).items():
        headers.read(str(name), str(value))
    body = options.get("body")
    data = [DataPart("data", body)] if isinstance(body, str) else []
    method = str(options.get("method") or ("POST" if data else "GET")).upper()
    return headers.command(url, method, data, "fetch")
