"""Reading the General section of a browser's DevTools, as a customer copies it.

Chrome and Edge list a request's ``Request URL``, ``Request Method``, ``Status
Code``, ``Remote Address`` and ``Referrer Policy`` under *General*, each label with
its value on the same line (``Request URL: https://…``, older versions; a tab in
some copies) or on the next one (newer versions). The request is the URL and the
method; the headers a customer may have copied below it are read only for a key or
a cookie (dropped, with a note); a JSON body pasted under it (from the Payload tab)
is the body.
"""

from __future__ import annotations

import re

from creditscope.support.curl_parse import CurlCommand, DataPart, ImportProblem

TOOL = "DevTools General section"
NO_BODY = ("The body is not in the General section (DevTools shows it on the Payload tab):"
           " paste it under these lines.")
_LABELS = ("Request URL", "Request Method", "Status Code", "Remote Address", "Referrer Policy")
_LABEL = re.compile(rf"^[ \t]*({'|'.join(_LABELS)})(?!\w)[ \t]*:?[ \t]*(.*?)[ \t]*$",
                    re.IGNORECASE)
_CREDENTIAL = re.compile(r"^[ \t]*(?:x-api-key|authorization|proxy-authorization)[ \t]*(?::|$)",
                         re.IGNORECASE | re.MULTILINE)
_COOKIE = re.compile(r"^[ \t]*cookie[ \t]*(?::|$)", re.IGNORECASE | re.MULTILINE)


def looks_like_devtools_general(text: str) -> bool:
    """True when ``text`` holds DevTools' ``Request URL`` line."""
    return re.search(r"^[ \t]*Request URL\b", text, re.IGNORECASE | re.MULTILINE) is not None


def parse_devtools_general(text: str) -> CurlCommand:
    """The request a pasted General section names, as a ``CurlCommand``."""
    fields = _fields(text.splitlines())
    url, method = fields.get("request url", ""), fields.get("request method", "GET").upper()
    if "://" not in url:
        raise ImportProblem("The General section has no Request URL value: copy the whole "
                            "section (Request URL and Request Method with their values).")
    body = _json_body(text)
    command = CurlCommand(url, method, data=[DataPart("data", body)] if body else [],
                          credentials_dropped=_CREDENTIAL.search(text) is not None,
                          cookies_dropped=_COOKIE.search(text) is not None, tool=TOOL)
    if method == "POST" and not body:
        command.notes.append(NO_BODY)
    return command


def _fields(lines: list[str]) -> dict[str, str]:
    """Each General label (lowercase) with its value, on its line or the next."""
    fields: dict[str, str] = {}
    waiting: str | None = None  # a label whose value is on the next line
    for line in lines:
        label = _LABEL.match(line)
        if label is not None:
            name, value = label[1].lower(), label[2]
            fields[name], waiting = value, (None if value else name)
        elif waiting is not None and line.strip():
            fields[waiting], waiting = line.strip(), None
    return fields


def _json_body(text: str) -> str:
    """A JSON object pasted under the section (the Payload tab's source), or ``""``."""
    found = re.search(r"^[ \t]*\{", text, re.MULTILINE)
    return text[found.start():].strip() if found else ""
