"""The built-in sandbox: a faithful local implementation of the data API.

This module holds only constants, so the client can name the sandbox without
importing FastAPI; the app itself is ``creditscope.sandbox.app.create_app``.
"""

from __future__ import annotations

# The base URL the explorer uses for the in-process sandbox (no port is opened).
SANDBOX_BASE_URL = "http://sandbox.creditscope.invalid"

# Works out of the box against the sandbox, in-process or `creditscope serve`.
DEMO_KEY = "sk_sandbox_demo_4242"
# A key the sandbox knows as revoked, to demonstrate the invalid-key path.
REVOKED_KEY = "sk_sandbox_revoked_0000"
# Starting balance of every key the sandbox creates.
DEFAULT_CREDITS = 10_000
