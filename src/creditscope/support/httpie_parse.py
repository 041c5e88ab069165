"""Reading a pasted HTTPie command (``http`` / ``https``) into the same parts as curl's.

HTTPie's syntax is ``http [options] [METHOD] URL [ITEM …]`` where an item is a
header ``Name:value``, a query parameter ``name==value``, a JSON string field
``name=value`` or a raw JSON field ``name:=42``. Fields make a JSON body (``-f``:
a form) and the method POST. ``https`` and a bare host mean ``https://``; ``http``
means ``http://`` (the same service, see ``request_target``). Files (``@``) are
refused, as for curl; credentials (``-a``, key headers) are dropped unread.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urlencode

from creditscope import json_limits
from creditscope.support.curl_parse import (
    CurlCommand,
    DataPart,
    ImportProblem,
    ReadHeaders,
    command_text,
    split_command,
)

_PROGRAMS = ("http", "https")
_METHOD = re.compile(r"^[A-Z]+$")
# Longest first, so ":=" wins over ":" and "==" over "=" at the same place.
_SEPARATORS = (":=@", "=@", "==", ":=", "@", "=", ":")
_FLAGS = frozenset({
    "-v", "--verbose", "-h", "--headers", "-b", "--body", "-F", "--follow", "-j", "--json",
    "-f", "--form", "--check-status", "-I", "--ignore-stdin", "--offline", "-q", "--quiet",
    "-m", "--meta", "--all", "-S", "--stream", "--compress", "-x",
    "--debug", "--traceback", "-d", "--download", "-c", "--continue",
})
_WITH_VALUE = frozenset({
    "-p", "--print", "-P", "--history-print", "--pretty", "-s", "--style", "-o", "--output",
    "--session", "--session-read-only", "--verify", "--cert", "--cert-key", "--timeout",
    "--proxy", "--max-redirects", "--format-options", "--response-charset",
    "--response-mime", "--ssl", "--ciphers", "-A", "--auth-type", "--default-scheme",
})
_CREDENTIALS = frozenset({"-a", "--auth"})


def looks_like_httpie(text: str) -> bool:
    """True when the command's first word is ``http`` or ``https`` followed by more."""
    return re.match(r"https?[ \t]+\S", command_text(text)) is not None


def parse_httpie(text: str) -> CurlCommand:
    """The request a pasted HTTPie command would send, as a ``CurlCommand``."""
    words, notes = split_command(text, _PROGRAMS)
    scheme = "https" if command_text(text).startswith("https") else "http"
    positional: list[str] = []
    form = dropped = False
    index = 0
    while index < len(words):
        word = words[index]
        option = word.partition("=")[0] if word.startswith("--") else word
        if word.startswith("-"):
            if option in _CREDENTIALS:
                dropped = True
            if option in ("-f", "--form"):
                form = True
            if option in (*_WITH_VALUE, *_CREDENTIALS) and "=" not in word:
                index += 1  # the option's value
            elif option == "--multipart":
                raise ImportProblem("The command uses --multipart, which posts a multipart "
                                    "form; the service does not take one.")
            elif option not in (*_FLAGS, *_WITH_VALUE, *_CREDENTIALS):
                raise ImportProblem(f"The HTTPie option {option} is not understood here. "
                                    "Remove it, or paste the URL or the JSON body alone.")
        else:
            positional.append(word)
        index += 1
    if positional and _METHOD.match(positional[0]) and len(positional) > 1:
        method: str | None = positional.pop(0)
    else:
        method = None
    if not positional:
        raise ImportProblem("The command has no URL: paste the whole command, URL included.")
    url = _url(positional[0], scheme)
    command = _items(positional[1:], url, method, form)
    command.credentials_dropped = command.credentials_dropped or dropped
    command.notes = notes
    return command


def _url(word: str, scheme: str) -> str:
    if word.startswith(":"):  # HTTPie's localhost shorthand: ":3000/path" or ":/path"
        return f"{scheme}://localhost{word[1:] if word.startswith(':/') else word}"
    return word if "://" in word else f"{scheme}://{word}"


def _items(items: list[str], url: str, method: str | None, form: bool) -> CurlCommand:
    """Headers, query parameters and body fields, in HTTPie's meaning of each separator."""
    headers = ReadHeaders()
    query: list[tuple[str, str]] = []
    fields: dict[str, Any] = {}
    for item in items:
        name, separator, value = _split_item(item)
        if separator in ("@", "=@", ":=@"):
            raise ImportProblem(
                f"The command reads {name or 'a field'} from the file {value!r} ({separator}). "
                "A pasted command cannot read files here: paste the file's contents instead."
            )
        if separator == ":":
            headers.read(name, value)
        elif separator == "==":
            query.append((name, value))
        elif separator == ":=":
            fields[name] = _raw_json(name, value)
        else:
            fields[name] = value
    if query:
        url += ("&" if "?" in url else "?") + urlencode(query)
    data: list[DataPart] = []
    if fields:
        data = [DataPart("data", urlencode(fields)) if form
                else DataPart("json", json.dumps(fields, ensure_ascii=False))]
    return headers.command(url, method, data, "HTTPie")


def _split_item(item: str) -> tuple[str, str, str]:
    """``name``, the first separator (``\\`` escapes one) and the value."""
    at = 0
    name: list[str] = []
    while at < len(item):
        if item[at] == "\\" and at + 1 < len(item):
            name.append(item[at + 1])
            at += 2
            continue
        for separator in _SEPARATORS:
            if item.startswith(separator, at):
                return "".join(name), separator, item[at + len(separator):]
        name.append(item[at])
        at += 1
    # Not echoed: a word without a separator may be a key pasted after "X-API-Key: ".
    raise ImportProblem(
        "A word after the URL is not an HTTPie item: use Header:value, name==query, "
        "name=text or name:=json."
    )


def _raw_json(name: str, value: str) -> Any:
    try:
        return json_limits.loads(value)
    except json_limits.JsonTooDeep as deep:
        raise ImportProblem(f"{name}:= is not read: {deep}.") from None
    except json.JSONDecodeError:
        raise ImportProblem(f"{name}:= needs a JSON value (e.g. {name}:=5).") from None
