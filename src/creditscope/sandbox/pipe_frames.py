"""Frames of the pipe between the explorer and its sandbox process.

A frame is two big-endian lengths, a JSON header of that many bytes and a body of
that many bytes. Requests and answers carry an ``id`` in their header, so several
may be in flight at once and answer in any order. Pure and light: both ends import
it, and the explorer's end must not pull in FastAPI.
"""

from __future__ import annotations

import json
import struct
from typing import IO, Any

_LENGTHS = struct.Struct(">II")
MAX_HEADER = 1 << 20  # a header is a method, a URL and a few headers
MAX_BODY = 64 << 20  # the largest sandbox answer is well under a megabyte


class FrameError(ValueError):
    """The other end wrote something that is not a frame."""


def encode_frame(header: dict[str, Any], body: bytes = b"") -> bytes:
    """One frame, ready to write."""
    head = json.dumps(header, separators=(",", ":")).encode()
    return _LENGTHS.pack(len(head), len(body)) + head + body


def read_frame(stream: IO[bytes]) -> tuple[dict[str, Any], bytes] | None:
    """The next frame from a blocking binary stream; None at its end (the other end
    closed its side)."""
    lengths = _read_exactly(stream, _LENGTHS.size)
    if lengths is None:
        return None
    head_size, body_size = _LENGTHS.unpack(lengths)
    if head_size > MAX_HEADER or body_size > MAX_BODY:
        raise FrameError(f"frame over the limit (header {head_size}, body {body_size})")
    head = _read_exactly(stream, head_size)
    body = _read_exactly(stream, body_size) if body_size else b""
    if head is None or body is None:
        raise FrameError("the stream ended inside a frame")
    header = json.loads(head)
    if not isinstance(header, dict):
        raise FrameError("a frame's header is not a JSON object")
    return header, body


def _read_exactly(stream: IO[bytes], size: int) -> bytes | None:
    chunks: list[bytes] = []
    remaining = size
    while remaining:
        chunk = stream.read(remaining)
        if not chunk:
            if remaining == size:
                return None
            raise FrameError("the stream ended inside a frame")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)
