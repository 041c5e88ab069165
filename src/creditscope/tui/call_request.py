"""``CallRequest``: one call a screen asks ``ResultArea`` (``tui/calls.py``) to make,
typed by its operation: ``CallRequest(operations.RESTAURANT_MENU, {"id": ...})`` is a
``CallRequest[Menu]``.

Importable in the first frame: the operation table and pydantic are named in
annotations only.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from pydantic import BaseModel

    from creditscope.client.client import DataClient
    from creditscope.client.records import Result
    from creditscope.operations import Operation

# The model the request's operation answers with.
AnswerT = TypeVar("AnswerT", bound="BaseModel")


@dataclass(frozen=True)
class CallRequest(Generic[AnswerT]):
    """One call to make: the typed operation (``operations.RESTAURANT_SEARCH``) and its
    params or body; its answer is read typed with ``ResultArea.Succeeded.answer``."""

    op: Operation[AnswerT]
    params: dict[str, Any] = field(default_factory=dict)
    refresh: bool = False  # bypass the cache (and pay) on purpose
    label: str = ""  # what the loading line says; defaults to the operation
    # The submission this request is: made when the user submits, sent as the POST's
    # Idempotency-Key, and kept by every re-run of the same request (the error
    # panel's Retry, the over-budget confirmation) so the service charges it once.
    submission: str = field(default_factory=lambda: str(uuid.uuid4()), compare=False)

    @property
    def operation(self) -> str:
        """The operation's name (``"restaurants/search"``): what prices, the spend guard
        and the loading line go by."""
        return self.op.name

    def refreshed(self) -> CallRequest[AnswerT]:
        """The same request, forced past the cache: a new submission, paid again."""
        return replace(self, refresh=True, submission=str(uuid.uuid4()))

    async def send(self, client: DataClient, *, confirm_over_budget: bool = False
                   ) -> Result[AnswerT]:
        """Call through the client (which validates locally first: a refused call is free)."""
        return await client.call(
            self.op,
            self.params,
            refresh=self.refresh,
            confirm_over_budget=confirm_over_budget,
            idempotency_key=self.submission,
        )
