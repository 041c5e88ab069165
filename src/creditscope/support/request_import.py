"""Recognising a pasted request: a curl, wget, HTTPie or PowerShell command (with or
without the ``curl -v`` output under it), a browser's ``fetch(…)``, a raw HTTP request
(from a log, a proxy, DevTools or ``curl -v``), DevTools' General section, a full URL
(alone or in a chat message), a JSON body, or our own lookup report. A paste of several
commands is refused, naming each, so the desk picks the one to import.

``import_request(text, base_url)`` says which operation of ``operations.py`` the
request is, with its parameters as given and the notes a user should read (the
key was dropped, headers were ignored, it is replayed on the sandbox). The
parameters are checked with the client's own local validation; ``problem`` holds
what it refused, so a form can open filled in and point at the field. Anything
that cannot be a request of the configured service (another host on a live
service, an unknown path, a malformed command, code) raises ``ImportProblem``
with an explanation. Nothing is sent, and no key is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from creditscope import json_limits, operations
from creditscope.client.errors import InvalidRequest
from creditscope.client.validation import accepted_fields, validate
from creditscope.support.curl_parse import CurlCommand, ImportProblem, looks_like_curl, parse_curl
from creditscope.support.devtools_general import (
    looks_like_devtools_general,
    parse_devtools_general,
)
from creditscope.support.fetch_parse import parse_fetch
from creditscope.support.header_notes import header_notes
from creditscope.support.httpie_parse import looks_like_httpie, parse_httpie
from creditscope.support.pasted_code import code_problem
from creditscope.support.pasted_text import (
    command_in_prose,
    command_lines,
    commands_of,
    several_commands_problem,
    urls_in,
)
from creditscope.support.powershell_parse import (
    looks_like_invoke_webrequest,
    parse_invoke_webrequest,
)
from creditscope.support.raw_http_parse import looks_like_raw_http, parse_raw_http
from creditscope.support.report_import import looks_like_report, report_request
from creditscope.support.request_target import absolute, target_of
from creditscope.support.verbose_transcript import (
    looks_like_verbose_output,
    parse_verbose_output,
)
from creditscope.support.wget_parse import looks_like_wget, parse_wget

__all__ = ["ImportProblem", "ImportedRequest", "import_command", "import_request"]

# Each note is one line of the Import dialog (80 columns): a browser paste has several.
KEY_REPLACED = "Pasted key dropped (never stored or shown); the configured key is used."
IN_PROSE = "Read the command in the pasted text; the sentences around it were not read."
HAR_ENTRY = "HAR entry"  # the source of a request read from a HAR file
HAR_KEY_DROPPED = "Key dropped from the HAR (never stored or shown); the configured key is used."
KEY_NOTES = (KEY_REPLACED, HAR_KEY_DROPPED)
# Query parameters that carry a key in some customers' scripts; dropped like the header.
_KEY_PARAMS = frozenset({"api_key", "apikey", "key", "x-api-key", "token", "access_token"})
FIND_COMPANY = "professional_network/find_company"


@dataclass(frozen=True)
class ImportedRequest:
    """A recognised request: its operation, its parameters as given, and notes for the user."""

    operation: str
    params: dict[str, Any]
    source: str  # what was pasted: "curl", "wget", "HTTPie", "URL", "JSON body"...
    notes: tuple[str, ...] = ()
    problem: InvalidRequest | None = field(default=None, compare=False)

    @property
    def title(self) -> str:
        """What a user calls the operation, e.g. "Find a company page"."""
        return operations.get(self.operation).title


def import_request(text: str, base_url: str) -> ImportedRequest:
    """Recognise ``text`` as a request to the service at ``base_url``; sends nothing."""
    stripped = text.strip()
    if not stripped:
        raise ImportProblem("Nothing to import: paste a curl command, a URL or a JSON body.")
    fetched = parse_fetch(stripped)  # a browser's "Copy as fetch": JSON options, read
    if fetched is not None:
        return import_command(fetched, base_url)
    code = code_problem(stripped)
    if code is not None:
        raise ImportProblem(code)
    if several := _several_commands(stripped):
        raise several
    if looks_like_verbose_output(stripped):  # before curl: the command may head it
        return import_command(parse_verbose_output(stripped), base_url)
    if quoted := _command_in_prose(stripped):  # a chat message around one command
        imported = import_request(quoted, base_url)
        return replace(imported, notes=(IN_PROSE, *imported.notes))
    if looks_like_invoke_webrequest(stripped):  # before curl: PowerShell's curl is this
        return import_command(parse_invoke_webrequest(stripped), base_url)
    if looks_like_curl(stripped):
        return import_command(parse_curl(stripped), base_url)
    if looks_like_httpie(stripped):
        return import_command(parse_httpie(stripped), base_url)
    if looks_like_wget(stripped):
        return import_command(parse_wget(stripped), base_url)
    if looks_like_devtools_general(stripped):  # before raw HTTP: headers may follow it
        return import_command(parse_devtools_general(stripped), base_url)
    if looks_like_raw_http(stripped):
        return import_command(parse_raw_http(stripped), base_url)
    if stripped.startswith(("{", "[")):
        return _from_json_body(stripped)
    if looks_like_report(stripped):
        return _from_report(stripped)
    if "\n" not in stripped and " " not in stripped:
        return _from_url(stripped, base_url, method=None, extra={}, notes=[], source="URL")
    if urls := urls_in(stripped):
        return _from_message(urls, base_url)
    raise ImportProblem(
        "This is not a command (curl, wget, HTTPie, PowerShell), a raw HTTP request "
        "(GET /path HTTP/1.1 and its headers), a URL or a JSON body. Paste one of those "
        "(e.g. from the customer's ticket)."
    )


# --- the three forms ---------------------------------------------------------------


def import_command(command: CurlCommand, base_url: str) -> ImportedRequest:
    """The request a command (or a HAR entry, read as one) is; sends nothing."""
    notes: list[str] = list(command.notes)
    if command.credentials_dropped:
        notes.append(_key_note(command.tool))
    notes += header_notes((name for name, _value in command.headers),
                          cookies=command.cookies_dropped)
    source = command.tool
    if command.get:
        extra = _form_fields(command, notes)
        return _from_url(command.url, base_url, method=command.method or "GET", extra=extra,
                         notes=notes, source=source, with_get=True)
    method = command.method or ("POST" if command.data else "GET")
    op = target_of(command.url, base_url).operation
    if command.data and not op.is_post:
        if command.tool == HAR_ENTRY:
            raise ImportProblem(
                f"{op.path} is a GET request, but the browser sent a body: the customer's "
                "page must send its values in the URL's query string.")
        how = {"HTTPie": "use name==value for query parameters, or ",
               "curl": "add -G so curl sends -d values in the query string, or "}
        raise ImportProblem(
            f"{op.path} is a GET request, but the command sends a body: "
            f"{how.get(command.tool, '')}put them in the URL."
        )
    body = _body(command, notes) if command.data else {}
    return _from_url(command.url, base_url, method=method, extra=body, notes=notes,
                     source=source)


def _from_message(urls: list[str], base_url: str) -> ImportedRequest:
    """The request a message (or any text) names by its URL: the one URL of the service
    in it; several are refused (which one is meant is the desk's to say)."""
    targets: list[str] = []
    refusals: list[ImportProblem] = []
    for url in urls:
        try:
            target_of(url, base_url)
        except ImportProblem as refused:
            refusals.append(refused)
            continue
        targets.append(url)
    if len(targets) > 1:
        raise ImportProblem(f"The text names {len(targets)} requests of this service by "
                            "their URLs; paste the one to import.")
    if not targets:
        raise refusals[0]  # why its (first) URL is none: another host, an unknown path
    return _from_url(targets[0], base_url, method=None, extra={}, source="URL in text",
                     notes=["Read the URL in the pasted text; the rest of it was not read."])


def _command_in_prose(text: str) -> str | None:
    """The one command a message quotes between its sentences, or None."""
    starts = command_lines(text)
    return command_in_prose(text, starts[0]) if len(starts) == 1 else None


def _several_commands(text: str) -> ImportProblem | None:
    """The refusal of a paste of several commands, naming each one's request."""
    starts = command_lines(text)
    if len(starts) < 2:
        return None
    return ImportProblem(several_commands_problem(
        starts, [_request_named(command) for command in commands_of(text, starts)]))


def _request_named(text: str) -> str:
    """``POST /professional_network/find_company``: what a command asks, or ``""``."""
    try:
        command = parse_wget(text) if looks_like_wget(text) else parse_curl(text)
        path = urlsplit(absolute(command.url)).path or "/"
    except (ImportProblem, ValueError):
        return ""
    method = command.method or ("POST" if command.data and not command.get else "GET")
    return f"{method} {path}"


def _from_report(text: str) -> ImportedRequest:
    body = report_request(text)
    if body is None:
        raise ImportProblem("This lookup report has no “Asked” line: paste the whole report, "
                            "or the name and website as a JSON body.")
    return _checked(operations.get(FIND_COMPANY), body, "lookup report",
                    ["The lookup is the one the report asked (its “Asked” line)."])


def _from_json_body(text: str) -> ImportedRequest:
    body = _json_object(text)
    keys = set(body)
    fitting = [
        op for op in operations.OPERATIONS
        if op.is_post and keys and keys <= set(accepted_fields(op.name))
    ]
    if not fitting:
        posts = "; ".join(f"{op.path}: {', '.join(accepted_fields(op.name))}"
                          for op in operations.OPERATIONS if op.is_post)
        given = ", ".join(sorted(keys)) or "(none)"
        raise ImportProblem(
            f"No request body of this service has the fields {given}."
            f" Bodies are: {posts}. For a GET request, paste its URL."
        )
    chosen = fitting[0]  # the paid lookup first: a bare {"name"} is a company lookup
    notes = []
    if len(fitting) > 1:
        notes.append(
            f"Read as {chosen.title.lower()} ({chosen.path}); the body also fits "
            + ", ".join(op.path for op in fitting[1:]) + "."
        )
    return _checked(chosen, body, "JSON body", notes)


def _from_url(
    url: str, base_url: str, *, method: str | None, extra: dict[str, Any], notes: list[str],
    source: str, with_get: bool = False,
) -> ImportedRequest:
    target = target_of(url, base_url)
    op = target.operation
    notes += target.notes
    if method is not None and method != op.method:
        raise _wrong_method(op, method, source, with_get=with_get)
    query = urlsplit(absolute(url)).query
    params: dict[str, Any] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        params[name] = value
    for name, value in extra.items():
        params[name] = value
    if any(name.lower() in _KEY_PARAMS for name in params):
        params = {k: v for k, v in params.items() if k.lower() not in _KEY_PARAMS}
        if _key_note(source) not in notes:
            notes.append(_key_note(source))
    if op.is_post and query:
        notes.append(f"The query string was read as {op.path}'s body fields.")
    return _checked(op, params, source, notes)


# --- pieces ---------------------------------------------------------------------------


def _key_note(source: str) -> str:
    """What to say of a key found in the request: pasted, or in a customer's HAR file."""
    return HAR_KEY_DROPPED if source == HAR_ENTRY else KEY_REPLACED


def _wrong_method(op: operations.Operation[Any], method: str, source: str, *,
                  with_get: bool) -> ImportProblem:
    """Why a request sent with another method than its operation's is refused, and what
    fixes it in the words of where it came from (a customer's browser, or a command)."""
    if source == HAR_ENTRY:
        where = "in a JSON body" if op.is_post else "in the URL's query string"
        return ImportProblem(
            f"{op.path} is a {op.method} request, but the browser sent {method}: the "
            f"customer's page must send {op.method}, with its values {where}.")
    fix = (" Remove -G: its values belong in the JSON body." if with_get else
           f" Send it as {op.method}, with its values in a JSON body.") if op.is_post else ""
    return ImportProblem(f"{op.path} is a {op.method} request, but the command uses {method}."
                         + fix)


def _checked(
    op: operations.Operation[Any], params: dict[str, Any], source: str, notes: list[str]
) -> ImportedRequest:
    """The request with what local validation says about it (nothing sent, nothing charged)."""
    problem: InvalidRequest | None = None
    try:
        validate(op.name, params)
    except InvalidRequest as exc:
        problem = exc
    return ImportedRequest(op.name, params, source, tuple(notes), problem)


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json_limits.loads(text)
    except json_limits.JsonTooDeep as deep:
        raise ImportProblem(f"The JSON body is not read: {deep} (no real request does)."
                            ) from None
    except json.JSONDecodeError as exc:
        raise ImportProblem(
            f"The JSON body is malformed (line {exc.lineno}, column {exc.colno}: {exc.msg})."
        ) from None
    if not isinstance(value, dict):
        raise ImportProblem("The JSON body must be an object, like {\"name\": \"Acme\"}.")
    return value


def _body(command: CurlCommand, notes: list[str]) -> dict[str, Any]:
    """The POST body: JSON when it is JSON, otherwise form fields (sent as JSON, with a note)."""
    plain = [part for part in command.data if part.kind in ("data", "json")]
    if len(plain) == len(command.data):
        text = "&".join(part.text for part in plain)  # how curl joins several -d
        if text.lstrip().startswith("{"):
            return _json_object(text)
    notes.append("The body was form-encoded; creditscope sends the same fields as JSON.")
    return _form_fields(command, notes)


def _form_fields(command: CurlCommand, notes: list[str]) -> dict[str, Any]:
    """The ``-d`` values as ``name=value`` fields (``-G``, or a form-encoded body)."""
    fields: dict[str, Any] = {}
    for part in command.data:
        if part.kind == "urlencode":
            if part.name is None:
                raise ImportProblem(
                    "--data-urlencode needs name=value here, "
                    "e.g. --data-urlencode 'location=São Paulo'."
                )
            fields[part.name] = part.text
        elif part.kind == "json":
            raise ImportProblem("--json sends a JSON body; it cannot go in the query (-G).")
        else:
            for name, value in parse_qsl(part.text, keep_blank_values=True):
                fields[name] = value
    return fields
