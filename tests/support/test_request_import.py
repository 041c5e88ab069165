"""The parse table: curl forms, full URLs and JSON bodies a customer might paste."""

from __future__ import annotations

from typing import Any

import pytest

from creditscope.support.request_import import (
    KEY_REPLACED,
    ImportedRequest,
    ImportProblem,
    import_request,
)

BASE = "https://api.example.com"
SECRET = "sk_live_customer_SECRET_9876"
FIND = "professional_network/find_company"
SEARCH = "restaurants/search"

# (pasted text, operation, params)
RECOGNISED: list[tuple[str, str, dict[str, Any]]] = [
    # curl, the way the docs show it
    (f"curl -X POST {BASE}/professional_network/find_company -H 'X-API-Key: {SECRET}' "
     "-H 'Content-Type: application/json' -d '{\"name\": \"Northwind Ltd\"}'",
     FIND, {"name": "Northwind Ltd"}),
    # line continuations, --request, --header, --data-raw, Bearer
    (f"curl --request POST \\\n  --url {BASE}/professional_network/find_company \\\n"
     f"  --header 'Authorization: Bearer {SECRET}' \\\n"
     "  --data-raw '{\"name\":\"Acme\",\"website\":\"acme.com\"}'",
     FIND, {"name": "Acme", "website": "acme.com"}),
    # CRLF continuations with trailing spaces, --json implies POST
    (f"curl {BASE}/professional_network/find_company \\  \r\n --json '{{\"name\": \"Acme\"}}'",
     FIND, {"name": "Acme"}),
    # clustered short options, -XPOST, -d without -X (POST implied)
    (f"curl -sSL -XPOST '{BASE}/professional_network/find_company' -d '{{\"name\":\"A\"}}'",
     FIND, {"name": "A"}),
    # a form-encoded body for the JSON endpoint
    (f"curl {BASE}/professional_network/find_company -d 'name=Acme+Inc&website=acme.com'",
     FIND, {"name": "Acme Inc", "website": "acme.com"}),
    # -G moves -d and --data-urlencode into the query
    (f"curl -G {BASE}/restaurants/search -d location=Lisbon --data-urlencode 'cuisine=thai' "
     f"-H 'X-API-Key: {SECRET}'",
     SEARCH, {"location": "Lisbon", "cuisine": "thai"}),
    (f"curl --get '{BASE}/restaurants/search?limit=5' --data-urlencode 'location=São Paulo'",
     SEARCH, {"limit": "5", "location": "São Paulo"}),
    # a prompt sign and the query in the URL
    (f"$ curl -s '{BASE}/restaurants/reviews?id=r_1&limit=3'",
     "restaurants/reviews", {"id": "r_1", "limit": "3"}),
    # a PowerShell console's ">> " inside a quoted body; a copied log line's trailing spaces
    ("PS C:\\> curl.exe -X POST https://api.example.com/professional_network/find_company "
     "-d '{\r\n>> \\\"name\\\": \\\"Contoso\\\"\r\n>> }'\r\n", FIND, {"name": "Contoso"}),
    ("GET /restaurants/menu?id=r_9 HTTP/1.1  \r\nHost: api.example.com \r\n\r\n",
     "restaurants/menu", {"id": "r_9"}),
    # wget's -nv and -O- read past; --header=... with the key
    (f"wget -nv -O- --header='X-API-Key: {SECRET}' '{BASE}/restaurants/menu?id=r_9'",
     "restaurants/menu", {"id": "r_9"}),
    # full URLs
    (f"{BASE}/restaurants/search?location=Lisbon&cuisine=thai",
     SEARCH, {"location": "Lisbon", "cuisine": "thai"}),
    (f"{BASE}/ticketing/discovery?lat=38.7&lng=-9.1", "ticketing/discovery",
     {"lat": "38.7", "lng": "-9.1"}),
    ("api.example.com/restaurants/menu?id=r_9", "restaurants/menu", {"id": "r_9"}),
    ("/restaurants/details?id=r_9", "restaurants/details", {"id": "r_9"}),
    (f"{BASE}/catalog", "catalog", {}),
    # a key in the query string is dropped too
    (f"{BASE}/restaurants/details?id=r_9&api_key={SECRET}", "restaurants/details",
     {"id": "r_9"}),
    # JSON bodies
    ('{"name": "Northwind Labs Ltd", "website": "northwind.com"}', FIND,
     {"name": "Northwind Labs Ltd", "website": "northwind.com"}),
    ('{\n  "name": "Acme"\n}', FIND, {"name": "Acme"}),
    ('{"name": "Foodapp", "url": "https://food.example", "email": "a@b.example"}',
     "provider-requests", {"name": "Foodapp", "url": "https://food.example",
                           "email": "a@b.example"}),
]


@pytest.mark.parametrize(("text", "operation", "params"), RECOGNISED)
def test_recognised(text: str, operation: str, params: dict[str, Any]) -> None:
    imported = import_request(text, BASE)
    assert (imported.operation, imported.params) == (operation, params)
    assert imported.problem is None


@pytest.mark.parametrize("text", [row[0] for row in RECOGNISED if SECRET in row[0]])
def test_the_pasted_key_is_never_kept_and_its_replacement_is_noted(text: str) -> None:
    imported = import_request(text, BASE)
    assert SECRET not in repr(imported)
    assert KEY_REPLACED in imported.notes


# (pasted text, words the explanation must contain)
REFUSED: list[tuple[str, tuple[str, ...]]] = [
    (f"curl -X POST {BASE}/professional_network/find_company --data @body.json",
     ("body.json", "cannot read files")),
    (f"curl {BASE}/professional_network/find_company --data-binary @/tmp/x.json",
     ("/tmp/x.json", "cannot read files")),
    (f"curl -G {BASE}/restaurants/search --data-urlencode location@places.txt",
     ("places.txt", "cannot read files")),
    (f"curl {BASE}/professional_network/find_company --json @req.json", ("req.json",)),
    (f"curl -F name=Acme {BASE}/professional_network/find_company", ("multipart",)),
    (f"curl -H 'X-API-Key: {SECRET}' https://other.example.net/restaurants/search?location=x",
     ("other.example.net", "api.example.com", "Nothing was imported")),
    (f"curl https://user:{SECRET}@evil.example/catalog", ("evil.example",)),
    (f"curl {BASE}/restaurants/nearby?location=x", ("/restaurants/nearby", "Known paths")),
    (f"curl -X POST {BASE}/professional_network/find_company -d '{{\"name\": \"A\"'",
     ("malformed", "line 1")),
    (f"curl -X POST '{BASE}/professional_network/find_company -d x", ("quote",)),
    (f"curl -G {BASE}/professional_network/find_company -d name=Acme",
     ("POST", "GET", "-G")),
    (f"curl {BASE}/restaurants/search -d location=Lisbon", ("GET", "-G")),
    (f"curl -X DELETE {BASE}/catalog", ("GET", "DELETE")),
    (f"curl --frobnicate {BASE}/catalog", ("--frobnicate",)),
    ("curl -s -H 'Accept: application/json'", ("no URL",)),
    (f"curl {BASE}/catalog {BASE}/catalog", ("2 URLs",)),
    (f"curl -H X-API-Key: {SECRET}", ("no host name",)),  # the key, unquoted, read as the URL
    ("lynx -dump api.example.com/catalog",
     ("not a command (curl, wget, HTTPie, PowerShell), a raw HTTP request",)),
    ("wget --mirror https://api.example.com/catalog", ("wget option --mirror",)),
    ("wget --body-data='{\"name\":\"A\"}' https://api.example.com/professional_network/"
     "find_company", ("--body-data only with --method",)),
    ("wget --post-file=company.json https://api.example.com/professional_network/"
     "find_company", ("file 'company.json'", "--post-data")),
    ("POST /professional_network/find_company HTTP/1.1\r\nAccept: */*\r\n\r\n{}",
     ("no Host header",)),
    ("", ("Nothing to import",)),
    ('["name"]', ("object",)),
    ('{"location": "Lisbon"}', ("location", "paste its URL")),
]


@pytest.mark.parametrize(("text", "words"), REFUSED)
def test_refused_with_an_explanation(text: str, words: tuple[str, ...]) -> None:
    with pytest.raises(ImportProblem) as caught:
        import_request(text, BASE)
    for word in words:
        assert word in str(caught.value)
    assert SECRET not in str(caught.value)


def test_invalid_values_are_imported_with_the_validation_problem() -> None:
    imported = import_request(f"{BASE}/restaurants/search?location=Lisbon&limit=99", BASE)
    assert imported.params == {"location": "Lisbon", "limit": "99"}
    assert imported.problem is not None and imported.problem.field == "limit"


def test_control_characters_in_a_body_are_a_validation_problem() -> None:
    imported = import_request('{"name": "Acme\\u0007"}', BASE)
    assert imported.problem is not None and imported.problem.field == "name"


def test_a_base_path_is_respected() -> None:
    base = "https://api.example.com/v2"
    imported = import_request("https://api.example.com/v2/restaurants/menu?id=r_1", base)
    assert imported.operation == "restaurants/menu"
    with pytest.raises(ImportProblem, match="base path"):
        import_request("https://api.example.com/restaurants/menu?id=r_1", base)


def test_the_sandbox_address_imports_on_the_sandbox() -> None:
    from creditscope.sandbox import SANDBOX_BASE_URL

    imported: ImportedRequest = import_request(f"{SANDBOX_BASE_URL}/catalog", SANDBOX_BASE_URL)
    assert imported.operation == "catalog"


@pytest.mark.parametrize("text", [row[0] for row in RECOGNISED] + [
    f"curl -u admin:{SECRET} {BASE}/catalog",
    f"curl --cookie 'session={SECRET}' {BASE}/catalog",
    f"curl https://user:{SECRET}@api.example.com/catalog",
    f"X-API-Key: {SECRET}",
    f"http api.example.com/restaurants/menu id==r_1 api_key=={SECRET}",
    f"curl -b 'session={SECRET}; theme=dark' {BASE}/catalog",
])
def test_redacted_text_keeps_the_request_but_not_the_key(text: str) -> None:
    from creditscope.support.curl_parse import redact_credentials

    shown = redact_credentials(text)
    assert SECRET not in shown
    if text in [row[0] for row in RECOGNISED]:
        again = import_request(shown, BASE)
        original = import_request(text, BASE)
        assert (again.operation, again.params) == (original.operation, original.params)


def test_a_10kb_company_name_is_a_validation_problem() -> None:
    imported = import_request('{"name": "' + "x" * 10_240 + '"}', BASE)
    assert imported.problem is not None and imported.problem.field == "name"
    assert "at most" in imported.problem.message


# --- what a support desk trial pasted -------------------------------------------------

LOCAL = "http://127.0.0.1:19280"


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "LOCALHOST."])
def test_every_spelling_of_this_machine_is_the_configured_local_service(host: str) -> None:
    imported = import_request(f"curl 'http://{host}:19280/restaurants/search?location=Porto'",
                              LOCAL)
    assert (imported.operation, imported.params) == (SEARCH, {"location": "Porto"})
    assert imported.notes == ()


def test_another_port_of_this_machine_is_another_service_named_as_users_name_it() -> None:
    with pytest.raises(ImportProblem) as refused:
        import_request("curl http://localhost:19281/catalog", "http://user:pw@127.0.0.1:19280")
    assert str(refused.value) == ("The request is for localhost:19281, but creditscope is "
                                  "connected to 127.0.0.1:19280. Nothing was imported.")
    with pytest.raises(ImportProblem, match=r"for other\.example\.net, but .* to api\.example"
                                            r"\.com\. "):
        import_request("curl https://other.example.net:443/catalog", "https://api.example.com:443")


def test_curl_v_request_lines_alone_are_the_request_they_show() -> None:
    """Only the "> " lines, as a customer selects them from the console."""
    imported = import_request(
        f"> GET /restaurants/details?id=rst_lisbon_pt_004 HTTP/2\n> Host: api.example.com\n"
        f"> user-agent: curl/8.7.1\n> accept: */*\n> x-api-key: {SECRET}\n> \n", BASE)
    assert (imported.operation, imported.params) == (
        "restaurants/details", {"id": "rst_lisbon_pt_004"})
    assert imported.source == "curl -v output" and KEY_REPLACED in imported.notes
    assert SECRET not in repr(imported)


def test_a_bash_continuation_prompt_is_not_curl_v_output() -> None:
    imported = import_request(
        f"$ curl -X POST {BASE}/professional_network/find_company \\\n"
        "> -H 'Content-Type: application/json' \\\n> -d '{\"name\": \"Acme\"}'", BASE)
    assert (imported.operation, imported.params) == (FIND, {"name": "Acme"})


@pytest.mark.parametrize("message", [
    f"could you look at <{BASE}/restaurants/details?id=r_9>? it 404s",  # Slack's link
    f"This call: `{BASE}/restaurants/details?id=r_9`.",  # Markdown code
    f"Our site https://www.customer.example/menu calls {BASE}/restaurants/details?id=r_9, "
    "which fails.",  # another host's URL beside it
])
def test_the_url_in_a_chat_message_is_read(message: str) -> None:
    imported = import_request(message, BASE)
    assert (imported.operation, imported.params) == ("restaurants/details", {"id": "r_9"})
    assert imported.notes == ("Read the URL in the pasted text; the rest of it was not read.",)


def test_a_message_naming_two_requests_or_none_says_so() -> None:
    with pytest.raises(ImportProblem, match="names 2 requests of this service"):
        import_request(f"first {BASE}/catalog then {BASE}/restaurants/search?location=x", BASE)
    with pytest.raises(ImportProblem, match="/docs is not a path of this service"):
        import_request(f"see {BASE}/docs please", BASE)


@pytest.mark.parametrize(("message", "operation", "params"), [
    # a sentence after the command only
    (f"curl '{BASE}/restaurants/search?location=Lisbon' -H 'X-API-Key: {SECRET}'\n\n"
     "This returns an empty list since Monday.", SEARCH, {"location": "Lisbon"}),
    # a body over several lines, quoted: the command goes on until its quote closes
    (f"Here is the call:\ncurl {BASE}/professional_network/find_company -d '{{\n"
     '  "name": "Acme",\n  "website": "acme.com"\n}\'\nthanks', FIND,
     {"name": "Acme", "website": "acme.com"}),
])
def test_the_one_command_in_a_message_is_read_whole(
    message: str, operation: str, params: dict[str, Any],
) -> None:
    imported = import_request(message, BASE)
    assert (imported.operation, imported.params) == (operation, params)
    assert imported.notes[0] == (
        "Read the command in the pasted text; the sentences around it were not read.")
