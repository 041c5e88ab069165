"""Recognising code pasted in place of a request, to say what to paste instead.

Customers paste the Python or JavaScript their script runs (PowerShell's
Invoke-WebRequest and a browser's "Copy as fetch" are read: ``powershell_parse``,
``fetch_parse``). Reading
code is guessing (variables, loops, f-strings), so it is refused, with the way
to get something importable: the URL, the JSON body, or the browser's or tool's
"Copy as cURL".
"""

from __future__ import annotations

import re

_WHAT_TO_PASTE = ("Paste the request's URL, its JSON body, or a curl command "
                  "(a browser's network tab: right-click the request > Copy > Copy as cURL).")
_KINDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^\s*(import\s+requests|from\s+requests\s+import)|\brequests\.(get|post|"
                r"request|Session)\s*\(|\bhttpx\.(get|post|Client|AsyncClient)\b", re.MULTILINE),
     "Python code (requests/httpx)"),
    (re.compile(r"^\s*(await\s+)?fetch\s*\(|\baxios\.(get|post)\s*\(", re.MULTILINE),
     "JavaScript code"),
)


def code_problem(text: str) -> str | None:
    """Why ``text`` cannot be imported when it is code, or None when it is not code."""
    for pattern, kind in _KINDS:
        if pattern.search(text):
            return f"This is {kind}, not a request creditscope can read. {_WHAT_TO_PASTE}"
    return None
