"""POST bodies: read strictly as JSON, and replayed by ``Idempotency-Key``.

Only a JSON request is read (``Content-Type: application/json``, else 415), and none
sent by a page of another site (an ``Origin`` that is not this server's, 403): a
browser sends a cross-site ``text/plain`` form POST without asking first, so without
these any page a visitor opens could fill ``POST /provider-requests``.

A repeated key with the same body within 24 hours returns the first answer and
charges nothing; with a different body it is refused.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from creditscope import json_limits
from creditscope.sandbox.accounts import AccountStore, StoredReply
from creditscope.sandbox.problems import ApiProblem, invalid_parameter

IDEMPOTENCY_HEADER = "Idempotency-Key"
# What a charge or a stored provider request remembers: scope, key, body fingerprint.
Remember = tuple[str, str, str]


def json_body(raw: bytes) -> Any:
    """The parsed body, or 400 ``invalid_parameter`` naming ``body``."""
    if not raw.strip():
        raise invalid_parameter("body", "a JSON object is required", reason="body_required")
    try:
        body = json_limits.loads(raw, keep_lone_surrogates=True)
        # A lone surrogate ("\\ud800") parses but is not text: refuse it here.
        json.dumps(body, ensure_ascii=False).encode("utf-8")
    except ValueError:  # JsonTooDeep too: absurdly deep nesting
        raise invalid_parameter("body", "is not valid JSON", reason="invalid_json") from None
    return body


def check_sender(request: Request) -> None:
    """Refuse a POST from another site's page (403 ``forbidden_origin``) or one whose body
    is not declared JSON (415 ``unsupported_media_type``), before the body is read."""
    origin = request.headers.get("origin")
    own = f"{request.url.scheme}://{request.headers.get('host', '')}".lower()
    if origin is not None and origin.strip().lower() != own:
        raise ApiProblem(403, "forbidden_origin",
                         "a page of another site may not send this request")
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json":
        raise ApiProblem(415, "unsupported_media_type",
                         "body: send it as JSON, with Content-Type: application/json")


def fingerprint(body: Any) -> str:
    """A digest of the body, to tell a replay from a reused key."""
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def _idempotency_key(request: Request) -> str | None:
    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is not None and not 1 <= len(key) <= 255:
        raise invalid_parameter(IDEMPOTENCY_HEADER, "must be 1 to 255 characters")
    return key


@dataclass(frozen=True)
class PostBody:
    """A POST's parsed JSON body and its ``Idempotency-Key`` (if any)."""

    raw: Any
    idempotency_key: str | None

    @classmethod
    async def read(cls, request: Request) -> PostBody:
        """The header is checked before the body is parsed (a bad key is reported first)."""
        check_sender(request)
        key = _idempotency_key(request)
        return cls(json_body(await request.body()), key)

    def remember(self, scope: str) -> Remember | None:
        """What to store with the answer so a retry can be replayed; None without a key."""
        if self.idempotency_key is None:
            return None
        return (scope, self.idempotency_key, fingerprint(self.raw))

    def replay(self, store: AccountStore, scope: str) -> JSONResponse | None:
        """The first answer to this key (charged 0), or None if the key is new.

        A quick early look only; the guarantee is the second look that
        ``AccountStore.charge`` makes in the charging transaction (see ``replayed``).
        """
        if self.idempotency_key is None:
            return None
        stored = store.recall(scope, self.idempotency_key)
        if stored is None:
            return None
        return self.replayed(stored)

    def replayed(self, stored: StoredReply) -> JSONResponse:
        """The answer to a repeat of this key: the stored reply, or 400 if the body differs."""
        if stored.fingerprint != fingerprint(self.raw):
            raise invalid_parameter(
                IDEMPOTENCY_HEADER,
                "already used with a different body in the last 24 hours",
                reason="idempotency_key_reused",
            )
        return JSONResponse(
            stored.body, headers={"X-Credits-Charged": "0", "Idempotent-Replayed": "true"}
        )
