"""Messages the app's workers post; the handlers that receive them own the state.

Kept free of client imports so the first frame does not pay for httpx or
pydantic: payloads are typed by name only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from creditscope.client.client import DataClient
    from creditscope.client.records import CallRecord


class ClientReady(Message):
    """The data client (and the in-process sandbox, if used) is ready for calls."""

    def __init__(self, client: DataClient) -> None:
        super().__init__()
        self.client = client


class ClientFailed(Message):
    """Building the data client failed; the app shows why and offers Settings."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class LedgerChanged(Message):
    """A call was recorded. Queued duplicates are replaced: only the latest counts."""

    def __init__(self, record: CallRecord | None = None) -> None:
        super().__init__()
        self.record = record

    def can_replace(self, message: Message) -> bool:
        """Coalesce bursts of ledger updates into one meter refresh."""
        return isinstance(message, LedgerChanged)


@dataclass(frozen=True)
class CreditSnapshot:
    """What the header meter shows: this session's spend, savings, and the balance."""

    spent: int = 0
    saved: int = 0
    calls: int = 0
    errors: int = 0
    remaining: int | None = None
    unexplained: int = 0  # part of ``spent`` no recorded call explains (see Activity)
    overstated: int = 0  # taken off ``spent``: charged less than the headers said
    possibly_charged: int = 0  # not in ``spent``: lost answers the next balance settles
