"""Reading a customer's HAR file (HAR 1.2, as browsers export it): which of its
requests were to this service, and which operation each one is. Nothing is sent.

Each entry for the configured service's host is mapped to an operation with the
curl import's own rules (``request_import.import_command``, given the entry's
method, URL and body as a command), so a HAR and a pasted command read alike, each
problem in a HAR's words (what the browser sent, not which curl option to change). On
the built-in sandbox that includes the pasted command's rule for another host
(``request_target``): a host the HAR calls one of the service's paths on (the
customer's live service) is replayed on the sandbox, each request with a note
naming it. Entries for other hosts are counted by host and skipped, and so are a
browser's CORS preflights (``OPTIONS``); an entry that cannot be
read, or that names no operation, is listed with the reason. Request headers
(where a key would be) are never kept; a credential among them adds the usual
note. Response bodies are dropped as they are parsed, so a base64 image or a large
download costs nothing but the file's reading.

A HAR is outside data: its reading is bounded, and a large one (a long session's
thousands of entries) read whole at a small cost, by ``har_file``.
"""

from __future__ import annotations

import base64
import binascii
import json
import shlex
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from creditscope import operations
from creditscope.support.curl_parse import CurlCommand, DataPart, looks_like_curl
from creditscope.support.har_file import (
    carries_credentials,
    har_document,
    har_file_problem,
    read_har_bytes,
)
from creditscope.support.request_import import (
    HAR_ENTRY,
    ImportedRequest,
    ImportProblem,
    import_command,
)
from creditscope.support.request_target import same_service, target_of

if TYPE_CHECKING:
    from creditscope.client.client import DataClient


@dataclass(frozen=True)
class HarRequest:
    """One entry of the HAR for this service: the request it is, or why it is none."""

    number: int  # its position among the file's entries, from 1
    started: str  # startedDateTime as the file gives it
    method: str
    path: str  # the URL's path only: a key in its query string is never kept
    status_seen: int | None  # what the customer's browser got (0: no answer)
    imported: ImportedRequest | None = None
    problem: str | None = None


@dataclass
class HarReading:
    """What a HAR file holds for this service, and what was skipped."""

    requests: list[HarRequest] = field(default_factory=list)
    other_hosts: Counter[str] = field(default_factory=Counter)
    unreadable: int = 0  # entries without a usable request (method and URL)
    preflights: int = 0  # a browser's CORS OPTIONS checks before a call: not calls

    @property
    def skipped(self) -> int:
        """Entries for other hosts."""
        return sum(self.other_hosts.values())

    def skipped_text(self) -> str:
        """``"12 entries for 3 other hosts skipped (fonts.gstatic.com 5, …)"``, or ``""``."""
        if not self.other_hosts:
            return ""
        top = ", ".join(f"{host} {count}" for host, count in self.other_hosts.most_common(3))
        more = "…" if len(self.other_hosts) > 3 else ""
        hosts = len(self.other_hosts)
        return (f"{self.skipped} {'entry' if self.skipped == 1 else 'entries'} for "
                f"{hosts} other host{'s' if hosts != 1 else ''} skipped ({top}{more})")


def read_har(path: Path, base_url: str) -> HarReading:
    """The requests to the service at ``base_url`` in the HAR file at ``path``."""
    return parse_har(read_har_bytes(path), base_url)


def parse_har(raw: bytes | str, base_url: str) -> HarReading:
    """The requests to the service at ``base_url`` in HAR text ``raw``."""
    document = har_document(raw)
    log = document.get("log") if isinstance(document, dict) else None
    entries = log.get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        raise ImportProblem("This is not a HAR file: it has no log.entries list.")
    reading = HarReading()
    readable: list[tuple[int, dict[str, Any], dict[str, Any], str, str]] = []
    for number, entry in enumerate(entries, start=1):
        request = entry.get("request") if isinstance(entry, dict) else None
        if not isinstance(request, dict):
            reading.unreadable += 1
            continue
        method, url = request.get("method"), request.get("url")
        if not (isinstance(method, str) and isinstance(url, str) and url):
            reading.unreadable += 1
            continue
        readable.append((number, entry, request, method.upper(), url))
    replayed = _replayed_hosts([url for *_, url in readable], base_url)
    for number, entry, request, method, url in readable:
        host = host_of(url)
        if not same_service(url, base_url) and host not in replayed:
            reading.other_hosts[host or "(no host)"] += 1
            continue
        if method == "OPTIONS":
            reading.preflights += 1
            continue
        reading.requests.append(_request(number, entry, request, method, url, base_url))
    return reading


def _replayed_hosts(urls: list[str], base_url: str) -> set[str]:
    """The other hosts whose requests are read as the service's: on the built-in sandbox,
    each host a URL names one of the service's operations on, by the rule a pasted
    command follows (``target_of``: replayed there, with a note); none on a live
    service, where that rule refuses another host."""
    hosts: set[str] = set()
    for url in urls:
        host = host_of(url)
        if not host or host in hosts or same_service(url, base_url):
            continue
        try:
            target_of(url, base_url)
        except ImportProblem:
            continue
        hosts.add(host)
    return hosts


def host_of(url: str) -> str:
    """The host a URL names (``""`` when it names none or is malformed)."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""


def _request(
    number: int, entry: dict[str, Any], request: dict[str, Any], method: str, url: str,
    base_url: str,
) -> HarRequest:
    response = entry.get("response")
    status = response.get("status") if isinstance(response, dict) else None
    found = HarRequest(number, str(entry.get("startedDateTime", "")), method,
                       urlsplit(url).path or "/", status if isinstance(status, int) else None)
    try:
        body = _body_text(request.get("postData"))
        # Read as the command it is (a pasted curl's rules), in a HAR's words.
        command = CurlCommand(url, method, data=[DataPart("data", body)] if body else [],
                              credentials_dropped=carries_credentials(request),
                              tool=HAR_ENTRY)
        imported = import_command(command, base_url)
    except ImportProblem as problem:
        return replace(found, problem=str(problem))
    return replace(found, imported=imported)


def _body_text(post_data: object) -> str:
    """The request body as text; ImportProblem for a binary or unreadable one."""
    if not isinstance(post_data, dict):
        return ""
    text = post_data.get("text")
    if not isinstance(text, str):
        return ""
    if post_data.get("encoding") == "base64":  # some exporters write bodies so
        try:
            return base64.b64decode(text, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise ImportProblem("The request body is binary, not JSON.") from None
    return text


@dataclass(frozen=True)
class PricedRequest:
    """A HAR request with what sending it now would do, in the words every label uses."""

    request: HarRequest
    price: int  # its price (0 when it cannot be sent)
    cost: int  # what sending it now spends: 0 when the cache answers
    now: str  # "cached · free", "2 cr", "2 cr · expired", or why it cannot be sent
    # The request's identity (``operations.identity_key``, as batch, the cache and
    # single-flight key it): equal for two spellings of one request.
    same_as: str = ""

    @property
    def sendable(self) -> bool:
        """True when the request is recognised and valid."""
        imported = self.request.imported
        return imported is not None and imported.problem is None


def priced(client: DataClient, requests: list[HarRequest]) -> list[PricedRequest]:
    """Each request with its price and what it would return now (asks the cache, sends
    nothing)."""
    found: list[PricedRequest] = []
    for request in requests:
        imported = request.imported
        if imported is None:
            found.append(PricedRequest(request, 0, 0, f"not a request: {request.problem}"))
            continue
        if imported.problem is not None:
            found.append(PricedRequest(request, 0, 0, f"invalid: {imported.problem.message}"))
            continue
        plan = client.plan(imported.operation, dict(imported.params))
        identity = operations.identity_key(imported.operation,
                                client.validate(imported.operation, dict(imported.params)))
        found.append(PricedRequest(request, plan.price, plan.cost, plan.words.long, identity))
    return found


def cost_to_fetch(requests: list[PricedRequest]) -> int:
    """Credits to fetch every request not cached, each distinct request (identity) once:
    a cached request is free, and so is a second spelling of one fetched before it (the
    cache answers it); a request never cached, like a provider request, costs every time."""
    seen: set[str] = set()
    total = 0
    for item in requests:
        if item.sendable and (item.same_as not in seen or (item.price and not _cacheable(item))):
            total += item.cost
        seen.add(item.same_as)
    return total


def _cacheable(item: PricedRequest) -> bool:
    imported = item.request.imported
    return imported is not None and operations.get(imported.operation).ttl is not None


def _pasted_path(text: str) -> Path | None:
    """The path a pasted or dropped one-line text names (quotes and ``\\ `` escapes as a
    terminal writes them), or None for a URL, a command or several lines."""
    stripped = text.strip()
    if "\n" in stripped or len(stripped) < 5:
        return None
    if stripped[0] == stripped[-1] and stripped[0] in "'\"":
        stripped = stripped[1:-1]
    stripped = stripped.replace("\\ ", " ")
    if stripped.startswith("file://"):
        stripped = stripped[len("file://"):]
    if "://" in stripped or looks_like_curl(stripped):
        return None  # a URL or a command that happens to end in .har
    return Path(stripped).expanduser()


def pasted_har_path(text: str) -> Path | None:
    """The HAR file a pasted or dropped path names, or None when the text is not a path
    ending in ``.har``."""
    path = _pasted_path(text)
    return path if path is not None and path.name.lower().endswith(".har") else None


def pasted_file_problem(text: str) -> str | None:
    """Why a pasted path cannot be opened: a ``.har`` file that is not there, or a file
    that is no HAR file; None for any other text (a request to import)."""
    path = _pasted_path(text)
    if path is None:
        return None
    if path.name.lower().endswith(".har"):
        if not path.is_file():
            return f"No file at {path}: check the path (dropping a file on the terminal pastes it)."
        refused = har_file_problem(path)  # said as import-har says it, before Open is offered
        return None if refused is None else str(refused)
    if ("/" in text or "\\" in text) and path.is_file():
        return (f"{path} is not a HAR file: only a browser's HAR export (.har) opens here. "
                "For a request, paste its text (a curl command, a URL, a JSON body).")
    return None


def request_text(client: DataClient, imported: ImportedRequest) -> str:
    """The request as Import request reads it: its URL (GET) or a curl command (POST)."""
    plan = client.plan(imported.operation, dict(imported.params))
    if plan.body is None:
        return plan.url
    return shlex.join(["curl", "-X", plan.method, plan.url, "-d", json.dumps(plan.body)])
