"""A lone surrogate in an answer (JSON ``"Acme \\ud800 Corp"``) is valid JSON that no
file can hold: ``batch --out`` crashed after spending, and again on the cached re-run,
so the paid results could never be written. Outside JSON is read with U+FFFD in its
place (``json_limits.loads``), as a UTF-8 decoder does with a broken byte."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from client_fakes import FakeService, commands_talk_to
from creditscope import json_limits
from creditscope.cli import main
from creditscope.private_files import replace_file

FIND = "professional_network/find_company"
# As the service sends it: an escape JSON allows, naming half of a character.
LONE = ('{"query": "Acme \\ud800 Corp", "queries": [], "count": 1, "matches": '
        '[{"company_url": "https://net.example/acme", "serp_title": "Acme \\udc00 Corp",'
        ' "company": {"name": "Acme \\udc00 Corp"}, "confidence": "high"}]}')


def lone_surrogate_answer(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, content=LONE.encode(), headers={
        "Content-Type": "application/json", "X-Credits-Charged": "10",
        "X-Credits-Remaining": "9990"})


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeService]:
    fake = FakeService()
    commands_talk_to(fake, monkeypatch, "sk_live_lone_surrogate_4242")
    yield fake


def test_outside_json_has_no_lone_surrogate_and_keeps_pairs() -> None:
    value = json_limits.loads('{"\\udfff": ["Acme \\ud800 Corp", "\\ud83d\\ude00", "\\\\ud800"]}')
    assert value == {"\ufffd": ["Acme \ufffd Corp", "\U0001f600", "\\ud800"]}
    assert json_limits.loads(b'["\\ud800"]') == ["\ufffd"]


def test_batch_writes_paid_results_holding_a_lone_surrogate_and_again_from_the_cache(
    service: FakeService, tmp_path: Path
) -> None:
    source = tmp_path / "companies.csv"
    source.write_text("name\nAcme\n", encoding="utf-8")
    for run in ("paid", "cached"):
        service.script.append(lone_surrogate_answer)
        out = tmp_path / f"{run}.csv"
        result = CliRunner().invoke(main, ["batch", FIND, str(source), "--out", str(out),
                                           "--yes"], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        with out.open(encoding="utf-8-sig", newline="") as handle:
            text = handle.read()
        assert "Acme \ufffd Corp" in text, text
        assert len(list(csv.DictReader(text.splitlines()))) == 1
    assert len(service.requests) == 1  # the second run read the cache, free


def test_a_file_written_with_a_lone_surrogate_holds_the_replacement_character(
    tmp_path: Path,
) -> None:
    path = replace_file(tmp_path / "export.json", '{"name": "Acme \ud800 Corp"}')
    assert path.read_text(encoding="utf-8") == '{"name": "Acme \ufffd Corp"}'
