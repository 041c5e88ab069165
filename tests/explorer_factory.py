"""The explorer's client as ``creditscope`` builds it, for tests: ``wiring.explorer_client``
(the settings' retry policy, TTLs, timeout, the SQLite ledger and the cache in the test's
directories) with only the service replaced, by the in-process sandbox or a fake."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from creditscope.client.client import DataClient
from creditscope.client.records import CallRecord
from creditscope.settings import Settings
from creditscope.wiring import TimedASGITransport, explorer_client


def in_process(asgi_app: Any) -> httpx.AsyncBaseTransport:
    """A sandbox app (``sandbox.app.create_app``) as the service, in this process, with the
    request's read timeout kept as the network would."""
    return TimedASGITransport(app=asgi_app)


def explorer_factory(
    service: httpx.AsyncBaseTransport | Callable[[], httpx.AsyncBaseTransport],
    *, on_record: Callable[[CallRecord | None], None] | None = None,
) -> Callable[[Settings], DataClient]:
    """A client factory for ``CreditscopeApp`` that is creditscope's own, on ``service``
    (or a fresh one from it per client); ``on_record`` is subscribed to every ledger first."""

    def build(settings: Settings) -> DataClient:
        chosen = service if isinstance(service, httpx.AsyncBaseTransport) else service()
        client = explorer_client(settings, service=chosen)
        if on_record is not None:
            client.ledger.subscribe(on_record)
        return client

    return build
