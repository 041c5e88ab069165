"""``creditscope batch`` on the built-in sandbox: bad files, invalid rows, duplicates,
the budget, a second run from the cache, and Ctrl+C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from batch_results import read_results_csv
from credit_counts import ledger_spent, rows_in_ledger
from creditscope.cli import main
from creditscope.client.client import DataClient

FIND = "professional_network/find_company"
SEARCH = "restaurants/search"


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, ["batch", *args], input=stdin, catch_exceptions=False)


def read_csv(path: Path) -> list[dict[str, str]]:
    return read_results_csv(path)  # a semicolon file's results are semicolon-separated


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_text(text, encoding=encoding)
    return path


# --- the file as a whole -----------------------------------------------------------


@pytest.mark.parametrize(("text", "words"), [
    ("", ("is empty", "name, website")),
    ("\n\n  \n", ("is empty",)),
    ("name,webiste\nAcme,acme.com\n", ("webiste", "not a parameter", "--ignore-extra-columns")),
    ("website\nacme.com\n", ("required column 'name' is missing",)),
    ("name,name\nA,B\n", ("appears twice",)),
    ("name,,website\nA,,a.example\n", ("empty column name (column 2)",)),
    ("\ufeff", ("is empty",)),
    ('[{"name": "Acme"}]\n', ("JSON array", "one JSON object per line")),
])
def test_bad_files_are_explained_and_nothing_is_sent(
    tmp_path: Path, text: str, words: tuple[str, ...]
) -> None:
    result = run(FIND, str(write(tmp_path / "in.csv", text)), "--yes")
    assert result.exit_code == 2
    for word in words:
        assert word in result.output
    assert ledger_spent() == 0


def test_missing_file_and_non_utf8(tmp_path: Path) -> None:
    missing = run(FIND, str(tmp_path / "nope.csv"))
    assert missing.exit_code == 2 and "no such file" in missing.output
    latin = write(tmp_path / "latin.csv", "name\nCafé Müller\n", encoding="latin-1")
    result = run(FIND, str(latin), "--yes")
    assert result.exit_code == 2 and "not UTF-8" in result.output


def test_header_only_has_nothing_to_run(tmp_path: Path) -> None:
    result = run(FIND, str(write(tmp_path / "in.csv", "name,website\n")), "--yes")
    assert result.exit_code == 2 and "no valid rows" in result.output


# --- rows ------------------------------------------------------------------------------


def test_invalid_rows_are_listed_and_never_sent_duplicates_sent_once(tmp_path: Path) -> None:
    source = write(tmp_path / "in.csv", (
        "\ufeffname;website\n"  # a BOM and semicolons, as a spreadsheet saves them
        "Northwind Labs Ltd;northwind.com\n"
        "Northwind Labs Ltd;northwind.com\n"
        ";nameless.example\n"
        "Acme\x07 Corp;acme.example\n"
        f"{'x' * 10_240};big.example\n"
        "Globex;globex.example;extra\n"
        "Initech;\n"
    ))
    out = tmp_path / "out.csv"
    result = run(FIND, str(source), "--yes", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "semicolon-separated" in result.output
    assert "7 rows: 3 valid (2 distinct, 1 duplicate sent once), 4 invalid" in result.output
    assert "line 5: name contains an invisible control character" in result.output
    assert "line 6: name is 10240 characters; at most 200" in result.output
    assert "line 7: 3 cells but the header has 2 columns" in result.output
    assert "To send: 2 requests × 10 cr = 20 credits" in result.output
    rows = read_csv(out)
    assert [r["status"] for r in rows] == ["ok", "ok", "invalid", "invalid", "invalid",
                                           "invalid", "ok"]
    assert [r["credits"] for r in rows] == ["10", "0", "0", "0", "0", "0", "10"]
    assert [r["line"] for r in rows] == [str(n) for n in range(2, 9)]
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # the input had a BOM: Excel's
    assert rows[1]["cache"] == "same as line 2"
    assert rows[0]["confidence"] == "high" and rows[0]["website_match"] == "yes"
    assert rows[0]["best_match"] and rows[0]["best_match_url"].startswith("https://")
    assert rows[6]["website_match"] in ("not checked", "")
    assert ledger_spent() == 20


def test_a_second_run_is_free_from_the_cache(tmp_path: Path) -> None:
    source = write(tmp_path / "in.jsonl", (
        '{"location": "Lisbon", "cuisine": "thai"}\n\n'
        '{"location": "Porto", "limit": 5}\n'
        '{"location": "Lisbon", "cuisine": "THAI"}\n'  # the same request once validated
        'not json\n'
        '{"location": "Faro", "limit": 99}\n'
    ))
    first = run(SEARCH, str(source), "--yes", "--out", str(tmp_path / "a.jsonl"))
    assert first.exit_code == 0, first.output
    assert "To send: 2 requests × 2 cr = 4 credits" in first.output
    assert "6 rows: 3 valid (2 distinct, 1 duplicate sent once), 2 invalid, 1 blank" \
        in first.output
    assert "line 5: not valid JSON" in first.output
    assert "line 6: limit must be between 1 and 30" in first.output
    second = run(SEARCH, str(source), "--out", str(tmp_path / "b.jsonl"))  # no --yes: free
    assert second.exit_code == 0, second.output
    assert "0 credits; 2 answered from the cache" in second.output
    rows = [json.loads(line) for line in (tmp_path / "b.jsonl").read_text().splitlines()]
    assert [r["status"] for r in rows] == ["ok", "blank", "ok", "ok", "invalid", "invalid"]
    assert [r["cache"] for r in rows[:4]] == ["hit", "", "hit", "same as line 1"]
    assert "Wrote 6 rows to" in second.output
    assert all(r["possibly_charged"] == 0 for r in rows)  # no answer was lost
    assert rows[3]["input"] == '{"location": "Lisbon", "cuisine": "THAI"}'
    assert all(r["credits"] == 0 for r in rows)
    assert rows[0]["total"] > 0 and rows[0]["top_result"]
    assert ledger_spent() == 4


def test_json_lines_results_keep_letters_as_written(tmp_path: Path) -> None:
    """A .jsonl opened in an editor reads "Málaga", not "M\\u00e1laga"."""
    source = write(tmp_path / "in.jsonl", '{"location": "Málaga"}\n{"location": "Zürich"}\n')
    out = tmp_path / "out.jsonl"
    done = run(SEARCH, str(source), "--dry-run", "--out", str(out))
    assert done.exit_code == 0, done.output
    assert "Wrote 2 rows to" in done.output
    text = out.read_text(encoding="utf-8")
    assert "Málaga" in text and "Zürich" in text and "\\u00" not in text
    assert ledger_spent() == 0


def test_declining_sends_nothing(tmp_path: Path) -> None:
    source = write(tmp_path / "in.csv", "name\nAcme\n")
    result = run(FIND, str(source), stdin="n\n")
    assert result.exit_code == 1
    assert "Spend up to 10 credits?" in result.output and "Nothing was sent" in result.output
    assert ledger_spent() == 0


def test_the_budget_stops_the_run_and_a_rerun_continues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "35")
    names = [f"Company {n}" for n in range(6)]
    source = write(tmp_path / "in.csv", "name\n" + "\n".join(names) + "\n")
    out = tmp_path / "out.csv"
    result = run(FIND, str(source), "--yes", "--concurrency", "4", "--out", str(out))
    assert result.exit_code == 3, result.output
    assert "the run stops when it is reached" in result.output
    rows = read_csv(out)
    assert [r["status"] for r in rows].count("ok") == 3
    assert all("budget" in r["error"] for r in rows if r["status"] == "not run")
    assert ledger_spent() == 30  # never past the budget, whatever the concurrency
    again = run(FIND, str(source), "--yes", "--out", str(out))  # a new session, a new budget
    assert "To send: 3 requests × 10 cr = 30 credits; 3 answered from the cache" in again.output
    assert again.exit_code == 0, again.output
    assert ledger_spent() == 60


def test_ctrl_c_keeps_what_is_done(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    original = DataClient.call
    calls: list[int] = []

    async def interrupted_on_the_fourth(self: DataClient, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(DataClient, "call", interrupted_on_the_fourth)
    source = write(tmp_path / "in.csv", "location\n" + "\n".join(
        f"City {n}" for n in range(10)) + "\n")
    out = tmp_path / "out.csv"
    # Made-up places: sent only with the opt-in (issue 23), which is not what is tested here.
    result = run(SEARCH, str(source), "--yes", "--concurrency", "1", "--out", str(out),
                 "--allow-unknown-place")
    assert result.exit_code == 130
    rows = read_csv(out)
    assert [r["status"] for r in rows] == ["ok"] * 3 + ["not run"] * 7
    assert rows[5]["error"] == "interrupted (Ctrl+C)"
    assert "Run the same command again to continue" in result.output
    monkeypatch.setattr(DataClient, "call", original)
    again = run(SEARCH, str(source), "--yes", "--out", str(out), "--allow-unknown-place")
    assert "To send: 7 requests × 2 cr = 14 credits; 3 answered from the cache" in again.output
    assert ledger_spent() == 20


def test_sigint_in_a_real_process_stops_cleanly(tmp_path: Path) -> None:
    rows_in = 5000
    source = write(tmp_path / "in.csv", "location\n" + "\n".join(
        f"Town {n}" for n in range(rows_in)) + "\n")
    out = tmp_path / "out.csv"
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "batch", SEARCH, str(source), "--yes",
         "--out", str(out), "--allow-unknown-place"],  # made-up places (issue 23)
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None and _calls_recorded(tmp_path) < 5:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    rows = read_csv(out)
    statuses = [r["status"] for r in rows]
    assert len(rows) == rows_in
    assert 0 < statuses.count("ok") < rows_in
    assert statuses.count("not run") == rows_in - statuses.count("ok")
    assert "Traceback" not in stderr
    # Requests in flight at Ctrl+C finished and were kept: every paid call has its row,
    # so running again never pays for one twice.
    assert _calls_recorded(tmp_path) == statuses.count("ok")
    assert "Stopping after the requests in flight" in stderr


def _calls_recorded(tmp_path: Path) -> int:
    """Calls in the sandbox ledger the subprocess writes (0 until it exists)."""
    return rows_in_ledger(tmp_path, "sandbox-ledger.sqlite3", "calls")


def test_twenty_thousand_rows_stream_in_bounded_time(tmp_path: Path) -> None:
    # 100,000 rows, with memory measured, are benchmarks/batch_memory.py's.
    source = tmp_path / "big.csv"
    with source.open("w", encoding="utf-8") as handle:
        handle.write("location,limit\n")
        for n in range(20_000):
            limit = "99" if n % 2_000 == 7 else str(1 + n % 3)
            handle.write(f"Lisbon,{limit}\n")
    out = tmp_path / "out.csv"
    started = time.monotonic()
    result = run(SEARCH, str(source), "--yes", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert time.monotonic() - started < 30
    assert "20000 rows: 19990 valid (3 distinct" in result.output
    assert "… and" not in result.output  # 10 invalid rows: all listed
    assert ledger_spent() == 6
    with out.open(encoding="utf-8") as handle:
        assert sum(1 for _ in handle) == 20_001


def test_a_revoked_key_stops_the_run_at_the_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.sandbox import REVOKED_KEY

    monkeypatch.setenv("CREDITSCOPE_API_KEY", REVOKED_KEY)
    source = write(tmp_path / "in.csv", "location\n" + "\n".join(
        f"Place {n}" for n in range(20)) + "\n")
    out = tmp_path / "out.csv"
    # Made-up places: sent only with the opt-in (issue 23), which is not what is tested here.
    result = run(SEARCH, str(source), "--yes", "--concurrency", "1", "--out", str(out),
                 "--allow-unknown-place")
    assert result.exit_code == 3, result.output
    rows = read_csv(out)
    assert rows[0]["status"] == "error" and "invalid_api_key" in rows[0]["error"]
    assert {r["status"] for r in rows[1:]} == {"not run"}
    assert "stopped: invalid api key" in rows[1]["error"].lower()
    assert ledger_spent() == 0


def test_after_a_revoked_key_stops_the_run_cached_rows_are_still_answered_free(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.sandbox import REVOKED_KEY

    known = [f"Place {n}" for n in range(5)]
    first = run(SEARCH, str(write(tmp_path / "known.csv", "location\n" + "\n".join(known))),
                "--yes", "--allow-unknown-place")
    assert first.exit_code == 0, first.output
    monkeypatch.setenv("CREDITSCOPE_API_KEY", REVOKED_KEY)
    # A new row first: its answer (the key is revoked) stops the run before the rest.
    lines = ["New place 0", *known, *(f"New place {n}" for n in range(1, 4))]
    out = tmp_path / "out.csv"
    result = run(SEARCH, str(write(tmp_path / "in.csv", "location\n" + "\n".join(lines))),
                 "--yes", "--concurrency", "1", "--out", str(out), "--allow-unknown-place")
    assert result.exit_code == 3, result.output
    assert "5 answered from the cache" in result.output
    rows = read_csv(out)
    assert rows[0]["status"] == "error" and "invalid_api_key" in rows[0]["error"]
    cached = rows[1:6]
    assert [r["status"] for r in cached] == ["ok"] * 5
    assert {r["credits"] for r in cached} == {"0"}
    assert [r["status"] for r in rows[6:]] == ["not run"] * 3
    assert "3 rows not run" in result.output
    # Running again cannot help while the key is revoked: the advice says fix it first.
    assert "Fix that first" in result.output
    assert ledger_spent() == 0  # the revoked key's account: nothing charged


def test_a_run_warns_when_another_process_is_sending_on_the_same_account(
    tmp_path: Path,
) -> None:
    # Two runs of the same file at once each pay for the rows they send together: the
    # second one says so before spending (the ledger lists the first one's requests).
    from creditscope.client.session import SpendSession
    from creditscope.commands.settings_loading import command_settings
    from creditscope.wiring import build_client

    other = build_client(command_settings(), session=SpendSession())
    token = other.ledger.flight_started(600, other.account, FIND, 10)  # on the wire
    try:
        result = run(FIND, str(write(tmp_path / "in.csv", "name\nAcme\n")), "--yes")
    finally:
        other.ledger.flight_ended(token)  # its answer came: the account is quiet again
        other.ledger.close()
    assert result.exit_code == 0, result.output
    assert "another creditscope process is sending on this account now" in result.output
    assert "paid twice" in result.output
    alone = run(FIND, str(write(tmp_path / "again.csv", "name\nGlobex\n")), "--yes")
    assert "another creditscope process" not in alone.output
