"""Reading what ``curl -v`` prints, pasted with its command or on its own.

``curl -v`` (and ``--trace-ascii``) writes the request it sends on lines starting
``> `` (request line, headers, a bare ``>`` ending them), the answer on lines
starting ``< `` and its own remarks on lines starting ``* ``. A customer pastes
the whole console: the command, then that output. The command is the request (it
holds the body, which ``-v`` never prints), so when it is there it is read and the
output is not; when only the output was pasted, the ``> `` lines are read as the
raw HTTP request they are. A bash console's continuation prompt (``> -H …``) is
the command's, not the output's: only a ``> METHOD /path HTTP/…`` line starts it.
"""

from __future__ import annotations

import re

from creditscope.support.curl_parse import CurlCommand, ImportProblem, looks_like_curl, parse_curl
from creditscope.support.raw_http_parse import parse_raw_http

TOOL = "curl -v output"
OUTPUT_NOT_READ = "The curl -v output under the command was not read: the command is the request."
NO_BODY = "curl -v does not print the body it sent: paste the command itself to import it."
_METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS"
_REQUEST_LINE = re.compile(rf"^> (?:{_METHODS}) \S+ HTTP/[123](?:\.[01])?\s*$")
# Where the output starts: curl's remarks, the answer, or the request line it sent.
_OUTPUT_START = re.compile(rf"^(?:\* |< |> (?:{_METHODS}) \S+ HTTP/)")


def looks_like_verbose_output(text: str) -> bool:
    """True when ``text`` holds a request line as ``curl -v`` prints it (``> GET / HTTP/2``)."""
    return any(_REQUEST_LINE.match(line) for line in text.splitlines())


def parse_verbose_output(text: str) -> CurlCommand:
    """The request a pasted ``curl -v`` console shows: its command, else the ``> `` lines."""
    lines = text.splitlines()
    start = next(number for number, line in enumerate(lines) if _OUTPUT_START.match(line))
    command = "\n".join(lines[:start]).strip()
    if command and looks_like_curl(command):
        parsed = parse_curl(command)
        parsed.notes.append(OUTPUT_NOT_READ)
        return parsed
    requests = _sent_requests(lines[start:])
    parsed = parse_raw_http("\n".join(requests[0]), tool=TOOL, no_body=NO_BODY)
    if len(requests) > 1:
        parsed.notes.append(f"The output shows {len(requests)} requests (a redirect followed, "
                            "or several URLs); the first was read.")
    return parsed


def _sent_requests(lines: list[str]) -> list[list[str]]:
    """Each request curl printed: its ``> `` lines from the request line on, unprefixed."""
    requests: list[list[str]] = []
    current: list[str] | None = None
    for line in lines:
        if _REQUEST_LINE.match(line):
            current = []
            requests.append(current)
        if current is None:
            continue
        if line.startswith("> "):
            current.append(line[2:].rstrip())
        else:  # a bare ">" (the blank line ending the headers) or other output: done
            current = None
    if not requests:
        raise ImportProblem("The curl -v output has no request line (> GET /path HTTP/1.1).")
    return requests
