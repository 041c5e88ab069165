"""Which account a ledger row belongs to, without storing the key.

Reconciliation compares one account's balance with that account's recorded
calls: the same service (base URL) and the same API key. The ledger names the
account by a short keyed hash of both, so the key itself never reaches the file
(only the 0600 config file or the environment hold it) and two keys or two
services never reconcile against each other.
"""

from __future__ import annotations

import hashlib
import hmac

from creditscope.shown_url import shown_url

# A fixed label, not a secret: it keeps this hash apart from any other hash of the key.
_LABEL = b"creditscope ledger account v1"
FINGERPRINT_LENGTH = 16  # hex digits: 64 bits, ample to tell a user's accounts apart


def account_fingerprint(base_url: str, api_key: str | None) -> str:
    """A non-reversible name for the account at ``base_url`` reached with ``api_key``."""
    # The address as every record shows it (user info masked), whoever asks.
    message = f"{shown_url(base_url).rstrip('/')}\n{api_key or ''}".encode()
    return hmac.new(_LABEL, message, hashlib.sha256).hexdigest()[:FINGERPRINT_LENGTH]
