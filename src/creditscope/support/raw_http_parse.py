"""Reading a raw HTTP request, as logs, proxies and DevTools show one, into curl's parts.

Two forms:

- HTTP/1.1 (a server log, Burp, Fiddler, mitmproxy, Firefox's raw headers): a request
  line ``POST /path HTTP/1.1`` (or an absolute URL, as a proxy sees it), header
  lines, a blank line and the body. The ``Host`` header gives the host.
- HTTP/2 as Chrome's DevTools lists it: the pseudo-headers ``:method``, ``:path``,
  ``:authority`` and ``:scheme`` among the headers, no request line.

Lines may end in CRLF, as the protocol and most logs write them. The scheme is
``https`` unless ``:scheme`` says otherwise or the host is a loopback address
(``creditscope serve``'s). Credentials and cookies are dropped unread, as for curl.
"""

from __future__ import annotations

import re

from creditscope.support.curl_parse import CurlCommand, DataPart, ImportProblem, ReadHeaders

_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS"
_REQUEST_LINE = re.compile(rf"^(?P<method>{_METHODS}) (?P<target>\S+) HTTP/[123](?:\.[01])?$")
_PSEUDO_HEADER = re.compile(r"^:(?:method|path|authority|scheme):", re.MULTILINE)
_HEADER = re.compile(r"^(?P<name>:?[!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(?P<value>.*?)[ \t]*$")
_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
TOOL = "raw HTTP request"
# DevTools' header view leaves the body out (it is on the Payload tab); a log or a proxy
# writes it after the headers, unless it was not copied.
NO_BODY = "The body was not in the paste (DevTools shows it on the Payload tab): add it."
NO_LOGGED_BODY = "The body was not in the paste: add it under the headers, after a blank line."


def looks_like_raw_http(text: str) -> bool:
    """True for a request line (``GET /path HTTP/1.1``) or DevTools' HTTP/2 pseudo-headers."""
    first = text.lstrip().split("\n", 1)[0].rstrip()
    return _REQUEST_LINE.match(first) is not None or _PSEUDO_HEADER.search(text) is not None


def parse_raw_http(text: str, *, tool: str = TOOL, no_body: str | None = None) -> CurlCommand:
    """The request a pasted raw HTTP request is, as a ``CurlCommand`` from ``tool``;
    ``no_body``: the note for a POST without one (by default, the one for its form)."""
    head, body = _head_and_body(text.strip("\r\n").lstrip())
    lines = [line.rstrip() for line in head.split("\n")]  # a log's trailing spaces
    request_line = _REQUEST_LINE.match(lines[0])
    if request_line is not None:
        method, target = request_line["method"], request_line["target"]
        lines = lines[1:]
    else:
        method = target = ""
    headers = ReadHeaders()
    pseudo: dict[str, str] = {}
    for line in lines:
        header = _HEADER.match(line)
        if header is None:
            raise ImportProblem("A line of the request is not a header (Name: value). Paste "
                                "the request line, the headers, a blank line and the body.")
        name, value = header["name"], header["value"]
        if name.startswith(":"):
            pseudo[name.lower()] = value
        else:
            headers.read(name, value)
    method = (method or pseudo.get(":method", "")).upper()
    target = target or pseudo.get(":path", "")
    if not method or not target:
        raise ImportProblem("The request has no method or path: paste it from its request "
                            "line (GET /path HTTP/1.1), or all of DevTools' headers.")
    command = headers.command(_url(target, headers.kept, pseudo), method,
                              [DataPart("data", body)] if body else [], tool)
    if not body and method == "POST":
        command.notes.append(no_body or (NO_LOGGED_BODY if request_line else NO_BODY))
    return command


def _head_and_body(text: str) -> tuple[str, str]:
    """The header lines (CRLF read as LF) and the body after the first blank line, as is."""
    found = re.search(r"\r?\n[ \t]*\r?\n", text)
    head, body = (text[:found.start()], text[found.end():]) if found else (text, "")
    return head.replace("\r\n", "\n"), body


def _url(target: str, headers: list[tuple[str, str]], pseudo: dict[str, str]) -> str:
    if "://" in target:  # a proxy's request line names the whole URL
        return target
    host = pseudo.get(":authority") or next(
        (value for name, value in headers if name.lower() == "host"), "")
    if not host:
        raise ImportProblem("The request has no Host header: paste its headers too, or its "
                            "full URL.")
    scheme = pseudo.get(":scheme") or ("http" if host.startswith(_LOOPBACK) else "https")
    return f"{scheme}://{host}{target if target.startswith('/') else '/' + target}"
