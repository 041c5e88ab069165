"""A recorded call as a program to paste: Python (httpx) and JavaScript (fetch).

The siblings of ``curl.curl_command``, from the same parts (the URL, a call to the
in-process sandbox pointed at ``creditscope serve``, the headers worth repeating).
The key is never written: the program reads ``CREDITSCOPE_API_KEY`` from its
environment. Each prints the answer's body and fails (exit status 1) on an error
status, so it runs as-is in a terminal or a script.
"""

from __future__ import annotations

import json
import pprint
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from creditscope.client.curl import (
    KEY_ENV_VAR,
    LocalService,
    replayed_headers,
    sends_key,
    served_url,
)
from creditscope.client.records import CallRecord


def _split_query(url: str) -> tuple[str, list[tuple[str, str]]]:
    """``url`` without its query, and the query's pairs in order (as sent)."""
    parts = urlsplit(url)
    return (urlunsplit(parts._replace(query="")),
            parse_qsl(parts.query, keep_blank_values=True))


def _query_value(pairs: list[tuple[str, str]]) -> dict[str, str] | list[tuple[str, str]]:
    """A dict when every name is distinct (the readable form), else the pairs."""
    names = [name for name, _ in pairs]
    return dict(pairs) if len(set(names)) == len(names) else pairs


def _python_literal(value: Any, indent: int) -> str:
    """``value`` as Python source, continuation lines indented by ``indent`` spaces."""
    text = pprint.pformat(value, width=88 - indent, sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def python_snippet(record: CallRecord, *, local: LocalService | None = None) -> str:
    """A Python program (httpx) that repeats ``record`` and prints the answer."""
    url, preface = served_url(record, local, "#")
    base, query = _split_query(url)
    arguments = [json.dumps(record.method.upper()), json.dumps(base)]
    headers = {name: json.dumps(value) for name, value in replayed_headers(record).items()}
    if sends_key(record):
        headers["X-API-Key"] = f"os.environ[{json.dumps(KEY_ENV_VAR)}]"
    if headers:
        pairs = ", ".join(f"{json.dumps(name)}: {value}" for name, value in headers.items())
        arguments.append(f"headers={{{pairs}}}")
    if query:
        arguments.append(f"params={_python_literal(_query_value(query), 4)}")
    if record.method.upper() == "POST":
        arguments.append(f"json={_python_literal(record.params, 4)}")
    lines = [
        *(["import os", ""] if sends_key(record) else []),
        "import httpx",
        "",
        "response = httpx.request(",
        *(f"    {argument}," for argument in arguments),
        "    timeout=30,",
        ")",
        "print(response.text)",
        "response.raise_for_status()",
    ]
    return preface + "\n".join(lines) + "\n"


def javascript_snippet(record: CallRecord, *, local: LocalService | None = None) -> str:
    """A JavaScript program for Node 18+ (its built-in fetch) that repeats ``record``."""
    url, preface = served_url(record, local, "//")
    base, query = _split_query(url)
    headers = {name: json.dumps(value) for name, value in replayed_headers(record).items()}
    if sends_key(record):
        headers["X-API-Key"] = f"process.env.{KEY_ENV_VAR}"
    options = [f"method: {json.dumps(record.method.upper())}"]
    if record.method.upper() == "POST":
        if not any(name.lower() == "content-type" for name in headers):
            headers["Content-Type"] = json.dumps("application/json")
        options.append(f"body: JSON.stringify({json.dumps(record.params, ensure_ascii=False)})")
    if headers:
        pairs = ", ".join(f"{json.dumps(name)}: {value}" for name, value in headers.items())
        options.insert(1, f"headers: {{ {pairs} }}")
    lines = [
        "async function main() {",
        f"  const url = new URL({json.dumps(base)});",
        *([f"  url.search = new URLSearchParams({json.dumps(query)});"] if query else []),
        "  const response = await fetch(url, {",
        *(f"    {option}," for option in options),
        "  });",
        "  console.log(await response.text());",
        "  if (!response.ok) process.exitCode = 1;",
        "}",
        "",
        "main();",
    ]
    return preface + "\n".join(lines) + "\n"
