"""Copy as code: a recorded call as a Python (httpx) or JavaScript (fetch) program that
reads the key from the environment, never from the record."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

from creditscope.client.code_snippets import javascript_snippet, python_snippet
from creditscope.client.curl import LocalService
from creditscope.client.records import CallRecord

SANDBOX = "http://sandbox.invalid"
LOCAL = LocalService(SANDBOX, "http://127.0.0.1:8080", "creditscope serve --port 8080")
MASKED = "sk_…4242"


def _search() -> CallRecord:
    return CallRecord("restaurants/search", "GET",
                      f"{SANDBOX}/restaurants/search?location=S%C3%A3o+Paulo&limit=3",
                      {"location": "São Paulo", "limit": 3},
                      request_headers={"X-API-Key": MASKED, "Accept": "application/json"})


def _provider_request() -> CallRecord:
    body = {"name": 'Tom\'s "Diner"', "url": None, "email": "a@b.example"}
    return CallRecord("provider-requests", "POST", f"{SANDBOX}/provider-requests", body,
                      request_headers={"Content-Type": "application/json",
                                       "Idempotency-Key": "4f1c-single-use"})


def _call_arguments(source: str) -> dict[str, ast.expr]:
    """The keyword arguments of the program's ``httpx.request(...)`` call."""
    call = next(node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call)
                and ast.unparse(node.func) == "httpx.request")
    return {keyword.arg or "": keyword.value for keyword in call.keywords} | {
        f"arg{n}": arg for n, arg in enumerate(call.args)}


def test_python_sends_the_same_query_with_the_key_from_the_environment() -> None:
    source = python_snippet(_search())
    arguments = _call_arguments(source)
    assert ast.literal_eval(arguments["arg0"]) == "GET"
    assert ast.literal_eval(arguments["arg1"]) == f"{SANDBOX}/restaurants/search"
    assert ast.literal_eval(arguments["params"]) == {"location": "São Paulo", "limit": "3"}
    assert ast.unparse(arguments["headers"]) == (
        "{'Accept': 'application/json', 'X-API-Key': os.environ['CREDITSCOPE_API_KEY']}")
    assert MASKED not in source and "4242" not in source


def test_python_posts_the_body_and_drops_single_use_headers() -> None:
    source = python_snippet(_provider_request())
    arguments = _call_arguments(source)
    assert ast.literal_eval(arguments["json"]) == _provider_request().params
    assert "Idempotency-Key" not in source and "import os" not in source  # public: no key
    assert "params" not in arguments


def test_a_sandbox_call_points_at_creditscope_serve_and_says_how_to_start_it() -> None:
    for snippet, comment in ((python_snippet(_search(), local=LOCAL), "#"),
                             (javascript_snippet(_search(), local=LOCAL), "//")):
        assert f"{comment}   creditscope serve --port 8080" in snippet.splitlines()
        assert "http://127.0.0.1:8080/restaurants/search" in snippet
        assert SANDBOX not in snippet


def test_repeated_query_names_are_kept_in_order() -> None:
    record = CallRecord("restaurants/search", "GET", f"{SANDBOX}/x?tag=a&tag=b", {})
    arguments = _call_arguments(python_snippet(record))
    assert ast.literal_eval(arguments["params"]) == [("tag", "a"), ("tag", "b")]


def test_javascript_reads_the_key_from_process_env() -> None:
    source = javascript_snippet(_search())
    assert '"X-API-Key": process.env.CREDITSCOPE_API_KEY' in source
    assert '["location", "S\\u00e3o Paulo"]' in source and MASKED not in source
    post = javascript_snippet(_provider_request())
    assert 'body: JSON.stringify({"name": "Tom\'s \\"Diner\\"", "url": null' in post


@pytest.mark.parametrize("record", [_search(), _provider_request()], ids=["get", "post"])
def test_javascript_parses_with_node(record: CallRecord, tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = tmp_path / "call.js"
    program.write_text(javascript_snippet(record, local=LOCAL), encoding="utf-8")
    checked = subprocess.run([node, "--check", str(program)], capture_output=True, text=True,
                             timeout=30, check=False)
    assert checked.returncode == 0, checked.stderr
