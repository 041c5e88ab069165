"""Recognising a pasted request: a curl command, a full URL, or a JSON body.

``import_request(text, base_url)`` says which operation of ``operations.py`` the
request is, with its parameters as given and the notes a user should read (the
key was replaced, an option was ignored). The parameters are checked with the
client's own local validation; ``problem`` holds what it refused, so a form can
open filled in and point at the field. Anything that cannot be a request of the
configured service (another host, an unknown path, a malformed command) raises
``ImportProblem`` with an explanation. Nothing is sent, and no key is kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from creditscope import operations
from creditscope.client.errors import InvalidRequest
from creditscope.client.validation import accepted_fields, validate
from creditscope.support.curl_parse import CurlCommand, ImportProblem, looks_like_curl, parse_curl

__all__ = ["ImportProblem", "ImportedRequest", "import_request"]

KEY_REPLACED = (
    "The API key in the pasted request was removed (never stored or shown); "
    "the configured key is used instead."
)
# Query parameters that carry a key in some customers' scripts; dropped like the header.
_KEY_PARAMS = frozenset({"api_key", "apikey", "key", "x-api-key", "token", "access_token"})
_IGNORED_HEADERS = frozenset({
    "content-type", "accept", "user-agent", "idempotency-key", "content-length", "host",
    "accept-encoding", "connection",
})


@dataclass(frozen=True)
class ImportedRequest:
    """A recognised request: its operation, its parameters as given, and notes for the user."""

    operation: str
    params: dict[str, Any]
    source: str  # "curl", "url" or "json"
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
    if looks_like_curl(stripped):
        return _from_curl(parse_curl(stripped), base_url)
    if stripped.startswith(("{", "[")):
        return _from_json_body(stripped)
    if "\n" not in stripped and " " not in stripped:
        return _from_url(stripped, base_url, method=None, extra={}, notes=[], source="url")
    raise ImportProblem(
        "This is not a curl command, a URL or a JSON body. Paste one of those "
        "(e.g. from the customer's ticket)."
    )


# --- the three forms ---------------------------------------------------------------


def _from_curl(command: CurlCommand, base_url: str) -> ImportedRequest:
    notes: list[str] = []
    if command.credentials_dropped:
        notes.append(KEY_REPLACED)
    for name, _value in command.headers:
        if name.lower() not in _IGNORED_HEADERS:
            notes.append(f"Header {name} is not something the service reads; it was ignored.")
    if command.get:
        extra = _form_fields(command, notes)
        return _from_url(command.url, base_url, method=command.method or "GET", extra=extra,
                         notes=notes, source="curl")
    method = command.method or ("POST" if command.data else "GET")
    op = _operation_at(command.url, base_url)
    if command.data and not op.is_post:
        raise ImportProblem(
            f"{op.path} is a GET request, but the command sends a body. Add -G so curl sends "
            "-d values in the query string, or put them in the URL."
        )
    body = _body(command, notes) if command.data else {}
    return _from_url(command.url, base_url, method=method, extra=body, notes=notes,
                     source="curl")


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
    return _checked(chosen, body, "json", notes)


def _from_url(
    url: str, base_url: str, *, method: str | None, extra: dict[str, Any], notes: list[str],
    source: str,
) -> ImportedRequest:
    op = _operation_at(url, base_url)
    if method is not None and method != op.method:
        raise ImportProblem(
            f"{op.path} is a {op.method} request, but the command uses {method}."
            + (" Remove -G: its values belong in the JSON body." if op.is_post else "")
        )
    query = urlsplit(_absolute(url)).query
    params: dict[str, Any] = {}
    for name, value in parse_qsl(query, keep_blank_values=True):
        params[name] = value
    for name, value in extra.items():
        params[name] = value
    if any(name.lower() in _KEY_PARAMS for name in params):
        params = {k: v for k, v in params.items() if k.lower() not in _KEY_PARAMS}
        if KEY_REPLACED not in notes:
            notes.append(KEY_REPLACED)
    if op.is_post and query:
        notes.append(f"The query string was read as {op.path}'s body fields.")
    return _checked(op, params, source, notes)


# --- pieces ---------------------------------------------------------------------------


def _checked(
    op: operations.Operation, params: dict[str, Any], source: str, notes: list[str]
) -> ImportedRequest:
    """The request with what local validation says about it (nothing sent, nothing charged)."""
    problem: InvalidRequest | None = None
    try:
        validate(op.name, params)
    except InvalidRequest as exc:
        problem = exc
    return ImportedRequest(op.name, params, source, tuple(notes), problem)


class OtherService(ImportProblem):
    """The request is for another host than the configured service. How to switch is the
    interface's business (a setting in the explorer, an environment variable in the CLI)."""

    def __init__(self, host: str, connected_to: str) -> None:
        super().__init__(f"The request is for {host}, but creditscope is connected to "
                         f"{connected_to}. Nothing was imported.")
        self.host = host


def _absolute(url: str) -> str:
    if url.startswith("/") or "://" in url:
        return url
    return "https://" + url  # curl's own default for a bare host


def _operation_at(url: str, base_url: str) -> operations.Operation:
    """The operation ``url`` names on the service at ``base_url``; ImportProblem otherwise."""
    try:
        parts = urlsplit(_absolute(url))
        port = parts.port
    except ValueError:
        raise ImportProblem("The URL is malformed; paste it as the customer sent it.") from None
    base = urlsplit(base_url)
    if parts.hostname:
        here = (base.hostname or "", base.port or _default_port(base.scheme))
        there = (parts.hostname, port or _default_port(parts.scheme))
        if here != there:
            shown = parts.netloc.rpartition("@")[2]  # never echo user:password@
            raise OtherService(shown, base.netloc)
    path = parts.path.rstrip("/") or "/"
    prefix = base.path.rstrip("/")
    if prefix and parts.hostname:
        if not path.startswith(prefix + "/"):
            raise ImportProblem(f"{path} is outside the service's base path {prefix}.")
        path = path[len(prefix):]
    op = operations.BY_PATH.get(path)
    if op is None:
        known = ", ".join(o.path for o in operations.OPERATIONS)
        raise ImportProblem(f"{path} is not a path of this service. Known paths: {known}.")
    return op


def _default_port(scheme: str) -> int | None:
    return {"http": 80, "https": 443}.get(scheme.lower())


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
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
