"""Reading a HAR file's JSON within bounds, keeping only what the import reads.

A HAR is outside data, so its reading is bounded: only a regular file is read (a
FIFO or ``/dev/zero`` is refused unread), a file over :data:`MAX_HAR_BYTES` is
refused before it is read, and so is one nested too deep for the parser. A file
cut short (an export or a download that stopped) is said to be so, from its last
bytes, before anything offers to open it (:func:`har_file_problem`, which the
Import dialog asks when a path is pasted), and from its JSON when it is read
(:func:`har_document`, after the check for nesting too deep), in the same words.

Large HARs are read whole, however many entries a long session left: each JSON
object is reduced as soon as it is parsed to what the import reads (an entry's
request, its response's status, its start), and a header to whether it is a
credential, its value never kept; timings, initiators' stacks, cookies and
response bodies are dropped at once. Only the objects kept count towards
:data:`MAX_HAR_OBJECTS`, which bounds what a file of tiny objects (``{"url": 1}``
repeated) can cost in memory.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from creditscope import json_limits
from creditscope.file_reading import (
    FileRefused,
    FileTooBig,
    open_regular_file,
    read_regular_file,
)
from creditscope.support.curl_parse import ImportProblem

MAX_HAR_BYTES = 50 * 1024 * 1024  # a support case's export, filtered to the service, stays under
# JSON objects kept (an entry keeps about four): each costs a few hundred bytes, so this
# bounds memory whatever the file's size in bytes; real HARs keep far fewer.
MAX_HAR_OBJECTS = 600_000
_EXPORT_LESS = ("Export only the requests of the case (filter the browser's network tab by"
                " the service's host first).")
_SAVE_AGAIN = ("Ask the customer to save the HAR again and attach it whole (zipped, if the"
               " ticket system limits the size of attachments).")
_CREDENTIAL_HEADERS = frozenset({"x-api-key", "authorization", "proxy-authorization", "cookie"})
# What the import reads of each kind of object, told by a key only that kind has: the
# document's log, the log's entries, an entry's request, response and start, a request's
# method, URL, headers and body (postData: its text). Any other object (timings, an
# initiator's stack frames, pages, cookies) is never read: it is dropped.
_READ: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("method", ("method", "url", "headers", "postData")),
    ("request", ("request", "response", "startedDateTime")),
    ("entries", ("entries",)),
    ("log", ("log",)),
    ("text", ("text", "encoding")),
)
_TAIL_BYTES = 64


class HarRefused(ImportProblem):
    """A HAR file that was not read: why, and what to do instead (``next_step``)."""

    def __init__(self, why: str, next_step: str) -> None:
        super().__init__(f"{why} {next_step}")
        self.why = why
        self.next_step = next_step


def har_file_problem(path: Path) -> HarRefused | None:
    """Why the HAR file at ``path`` will not be read, found without reading it whole (its
    size and its last bytes): too big, or cut short. None when nothing is wrong so far,
    or when it cannot be opened at all (``read_har_bytes`` says why)."""
    try:
        with open_regular_file(path) as file:
            size = os.fstat(file.fileno()).st_size
            if size > MAX_HAR_BYTES:
                return _too_big(path)
            head = file.read(_TAIL_BYTES)
            file.seek(max(0, size - _TAIL_BYTES))
            tail = file.read(_TAIL_BYTES)
    except (OSError, FileRefused):
        return None
    # A JSON object that never closes: what an interrupted export or download leaves.
    if head.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"{") and not (
            tail.rstrip().endswith(b"}")):
        return cut_short(size)
    return None


def read_har_bytes(path: Path) -> bytes:
    """The bytes of the HAR file at ``path``; ``ImportProblem`` when it is not read (one
    cut short is found by ``har_document``, after a check for nesting too deep)."""
    try:
        return read_regular_file(path, MAX_HAR_BYTES)
    except FileTooBig as too_big:
        raise HarRefused(str(too_big), _EXPORT_LESS) from None
    except FileRefused as refused:
        raise ImportProblem(str(refused)) from None


def cut_short(size: int) -> HarRefused:
    """The words for a HAR whose JSON stops before its end."""
    return HarRefused(f"This HAR file is cut short: it stops after {size:,} bytes, before its"
                      " JSON ends (the export or its download was interrupted); it was not"
                      " read.", _SAVE_AGAIN)


def _too_big(path: Path) -> HarRefused:
    return HarRefused(str(FileTooBig(path, MAX_HAR_BYTES)), _EXPORT_LESS)


class _TooManyObjects(Exception):
    pass


def _reduced_object(counter: list[int]) -> Any:
    """json's ``object_pairs_hook``: each object reduced to what the import reads as soon
    as it is parsed (a response to its status, a header to whether it is a credential,
    an object the import never reads to None), counting those kept (refusing past the
    limit), so only one response's body is ever held, and never a header's value."""

    def build(pairs: list[tuple[str, Any]]) -> Any:
        fields = dict(pairs)
        if "status" in fields and "content" in fields:  # a response: its body is not read
            kept: dict[str, Any] = {"status": fields["status"]}
        elif "name" in fields and "value" in fields:  # a header (or cookie, query field)
            return str(fields["name"]).strip().lower() in _CREDENTIAL_HEADERS or None
        else:
            read = next((names for marker, names in _READ if marker in fields), None)
            if read is None:
                return None  # timings, cache, an initiator's stack: never read
            kept = {name: fields[name] for name in read if name in fields}
        counter[0] += 1
        if counter[0] > MAX_HAR_OBJECTS:
            raise _TooManyObjects
        return kept

    return build


def carries_credentials(request: dict[str, Any]) -> bool:
    """Whether a request (as ``har_document`` reduced it) sent a key or a session cookie."""
    headers = request.get("headers")
    return isinstance(headers, list) and any(header is True for header in headers)


def har_document(raw: bytes | str) -> Any:
    """The HAR's JSON, reduced to what the import reads; ``ImportProblem`` when it is none."""
    try:
        return json_limits.loads(raw, object_pairs_hook=_reduced_object([0]))
    except UnicodeDecodeError:
        raise ImportProblem("This is not a HAR file: it is not text.") from None
    except json_limits.JsonTooDeep as deep:
        raise ImportProblem(f"This HAR file is nested deeper than any browser writes: {deep};"
                            " it was not read.") from None
    except json.JSONDecodeError as error:
        if _ends_early(error):
            raise cut_short(len(raw)) from None
        raise ImportProblem(f"This is not a HAR file: it is not JSON ({error}).") from None
    except ValueError as error:
        raise ImportProblem(f"This is not a HAR file: it is not JSON ({error}).") from None
    except _TooManyObjects:
        raise HarRefused(f"This HAR file holds over {MAX_HAR_OBJECTS:,} JSON objects that"
                         " name requests; it was not read.", _EXPORT_LESS) from None


def _ends_early(error: json.JSONDecodeError) -> bool:
    """True when the JSON was valid up to where the text ran out (a file cut short)."""
    text = error.doc.strip()
    return text.startswith(("{", "\ufeff{")) and (
        error.msg.startswith("Unterminated string") or error.pos >= len(error.doc.rstrip()))
