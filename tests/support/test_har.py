"""HAR 1.2 out and in: the calls written as a HAR (key masked, credits as a custom
field) read back as the same requests; a browser's export (other hosts, a CORS
preflight, binary bodies) read for this service's requests only; nothing sent."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from creditscope.client.client import DataClient
from creditscope.client.errors import InvalidRequest
from creditscope.client.history import HistoryQuery
from creditscope.sandbox import DEMO_KEY, SANDBOX_BASE_URL
from creditscope.settings import Settings
from creditscope.support import har_file
from creditscope.support.har_export import CUSTOM_FIELD, har_export
from creditscope.support.har_import import (
    ImportProblem,
    cost_to_fetch,
    parse_har,
    pasted_har_path,
    priced,
    read_har,
)
from creditscope.support.request_import import HAR_KEY_DROPPED
from creditscope.wiring import build_client

FIXTURES = Path(__file__).parent / "fixtures"
CHROME_EXPORT = FIXTURES / "chrome-export.har"
CUSTOMER_SERVICE = "https://api.dataservice.example"
CUSTOMER_KEY = "sk_live_customer_SECRET_1234"


@pytest.fixture
async def sandbox(tmp_path: Path) -> AsyncIterator[DataClient]:
    """The built-in sandbox as a user has it: a ledger file and a cache on disk."""
    client = build_client(Settings(data_dir=tmp_path / "data", cache_dir=tmp_path / "cache",
                                   config_file=tmp_path / "config.toml"))
    yield client
    await client.aclose()
    client.ledger.close()


async def test_exported_calls_import_as_the_same_requests_without_the_key(
    sandbox: DataClient, tmp_path: Path
) -> None:
    await sandbox.call("restaurants/search", {"location": "Lisbon", "cuisine": "thai"})
    await sandbox.call("professional_network/find_company", {"name": "Northwind Labs"})
    await sandbox.call("restaurants/search", {"location": "Lisbon", "cuisine": "thai"})  # hit
    with pytest.raises(InvalidRequest):
        await sandbox.call("restaurants/search", {"location": "Lisbon", "limit": 999})
    entries = sandbox.ledger.history.find(HistoryQuery())
    records = {r.history_id: r for r in sandbox.ledger.session_records}
    export = await har_export(sandbox, [(e, records.get(e.id)) for e in entries])
    text = export.text()
    assert (export.written, export.not_sent) == (3, 1)  # the refused call never left
    assert DEMO_KEY not in text and DEMO_KEY[-8:] not in text
    log = json.loads(text)["log"]
    assert log["version"] == "1.2"
    figures = [entry[CUSTOM_FIELD] for entry in log["entries"]]
    assert [(f["credits_charged"], f["credits_saved"], f["cache"]) for f in figures] == [
        (2, 0, "miss"), (10, 0, "miss"), (0, 2, "hit")]
    assert all(f["cache_now"] == "fresh" for f in figures)
    assert log["entries"][1]["request"]["postData"]["text"] == '{"name": "Northwind Labs"}'

    path = tmp_path / "calls.har"
    path.write_text(text)
    reading = read_har(path, sandbox.base_url)
    sent = sorted((e.operation, json.dumps(e.params, sort_keys=True, default=str))
                  for e in entries if e.outcome != "refused")
    read = sorted((r.imported.operation,
                   json.dumps(sandbox.validate(r.imported.operation, r.imported.params),
                              sort_keys=True, default=str))
                  for r in reading.requests if r.imported)
    assert read == sent
    items = priced(sandbox, reading.requests)
    assert [item.now for item in items] == ["cached · free"] * 3  # what each returns now
    assert cost_to_fetch(items) == 0
    assert len(sandbox.ledger.session_records) == 4  # reading and pricing sent nothing


def test_a_browser_export_lists_this_services_requests_and_skips_the_rest() -> None:
    reading = parse_har(CHROME_EXPORT.read_bytes(), CUSTOMER_SERVICE)
    assert reading.other_hosts == {"app.customer.example": 2, "fonts.gstatic.com": 1,
                                   "www.google-analytics.com": 1}
    assert reading.preflights == 1 and reading.unreadable == 0
    assert "4 entries for 3 other hosts skipped" in reading.skipped_text()
    listed = [(r.number, r.imported.operation if r.imported else None,
               dict(r.imported.params) if r.imported else None, r.status_seen)
              for r in reading.requests]
    assert listed == [
        (5, "professional_network/find_company",
         {"name": "Northwind Labs Ltd", "website": "northwind.com"}, 200),
        (6, "restaurants/search", {"location": "Lisbon", "cuisine": "thai", "limit": "5"}, 200),
        (7, "restaurants/details", {"id": "rst_lisbon_pt_004"}, 200),
        (8, None, None, 404),
    ]
    company, search = reading.requests[0].imported, reading.requests[1].imported
    assert company is not None and search is not None
    assert HAR_KEY_DROPPED in company.notes and HAR_KEY_DROPPED in search.notes  # header, Bearer
    assert "not a path of this service" in (reading.requests[3].problem or "")
    assert CUSTOMER_KEY not in repr(reading)


# Each browser's "Save all as HAR" of a customer's page calling their service (the live
# host, or their own gateway): the entries that are requests of this service, by number.
BROWSER_EXPORTS = {
    "chrome-export.har": ("api.dataservice.example", [
        (5, "professional_network/find_company",
         {"name": "Northwind Labs Ltd", "website": "northwind.com"}),
        (6, "restaurants/search", {"location": "Lisbon", "cuisine": "thai", "limit": "5"}),
        (7, "restaurants/details", {"id": "rst_lisbon_pt_004"}),
        (8, None, None),  # its favicon: listed, not a request
    ]),
    "firefox-export.har": ("api.example.com", [
        (4, "professional_network/find_company",
         {"name": "Contoso Pharmaceuticals", "website": "contoso.com"}),
        (5, "restaurants/search", {"location": "Lisbon", "cuisine": "italian", "limit": "5"}),
        (6, "restaurants/reviews", {"id": "rst_lisbon_pt_011"}),
    ]),
    "edge-export.har": ("data.fabrikam-gateway.example", [
        (2, "professional_network/find_company",
         {"name": "Fabrikam, Inc.", "website": "fabrikam.com"}),
        (3, "ticketing/discovery", {"lat": "47.6062", "lng": "-122.3321", "limit": "5"}),
        (4, "restaurants/menu", {"id": "rst_lisbon_pt_002"}),
        (5, None, None),  # the gateway's /healthz
    ]),
}


@pytest.mark.parametrize("name", sorted(BROWSER_EXPORTS))
def test_a_customers_export_is_replayed_on_the_sandbox_with_a_note_naming_their_host(
    name: str,
) -> None:
    """The rule of a pasted curl for another host: on the built-in sandbox it is replayed
    there, and says which host the customer called; the page's other hosts are skipped."""
    host, expected = BROWSER_EXPORTS[name]
    reading = parse_har((FIXTURES / name).read_bytes(), SANDBOX_BASE_URL)
    listed = [(r.number, r.imported.operation if r.imported else None,
               dict(r.imported.params) if r.imported else None) for r in reading.requests]
    assert listed == expected
    assert host not in reading.other_hosts and reading.other_hosts
    for request in reading.requests:
        if request.imported is not None:
            assert request.imported.notes == (
                HAR_KEY_DROPPED,
                f"Replayed on the sandbox (demo data); the customer called {host}.")
        else:
            assert "not a path of this service" in (request.problem or "")
    assert CUSTOMER_KEY not in repr(reading)


@pytest.mark.parametrize("name", sorted(BROWSER_EXPORTS))
def test_on_a_live_service_another_hosts_requests_are_skipped(name: str) -> None:
    """The same rule on a live service: the configured key never goes to another host."""
    reading = parse_har((FIXTURES / name).read_bytes(), "https://api.other-service.example")
    assert reading.requests == []
    assert BROWSER_EXPORTS[name][0] in reading.other_hosts


async def test_a_browser_exports_requests_are_priced_as_they_would_cost_now(
    tmp_path: Path,
) -> None:
    client = build_client(Settings(base_url=CUSTOMER_SERVICE, data_dir=tmp_path / "data",
                                   cache_dir=tmp_path / "cache",
                                   config_file=tmp_path / "config.toml"))
    items = priced(client, read_har(CHROME_EXPORT, client.base_url).requests)
    await client.aclose()
    assert [(item.price, item.now) for item in items][:3] == [
        (10, "10 cr"), (2, "2 cr"), (2, "2 cr")]
    assert items[3].now.startswith("not a request:") and not items[3].sendable
    assert cost_to_fetch(items) == 14
    assert client.ledger.session_records == []


def har_with(post_data: dict[str, str]) -> str:
    return json.dumps({"log": {"version": "1.2", "entries": [{
        "startedDateTime": "2026-11-20T09:00:00Z",
        "request": {"method": "POST", "url": f"{CUSTOMER_SERVICE}/professional_network/"
                    "find_company", "headers": [], "postData": post_data},
        "response": {"status": 200}}]}})


def test_request_bodies_in_base64_are_read_and_binary_ones_refused() -> None:
    body = base64.b64encode(b'{"name": "Acme"}').decode()
    [readable] = parse_har(har_with({"mimeType": "application/json", "text": body,
                                     "encoding": "base64"}), CUSTOMER_SERVICE).requests
    assert readable.imported is not None and readable.imported.params == {"name": "Acme"}
    binary = base64.b64encode(bytes(range(256))).decode()
    [refused] = parse_har(har_with({"mimeType": "application/octet-stream", "text": binary,
                                    "encoding": "base64"}), CUSTOMER_SERVICE).requests
    assert refused.imported is None and "binary" in (refused.problem or "")


@pytest.mark.parametrize(("text", "words"), [
    ("not json", "not JSON"),
    ('{"log": {}}', "no log.entries"),
    ("[1, 2]", "no log.entries"),
])
def test_what_is_not_a_har_file_is_explained(text: str, words: str) -> None:
    with pytest.raises(ImportProblem, match=words):
        parse_har(text, CUSTOMER_SERVICE)


def test_a_huge_file_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(har_file, "MAX_HAR_BYTES", 1024)
    big = tmp_path / "huge.har"
    big.write_text(" " * 4096)
    with pytest.raises(ImportProblem, match="not read"):
        read_har(big, CUSTOMER_SERVICE)
    with pytest.raises(ImportProblem, match="Cannot read"):
        read_har(tmp_path / "missing.har", CUSTOMER_SERVICE)


@pytest.mark.parametrize(("pasted", "path"), [
    ("/tmp/ticket 4821.har", "/tmp/ticket 4821.har"),
    ("'/tmp/ticket 4821.har'", "/tmp/ticket 4821.har"),
    ("/tmp/ticket\\ 4821.HAR", "/tmp/ticket 4821.HAR"),
    ("file:///tmp/t.har", "/tmp/t.har"),
    ("curl https://x.test/a.har", None),
    ("https://api.test/restaurants/search?location=a", None),
])
def test_a_pasted_path_of_a_har_file_is_recognised(pasted: str, path: str | None) -> None:
    found = pasted_har_path(pasted)
    assert (str(found) if found else None) == path


def test_a_pasted_path_that_cannot_open_says_why_before_open_is_offered(tmp_path: Path) -> None:
    from creditscope.support.har_import import pasted_file_problem

    missing, other = tmp_path / "ticket 4821.har", tmp_path / "export.json"
    other.write_text("{}")
    assert f"No file at {missing}" in (pasted_file_problem(f"'{missing}'") or "")
    assert "is not a HAR file" in (pasted_file_problem(str(other)) or "")
    assert pasted_file_problem(str(CHROME_EXPORT)) is None  # a HAR file: Open is offered
    for request in ("https://api.example.com/restaurants/search?location=Lisbon",
                    "curl https://api.example.com/catalog", '{"name": "Northwind"}'):
        assert pasted_file_problem(request) is None


# --- what a support desk trial found (a customer's retried form, a developer's laptop,
# an interrupted download, a long session) ------------------------------------------------

RETYPED = FIXTURES / "chrome-retyped-lookups.har"


async def test_two_spellings_of_one_request_are_priced_once(sandbox: DataClient) -> None:
    """The customer's form sent one lookup twice as typed ("NORTHWIND LABS LTD ", with
    https://www.), and one search twice in other case: the service answers each pair
    alike (the cache and a batch count them once), so fetching them costs 10 + 2 cr."""
    reading = parse_har(RETYPED.read_bytes(), sandbox.base_url)
    items = priced(sandbox, reading.requests)
    assert [item.price for item in items] == [10, 10, 2, 2, 0]
    assert cost_to_fetch(items) == 12
    assert items[0].same_as == items[1].same_as and items[2].same_as == items[3].same_as
    assert sandbox.ledger.session_records == []


def test_a_har_entry_is_explained_in_a_hars_words() -> None:
    """The customer's page sent the lookup with GET: what the page must do, not a curl
    option; the key in its headers is said to be dropped from the HAR."""
    reading = parse_har(RETYPED.read_bytes(), CUSTOMER_SERVICE)
    wrong = reading.requests[-1]
    assert wrong.problem == (
        "/professional_network/find_company is a POST request, but the browser sent GET: "
        "the customer's page must send POST, with its values in a JSON body.")
    assert "-G" not in wrong.problem and "curl" not in wrong.problem
    first = reading.requests[0].imported
    assert first is not None and first.notes == (HAR_KEY_DROPPED,)
    assert "Pasted" not in repr(reading) and CUSTOMER_KEY not in repr(reading)


def test_every_spelling_of_this_machine_is_the_configured_local_service() -> None:
    """A developer's HAR against the service on their laptop: localhost, 127.0.0.1 and
    ::1 are the one host; another port is another service."""
    reading = parse_har((FIXTURES / "localhost-dev.har").read_bytes(), "http://127.0.0.1:19280")
    assert [(r.number, r.imported.operation if r.imported else r.problem)
            for r in reading.requests] == [
        (1, "restaurants/search"), (2, "restaurants/details"), (3, "restaurants/menu")]
    assert all(r.imported is not None and r.imported.notes == () for r in reading.requests)
    assert reading.other_hosts == {"localhost": 1}  # :19281


CUT_SHORT = FIXTURES / "chrome-export-cut-short.har"


def test_a_har_cut_short_is_said_so_before_open_and_when_read() -> None:
    """An interrupted download: the Import dialog says it before offering Open, in the
    words reading it says (what happened, and to ask for the file again)."""
    from creditscope.support.har_import import pasted_file_problem

    before_open = pasted_file_problem(str(CUT_SHORT))
    with pytest.raises(ImportProblem) as read:
        read_har(CUT_SHORT, CUSTOMER_SERVICE)
    assert before_open == str(read.value)
    assert before_open.startswith(f"This HAR file is cut short: it stops after "
                                  f"{CUT_SHORT.stat().st_size:,} bytes")
    assert "save the HAR again" in before_open


def test_a_long_sessions_har_is_read_whole(tmp_path: Path) -> None:
    """10,500 entries (a morning of a single-page app, fonts and beacons), the service's
    five last: read, each entry counted (no limit on their number: their size has one)."""
    document = json.loads(CHROME_EXPORT.read_text())
    browsing = [entry for entry in document["log"]["entries"]
                if "dataservice" not in entry["request"]["url"]]
    ours = [entry for entry in document["log"]["entries"]
            if "dataservice" in entry["request"]["url"]]
    document["log"]["entries"] = (browsing * 2_700)[:10_495] + ours
    path = tmp_path / "long-session.har"
    path.write_text(json.dumps(document))
    reading = read_har(path, CUSTOMER_SERVICE)
    assert [r.number for r in reading.requests] == [10_497, 10_498, 10_499, 10_500]
    assert reading.preflights == 1
    assert reading.skipped == 10_495
