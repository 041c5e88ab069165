"""``creditscope credits --by day|hour|operation [--since] [--csv]`` on a fixed ledger."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from creditscope.cli import main
from creditscope.client.ledger import CreditLedger
from creditscope.client.records import CacheStatus, CallRecord
from creditscope.wiring import SANDBOX_LEDGER

LOOKUP = "professional_network/find_company"


def _call(at: str, operation: str, charged: int = 0, saved: int = 0,
          **fields: object) -> CallRecord:
    record = CallRecord(operation=operation, method="GET", url="u", params={}, status=200,
                        credits_charged=charged, credits_saved=saved, attempts=1,
                        started_at=datetime.fromisoformat(at).replace(tzinfo=UTC))
    for name, value in fields.items():
        setattr(record, name, value)
    return record


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ledger of five calls over two days, where ``credits`` looks for it."""
    monkeypatch.setenv("CREDITSCOPE_DATA_DIR", str(tmp_path))
    ledger = CreditLedger(tmp_path / SANDBOX_LEDGER)
    for record in (
        _call("2025-03-01T09:10", "restaurants/search", 2),
        _call("2025-03-01T09:40", "restaurants/search", 0, 2, cache=CacheStatus.HIT),
        _call("2025-03-01T17:05", LOOKUP, 10, match_grade="high"),
        _call("2025-03-02T08:00", LOOKUP, 10, match_grade="none"),
        _call("2025-03-02T08:30", "restaurants/menu", status=None, attempts=0,
              error_code="invalid_parameter"),
    ):
        ledger.record(record)
    ledger.close()
    return tmp_path


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["credits", *args], catch_exceptions=False)


def test_by_day_prints_a_table_with_savings_outcomes_and_grades(data_dir: Path) -> None:
    result = run("--by", "day")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["day", "(UTC)", "calls", "spent", "saved", "cached", "ok",
                                "error", "refused", "unexplained"]
    assert lines[1].split() == ["2025-03-01", "3", "12", "2", "1", "3", "0", "0", "0"]
    assert lines[2].split() == ["2025-03-02", "2", "10", "0", "0", "1", "0", "1", "0"]
    assert lines[3].split()[:3] == ["total", "5", "22"]
    assert "Saved by the cache: 2 credits (1 answer served from it" in result.stdout
    assert "Calls by outcome: ok 4, error 0, refused 1, unexplained 0." in result.stdout
    assert "Company lookups (2): high 1 (50%), medium 0 (0%), low 0 (0%), no match 1 (50%)." \
        in result.stdout


def test_by_operation_as_csv_since_a_date(data_dir: Path) -> None:
    result = run("--by", "operation", "--since", "2025-03-02", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [(r["operation"], r["calls"], r["spent"], r["refused"]) for r in rows] == [
        (LOOKUP, "1", "10", "0"), ("restaurants/menu", "1", "0", "1")]


def test_by_hour_as_json_and_the_totals_match_plain_credits(data_dir: Path) -> None:
    by_hour = json.loads(run("--by", "hour", "--json").stdout)
    assert [row["label"] for row in by_hour["rows"]] == [
        "2025-03-01 09:00", "2025-03-01 17:00", "2025-03-02 08:00"]
    lifetime = json.loads(run("--json").stdout)["lifetime"]
    assert (by_hour["total"]["spent"], by_hour["total"]["saved"], by_hour["total"]["calls"]) \
        == (lifetime["spent"], lifetime["saved"], lifetime["calls"])


def test_since_and_csv_without_by_are_a_usage_error(data_dir: Path) -> None:
    result = run("--csv")
    assert result.exit_code == 2
    assert "--since and --csv go with --by" in result.output
    yesterday = run("--by", "day", "--since", "yesterday")
    assert yesterday.exit_code == 2
    # The same words as `history --since`, not strptime's '%Y-%m-%d'.
    assert "'yesterday' is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM" in yesterday.output
    assert "%Y" not in yesterday.output
    assert run("--by", "hour", "--since", "2025-03-02T08:15").stdout.splitlines()[1].split()[
        :3] == ["2025-03-02", "08:00", "1"]
