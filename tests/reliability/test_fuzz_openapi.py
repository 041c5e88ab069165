"""Fuzzing: schemathesis drives every operation of the sandbox's own OpenAPI
document in-process (ASGI, no port) with the demo key.

Each generated request must get an answer that is not a 5xx, that conforms to
the documented status codes, content type, headers and schema, and, when it is
an error, that has the spec's shape ``{"error": {"code", "message", "reason"?}}``.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from creditscope import models
from creditscope.sandbox import DEMO_KEY
from creditscope.sandbox.app import create_app
from creditscope.sandbox.config import SandboxConfig

# A balance no fuzz run can exhaust, so 402 never hides a 200-path bug.
APP = create_app(SandboxConfig(keys={DEMO_KEY: 10**9}))
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

# test_zz_... reads what the fuzz test's cases saw (CASES_SEEN): one pytest-xdist worker.
pytestmark = pytest.mark.xdist_group("fuzz_openapi")

MAX_EXAMPLES = 60  # per operation; with the coverage phase ~740 cases in all, ~10 s
CASES_SEEN: dict[str, int] = {}

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
# Not negative_data_rejection: it flags requests whose invalid part vanishes on the wire
# (an omitted optional value) or is a spare Authorization next to a valid X-API-Key.
# Invalid requests are still generated and must still meet every check above.


def error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Every 4xx/5xx body is exactly the spec's error object."""
    if response.status_code < 400:
        return None
    payload = response.json()
    body = models.ErrorBody.model_validate(payload)
    assert set(payload) == {"error"}, payload
    assert set(payload["error"]) <= {"code", "message", "reason"}, payload
    assert body.error.code and body.error.message, payload
    return None


@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,  # the same cases on every run: a failure reproduces
)
@schema.parametrize()
def test_every_operation_answers_within_its_documented_contract(case: Any) -> None:
    """No 5xx, documented status/headers/schema, errors in the spec's shape."""
    CASES_SEEN[case.operation.label] = CASES_SEEN.get(case.operation.label, 0) + 1
    headers = {"X-API-Key": DEMO_KEY}
    if case.headers:
        headers = {**case.headers, **headers}
    case.call_and_validate(headers=headers, checks=CHECKS, additional_checks=[error_shape])


def test_the_document_describes_the_real_errors() -> None:
    """The document promises no FastAPI 422 and names the API key for keyed operations."""
    document = APP.openapi()
    for path, methods in document["paths"].items():
        for spec in methods.values():
            assert "422" not in spec["responses"], path
            for status, answer in spec["responses"].items():
                if status != "200":
                    ref = answer["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorBody"), (path, status)
    keyed = document["paths"]["/restaurants/menu"]["get"]
    assert {"ApiKeyHeader": []} in keyed["security"]
    assert "security" not in document["paths"]["/catalog"]["get"]
    assert "404" in keyed["responses"]


def test_zz_the_fuzzer_reached_every_operation() -> None:
    """Runs after the fuzz test in file order: every operation got generated cases."""
    if not CASES_SEEN:  # this test was selected alone
        return
    assert len(CASES_SEEN) == 8, CASES_SEEN  # every operation of the spec
    assert all(count >= 1 for count in CASES_SEEN.values()), CASES_SEEN
    print(f"\nschemathesis cases per operation: {CASES_SEEN} (total {sum(CASES_SEEN.values())})")
