"""Retry rules (counted attempts, no real waiting) and one exception class per meaning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx
import pytest

from client_fakes import FakeService, InstantRetry, error_response
from creditscope import operations
from creditscope.client import errors
from creditscope.client.client import DataClient
from creditscope.client.records import CacheStatus


def _connect_error() -> httpx.ConnectError:
    return httpx.ConnectError("refused")


@pytest.mark.parametrize(
    "failure",
    [
        _connect_error,
        lambda: error_response(503, "service_unavailable"),
        lambda: error_response(429, "rate_limited", **{"Retry-After": "1"}),
    ],
)
async def test_get_retries_twice_then_succeeds(
    client: DataClient, service: FakeService, failure: object
) -> None:
    """Faults after which the request certainly was not charged are retried."""
    service.script = [failure(), failure()]  # type: ignore[operator]
    result = await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert result.data.name == "Tasca"
    assert result.record.attempts == 3
    assert len(service.requests) == 3


@pytest.mark.parametrize(
    ("failure", "lost"),
    [
        (lambda: httpx.ReadTimeout("slow"), True),
        (lambda: httpx.ReadError("Connection reset by peer"), True),
        (lambda: httpx.RemoteProtocolError("peer closed the connection"), True),
        (lambda: httpx.Response(502, text="<html>bad gateway</html>"), False),
        (lambda: httpx.Response(504, text=""), False),
    ],
)
async def test_a_get_that_may_have_been_charged_is_sent_once_and_said_possibly_charged(
    client: DataClient, service: FakeService, failure: object, lost: bool,
) -> None:
    """Issue 35: an answer lost after the request left (or a gateway's word that the
    service may have had it) is never re-sent by the client on its own: one request,
    one price at most, and a lost answer is possibly charged that price."""
    service.script = [failure()]  # type: ignore[operator]
    with pytest.raises(errors.CreditscopeError) as caught:
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert len(service.requests) == 1
    price = client.price_of(operations.RESTAURANT_DETAILS.name)
    assert caught.value.possibly_charged == (price if lost else 0)
    record = caught.value.record
    assert record is not None and record.attempts == 1
    assert record.possibly_charged == (price if lost else 0)
    assert client.ledger.session_totals().possibly_charged == (price if lost else 0)


async def test_get_gives_up_after_two_retries(client: DataClient, service: FakeService) -> None:
    service.script = [error_response(503, "service_unavailable")] * 3
    with pytest.raises(errors.ServiceUnavailable) as caught:
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert len(service.requests) == 3
    assert caught.value.record is not None and caught.value.record.attempts == 3


async def test_get_does_not_retry_a_plain_server_error(
    client: DataClient, service: FakeService
) -> None:
    service.script = [error_response(500, "internal_error")]
    with pytest.raises(errors.ServerError):
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert len(service.requests) == 1


async def test_backoff_doubles_with_jitter(retry: InstantRetry) -> None:
    for n, base in enumerate([0.5, 1, 2, 4, 8, 8]):
        assert base <= retry.backoff(n) <= base * 1.25


async def test_retry_after_is_honoured_in_seconds_and_as_a_date(
    client: DataClient, service: FakeService, retry: InstantRetry
) -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=20), usegmt=True)
    service.script = [
        error_response(429, "rate_limited", **{"Retry-After": "7"}),
        error_response(429, "rate_limited", **{"Retry-After": when}),
    ]
    await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert retry.delays[0] == 7
    assert 15 < retry.delays[1] <= 20


async def test_retry_after_beyond_30_seconds_raises_rate_limited(
    client: DataClient, service: FakeService
) -> None:
    service.script = [error_response(429, "rate_limited", **{"Retry-After": "120"})]
    with pytest.raises(errors.RateLimited) as caught:
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert caught.value.retry_after == 120
    assert len(service.requests) == 1


async def test_post_is_not_retried_once_it_may_have_reached_the_server(
    client: DataClient, service: FakeService
) -> None:
    for failure in (httpx.ReadTimeout("slow"), error_response(503, "service_unavailable"),
                    httpx.Response(502, text="")):
        service.requests.clear()
        service.script = [failure]
        with pytest.raises(errors.CreditscopeError):
            await client.call(operations.FIND_COMPANY, {"name": "Acme"}, refresh=True)
        assert len(service.requests) == 1


async def test_post_retries_connect_errors_and_429_with_one_idempotency_key(
    client: DataClient, service: FakeService
) -> None:
    service.script = [_connect_error(), error_response(429, "rate_limited")]
    result = await client.call(operations.FIND_COMPANY, {"name": "Acme"})
    assert result.record.credits_charged == 10
    keys = {request.headers["Idempotency-Key"] for request in service.requests}
    assert len(service.requests) == 3 and len(keys) == 1
    await client.call(operations.FIND_COMPANY, {"name": "Acme"}, refresh=True)
    assert service.requests[-1].headers["Idempotency-Key"] not in keys


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (error_response(401, "invalid_api_key"), errors.InvalidApiKey),
        (error_response(402, "insufficient_credits"), errors.InsufficientCredits),
        (error_response(404, "not_found"), errors.NotFound),
        (error_response(400, "invalid_parameter"), errors.InvalidRequest),
        (error_response(413, "payload_too_large"), errors.InvalidRequest),
        (error_response(500, "internal_error"), errors.ServerError),
        (httpx.Response(418, text="teapot"), errors.UnexpectedResponse),
        (httpx.Response(200, text="<html>not json</html>"), errors.UnexpectedResponse),
        (httpx.Response(200, json={"id": "r1"}), errors.UnexpectedResponse),  # no name
        (httpx.Response(200, json=[1, 2]), errors.UnexpectedResponse),
    ],
)
async def test_each_answer_maps_to_its_exception(
    client: DataClient, service: FakeService, answer: httpx.Response,
    expected: type[errors.CreditscopeError],
) -> None:
    service.script = [answer]
    with pytest.raises(expected) as caught:
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert type(caught.value) is expected
    assert caught.value.status == answer.status_code
    assert caught.value.body == answer.text
    record = client.ledger.session_records[-1]
    assert record.status == answer.status_code and not record.ok
    assert client.cache_state("restaurants/details", {"id": "r1"}) is CacheStatus.MISS


async def test_error_carries_code_message_reason_and_request_id(
    client: DataClient, service: FakeService
) -> None:
    service.script = [httpx.Response(
        404,
        json={"error": {"code": "not_found", "message": "no such company", "reason": "no_hits"}},
        headers={"X-Request-Id": "req_42"},
    )]
    with pytest.raises(errors.NotFound) as caught:
        await client.call(operations.FIND_COMPANY, {"name": "Nobody"})
    assert (caught.value.code, caught.value.message, caught.value.reason) == (
        "not_found", "no such company", "no_hits")
    assert caught.value.request_id == "req_42"


async def test_transport_failures_become_timeout_and_connection_failed(
    client: DataClient, service: FakeService
) -> None:
    service.script = [httpx.ReadTimeout("slow")] * 3
    with pytest.raises(errors.Timeout):
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    service.script = [_connect_error()] * 3
    with pytest.raises(errors.ConnectionFailed):
        await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})


async def test_unknown_fields_are_kept(client: DataClient, service: FakeService) -> None:
    service.script = [httpx.Response(200, json={"id": "r1", "name": "Tasca", "vibe": "cosy"})]
    result = await client.call(operations.RESTAURANT_DETAILS, {"id": "r1"})
    assert result.data.model_extra == {"vibe": "cosy"}


async def test_failed_call_is_charged_only_when_the_service_says_so(
    client: DataClient, service: FakeService
) -> None:
    service.script = [error_response(404, "not_found")]
    with pytest.raises(errors.NotFound):
        await client.call(operations.RESTAURANT_MENU, {"id": "zz"})
    assert client.ledger.session_records[-1].credits_charged == 0
    service.script = [httpx.Response(200, text="oops", headers={"X-Credits-Charged": "5"})]
    with pytest.raises(errors.UnexpectedResponse):
        await client.call(operations.RESTAURANT_MENU, {"id": "zz"})
    assert client.ledger.session_records[-1].credits_charged == 5
    assert client.ledger.session_totals().errors == 2
