"""What customers really paste: every file in curl_corpus/ imports as expected.toml says.

Browser exports (Chrome, Edge, Firefox; bash and cmd), Postman, Insomnia, HTTPie,
PowerShell, chat-mangled quotes, code pasted by mistake, keys in headers and
queries, our own exports. Pure parsing: nothing is sent.
"""

from __future__ import annotations

import tomllib
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest

from creditscope.sandbox import SANDBOX_BASE_URL
from creditscope.support.curl_parse import redact_credentials
from creditscope.support.request_import import ImportProblem, import_request

CORPUS = Path(__file__).parent / "curl_corpus"
EXPECTED: dict[str, dict[str, dict[str, Any]]] = tomllib.loads(
    (CORPUS / "expected.toml").read_text(encoding="utf-8"))
BASES = {"live": "https://api.example.com", "sandbox": SANDBOX_BASE_URL}
SECRETS = ("sk_live_8Qm2xT7vLp4Rz9Kd", "portal_session=")
PASTES = sorted(path.name for path in CORPUS.glob("*.txt"))
CASES = [(name, base) for name in PASTES for base in EXPECTED.get(name, {})]


def pasted(name: str) -> str:
    """The paste as the clipboard held it: CRLF line ends stay (no newline translation)."""
    return (CORPUS / name).read_bytes().decode("utf-8")


def test_the_corpus_is_realistic_in_number_and_fully_described() -> None:
    assert len(PASTES) >= 30
    assert sorted(EXPECTED) == PASTES  # every paste has its expectation, and no stale one
    # What Windows consoles and HTTP logs write is kept as they write it.
    assert {"powershell-console-continuation-prompts.txt", "cmd-console-more-prompts.txt",
            "raw-http11-proxy-log-find-company.txt"} <= {
        name for name in PASTES if "\r\n" in pasted(name)}


@pytest.mark.parametrize(("name", "base"), CASES)
def test_each_paste_imports_as_expected(name: str, base: str) -> None:
    expected = EXPECTED[name][base]
    if "refused" in expected:
        with pytest.raises(ImportProblem) as refused:
            import_request(pasted(name), BASES[base])
        assert str(refused.value) == expected["refused"]
        shown = str(refused.value)
    else:
        imported = import_request(pasted(name), BASES[base])
        assert (imported.operation, imported.params) == (
            expected["operation"], expected["params"])
        assert list(imported.notes) == expected["notes"]
        # A value the service would refuse is imported with the problem the form shows.
        problem = imported.problem.message if imported.problem else None
        assert problem == expected.get("problem")
        shown = repr(imported)
    for secret in SECRETS:
        assert secret not in shown


@pytest.mark.parametrize("name", PASTES)
def test_the_key_never_shows_and_the_redacted_paste_still_imports_the_same(name: str) -> None:
    """What the Import dialog shows in its paste box keeps the request, not the key."""
    shown = redact_credentials(pasted(name))
    for secret in SECRETS:
        assert secret not in shown
    for base, expected in EXPECTED[name].items():
        if "operation" in expected:
            again = import_request(shown, BASES[base])
            assert (again.operation, again.params) == (expected["operation"], expected["params"])


def test_http_and_https_and_default_ports_are_one_service() -> None:
    for url in ("http://api.example.com/catalog", "https://api.example.com:443/catalog",
                "http://API.example.com:80/catalog", "api.example.com/catalog"):
        assert import_request(url, "https://api.example.com").operation == "catalog"
    with pytest.raises(ImportProblem, match=r"api\.example\.com:8443"):
        import_request("https://api.example.com:8443/catalog", "https://api.example.com")


def test_a_curly_apostrophe_inside_a_name_is_the_customers_data() -> None:
    imported = import_request(
        """curl https://api.example.com/professional_network/find_company """
        """-d '{"name": "McDonald’s Corporation"}'""", "https://api.example.com")
    assert imported.params == {"name": "McDonald’s Corporation"}
    assert imported.notes == ()


# --- our own exports import back -------------------------------------------------------

OWN_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("professional_network/find_company", {"name": "O'Brien & Sons “Ltd”", "website": "x.ie"}),
    ("restaurants/search", {"location": "São Paulo", "cuisine": "thai", "limit": 10}),
    ("ticketing/discovery", {"lat": 38.72, "lng": -9.14, "limit": 5}),
    ("catalog", {}),
]


@pytest.mark.parametrize(("operation", "params"), OWN_REQUESTS)
def test_activitys_copy_as_curl_of_a_sandbox_call_imports_back(
    operation: str, params: dict[str, Any],
) -> None:
    from creditscope.client.curl import LocalService, curl_command, mask_headers
    from creditscope.client.records import CallRecord
    from creditscope.operations import get
    from creditscope.sandbox import DEMO_KEY
    from creditscope.tui.screens.activity_copy import SERVE_ADDRESS, SERVE_COMMAND

    op = get(operation)
    query = "" if op.is_post or not params else "?" + urlencode(params)
    headers = {"X-API-Key": DEMO_KEY, **({"Content-Type": "application/json"} if op.is_post
                                         else {})}
    record = CallRecord(operation, op.method, f"{SANDBOX_BASE_URL}{op.path}{query}", params,
                        request_headers=mask_headers(headers))
    copied = curl_command(record, local=LocalService(SANDBOX_BASE_URL, SERVE_ADDRESS,
                                                     SERVE_COMMAND))
    imported = import_request(copied, SANDBOX_BASE_URL)
    assert imported.operation == operation
    assert imported.params == {name: str(value) if query else value
                               for name, value in params.items()}
    assert imported.problem is None
    assert f"the command was for {SERVE_ADDRESS.partition('//')[2]}" in imported.notes[-1]


def test_the_lookup_report_imports_back_as_its_lookup() -> None:
    from creditscope.client.records import CallRecord
    from creditscope.models import CompanyLookup
    from creditscope.tui.screens.company.report import lookup_report

    for params in ({"name": "Café “Le Zinc”, Paris", "website": "lezinc.fr"},
                   {"name": "Northwind Labs Ltd"}):
        record = CallRecord("professional_network/find_company", "POST", "", params)
        report = lookup_report(CompanyLookup(query=params["name"], matches=[]), params, record,
                               service="https://api.example.com", sandbox=False,
                               now=datetime(2026, 11, 25, tzinfo=UTC))
        imported = import_request(report, "https://api.example.com")
        assert (imported.operation, imported.params) == (
            "professional_network/find_company", params)
