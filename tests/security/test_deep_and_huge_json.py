"""JSON from outside nested absurdly deep, or absurdly large: a service's answer, a pasted
curl, a HAR's request body. Each is refused with a clear message naming the limit (no
traceback); a refused answer is not cached, and the charge the service announced is
still in the books; rows past the requested limit are dropped with a note."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner, Result
from hostile_corpus import DEEP_JSON, SHALLOW_JSON, deep_answer

from client_fakes import FakeService, commands_talk_to
from creditscope import json_limits
from creditscope.cli import main
from creditscope.sandbox import SANDBOX_BASE_URL

SEARCH = ("call", "restaurants/search", "--location", "Lisbon")
CHARGED = {"X-Credits-Charged": "2", "Content-Type": "application/json"}


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeService]:
    fake = FakeService()
    commands_talk_to(fake, monkeypatch, "sk_live_deep_json_4242")
    yield fake


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def history() -> list[dict[str, object]]:
    listed = run("history", "--json")
    assert listed.exit_code == 0, listed.output
    calls: list[dict[str, object]] = json.loads(listed.stdout)
    return calls


# --- the one parser -------------------------------------------------------------------


@pytest.mark.parametrize("text", DEEP_JSON, ids=lambda text: f"{len(text)}-chars")
def test_json_past_the_depth_limit_is_refused_naming_it(text: str) -> None:
    with pytest.raises(json_limits.JsonTooDeep, match=f"{json_limits.MAX_JSON_DEPTH} levels"):
        json_limits.loads(text)


@pytest.mark.parametrize("text", SHALLOW_JSON, ids=lambda text: f"{len(text)}-chars")
def test_brackets_inside_strings_and_the_limit_itself_parse(text: str) -> None:
    assert json_limits.loads(text) == json.loads(text)


# --- a service's answer ---------------------------------------------------------------


@pytest.mark.parametrize("levels", [900, 200_000])
def test_a_deep_answer_is_a_clear_service_error_not_cached_and_still_booked(
    service: FakeService, levels: int
) -> None:
    for _ in range(2):  # a revisit asks again: nothing was cached
        service.script.append(httpx.Response(200, text=deep_answer(levels), headers=CHARGED))
        result = run(*SEARCH)
        assert result.exit_code == 3, result.output
        assert "deeper than 64 levels" in result.stderr
        assert "Traceback" not in result.output
    assert len(service.requests) == 2
    calls = history()
    assert [call["credits_charged"] for call in calls] == [2, 2]  # the user was charged
    assert {call["error_code"] for call in calls} == {"unexpected_response"}


async def _endless_rows(pulled: list[int]) -> AsyncIterator[bytes]:
    """A search answer whose rows go on for 64 MB, counting what the client pulled."""
    head = b'{"location": "Lisbon", "total": 1, "results": ['
    row = json.dumps({"id": "r", "name": "Tasca", "cuisine": "thai"}).encode() + b","
    chunk = row * (65_536 // len(row))
    for piece in (head, *[chunk] * 1_000):
        pulled[0] += len(piece)
        yield piece


def test_an_answer_past_the_size_cap_stops_reading_and_still_books_the_charge(
    service: FakeService
) -> None:
    from creditscope.client.responses import MAX_ANSWER_BYTES

    pulled = [0]
    service.script.append(
        lambda request: httpx.Response(200, headers=CHARGED, content=_endless_rows(pulled)))
    result = run(*SEARCH)
    assert result.exit_code == 3, result.output
    assert "larger than 4 MB" in result.stderr
    assert pulled[0] <= MAX_ANSWER_BYTES + 65_536  # read no further than the cap
    assert [call["credits_charged"] for call in history()] == [2]


def test_a_compressed_answer_that_unpacks_past_the_cap_is_refused(service: FakeService) -> None:
    import gzip

    bomb = gzip.compress(b'{"location": "Lisbon", "results": ["' + b"A" * 64 * 2**20 + b'"]}')
    service.script.append(httpx.Response(
        200, content=bomb, headers={**CHARGED, "Content-Encoding": "gzip"}))
    result = run(*SEARCH)
    assert result.exit_code == 3, result.output
    assert "larger than 4 MB" in result.stderr
    assert [call["credits_charged"] for call in history()] == [2]


def test_rows_past_the_requested_limit_are_dropped_with_a_note(service: FakeService) -> None:
    rows = [{"id": f"r{i}", "name": f"Tasca {i}", "cuisine": "thai"} for i in range(40)]
    body = {"location": "Lisbon", "total": 40, "results": rows}
    service.script.append(httpx.Response(200, json=body, headers=CHARGED))
    result = run(*SEARCH, "--limit", "3", "--json")
    assert result.exit_code == 0, result.output
    assert [row["id"] for row in json.loads(result.stdout)["results"]] == ["r0", "r1", "r2"]
    assert "40 results for a limit of 3" in result.stderr
    assert "37 past the limit were dropped" in result.stderr


# --- a request read from a paste or a HAR ---------------------------------------------

DEEP_BODY = '{"name": ' + "[" * 5_000 + "]" * 5_000 + "}"
FIND_URL = f"{SANDBOX_BASE_URL}/professional_network/find_company"


@pytest.mark.parametrize("as_json", [False, True])
def test_a_pasted_curl_with_a_deep_body_is_a_usage_error_naming_the_limit(as_json: bool) -> None:
    pasted = f"curl -X POST {FIND_URL} -d '{DEEP_BODY}'"
    result = run("call", "--dry-run", "--from-curl", pasted, *(["--json"] if as_json else []))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    if as_json:
        assert "64 levels" in json.loads(result.stdout)["error"]["message"]
    else:
        assert "64 levels" in result.stderr


def test_a_har_request_with_a_deep_body_is_listed_as_not_a_request(tmp_path: Path) -> None:
    entry = {"request": {"method": "POST", "url": FIND_URL,
                         "headers": [{"name": "Content-Type", "value": "application/json"}],
                         "postData": {"mimeType": "application/json", "text": DEEP_BODY}},
             "response": {"status": 200, "content": {}}}
    har = tmp_path / "deep-body.har"
    har.write_text(json.dumps({"log": {"entries": [entry]}}), "utf-8")
    listed = run("import-har", str(har))
    assert "not a request" in listed.stdout and "64 levels" in listed.stdout, listed.output
    as_json = run("import-har", str(har), "--json")
    assert "64 levels" in json.loads(as_json.stdout)["requests"][0]["problem"]


def test_a_batch_line_nested_deep_is_a_row_problem_and_the_rest_are_read(
    tmp_path: Path
) -> None:
    from creditscope.support.batch_input import BatchFile

    lines = ['{"name": "Contoso Ltd"}', '{"name": ' + "[" * 5_000 + "]" * 5_000 + "}",
             '{"name": "Northwind Labs"}']
    path = tmp_path / "companies.jsonl"
    path.write_text("\n".join(lines) + "\n", "utf-8")
    rows = list(BatchFile(path, "professional_network/find_company"))
    assert [row.params.get("name") for row in rows] == ["Contoso Ltd", None, "Northwind Labs"]
    assert rows[1].problem is not None and "64 levels" in rows[1].problem
