"""The tour is free: it runs on the built-in sandbox with its demo key, never on a live
service nor with a real key configured (the rule is shared by ``creditscope demo``,
``creditscope web --demo`` and F2 in the explorer). No Textual and no pydantic here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from creditscope.sandbox import DEMO_KEY
from creditscope.settings_preview import is_sandbox

if TYPE_CHECKING:
    from pydantic import SecretStr


class _Configured(Protocol):
    base_url: str | None
    api_key: SecretStr | None


def why_not_here(settings: _Configured) -> str | None:
    """Why the tour cannot run with ``settings`` (a sentence with the fix), or None."""
    if not is_sandbox(settings.base_url):
        # Only the host name: a base URL may carry user:password.
        host = urlsplit(str(settings.base_url)).hostname or "a live service"
        return (f"the tour runs only on the built-in sandbox, and a live service is "
                f"configured ({host}), where every step would spend real credits. "
                "Unset base_url (CREDITSCOPE_BASE_URL, or Settings > Use the built-in "
                "sandbox) to run it. Nothing was sent.")
    key = settings.api_key.get_secret_value() if settings.api_key is not None else ""
    if key and key != DEMO_KEY:
        return ("the tour runs only with the sandbox's demo key, and a real API key is "
                "configured. Unset api_key (CREDITSCOPE_API_KEY) to run it. Nothing was sent.")
    return None
