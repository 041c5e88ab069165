"""``creditscope history`` and ``import-har``: a call made by one process (``call
--label``) found by another, searched, exported as HAR and read back; nothing sent."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.sandbox import DEMO_KEY
from creditscope.support.request_import import HAR_KEY_DROPPED

CHROME_EXPORT = Path(__file__).parents[1] / "support" / "fixtures" / "chrome-export.har"


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The built-in sandbox's files in this test's directory, for this process and others."""
    env = {"CREDITSCOPE_DATA_DIR": str(tmp_path / "data"),
           "CREDITSCOPE_CACHE_DIR": str(tmp_path / "cache"),
           "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "config.toml")}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return env


def call_in_another_process(env: dict[str, str], *args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "creditscope", "call", *args],
                          env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_a_call_labelled_in_one_process_is_found_by_the_next(dirs: dict[str, str]) -> None:
    call_in_another_process(dirs, "restaurants/search", "--location", "Zürich",
                            "--cuisine", "thai", "--label", "#4821")
    assert run("call", "restaurants/search", "--location", "Lisbon").exit_code == 0

    labelled = json.loads(run("history", "--label", "#4821", "--json").stdout)
    assert [(c["params"], c["label"], c["credits_charged"], c["outcome"]) for c in labelled] == [
        ({"location": "Zürich", "cuisine": "thai", "limit": 10}, "#4821", 2, "ok")]
    listing = run("history").stdout.splitlines()
    assert len([line for line in listing if line.startswith("── session")]) == 2
    assert "location=Lisbon" in listing[1] and "[#4821]" in listing[3]
    assert "No call matches." in run("history", "--search", "zurich error").stdout
    assert "location=Zürich" in run("history", "--search", "ZURICH thai ok").stdout
    assert json.loads(run("history", "--since", "2999-01-01", "--json").stdout) == []


def test_a_bad_date_or_label_is_refused_before_anything(dirs: dict[str, str]) -> None:
    since = run("history", "--since", "last tuesday")
    assert since.exit_code == 2 and "not a date" in since.output
    blank = run("history", "--label", " ")  # not "no calls in the history"
    assert blank.exit_code == 2 and "give the label to list" in blank.output
    label = run("call", "restaurants/search", "--location", "Lisbon", "--label", "x" * 81)
    assert label.exit_code == 2 and "at most 80" in label.output
    assert "No calls recorded yet" in run("history").stdout


def test_history_as_har_reads_back_as_the_same_requests_cached_and_free(
    dirs: dict[str, str], tmp_path: Path
) -> None:
    assert run("call", "restaurants/search", "--location", "Lisbon").exit_code == 0
    assert run("call", "professional_network/find_company", "--name", "Acme").exit_code == 0
    har = tmp_path / "ticket.har"
    written = run("history", "--har", str(har))
    assert written.exit_code == 0 and "Wrote 2 calls" in written.stderr
    assert DEMO_KEY not in har.read_text()
    assert har.stat().st_mode & 0o077 == 0  # it names the customer's lookups: 0600

    listing = json.loads(run("import-har", str(har), "--json").stdout)
    assert sorted((r["operation"], r["now"], r["cost_now"]) for r in listing["requests"]) == [
        ("professional_network/find_company", "cached · free", 0),
        ("restaurants/search", "cached · free", 0)]
    assert listing["cost_to_fetch"] == 0
    history = json.loads(run("history", "--json").stdout)
    assert len(history) == 2  # importing sent nothing


def test_import_har_lists_a_browser_exports_requests_with_prices(
    dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.dataservice.example")
    shown = run("import-har", str(CHROME_EXPORT))
    assert shown.exit_code == 0
    text = shown.stdout
    assert "4 requests to https://api.dataservice.example" in text
    assert "4 entries for 3 other hosts skipped" in text
    assert "1 CORS preflight (OPTIONS) skipped" in text
    assert ("run: creditscope call professional_network/find_company --name "
            "'Northwind Labs Ltd' --website northwind.com") in text
    assert "Fetching every request not cached: 14 credits. Nothing was sent." in text
    assert "SECRET" not in text
    missing = run("import-har", str(CHROME_EXPORT.with_name("missing.har")))
    assert missing.exit_code == 2 and "Cannot read" in missing.output


@pytest.mark.parametrize("service", ["the built-in sandbox", "https://api.dataservice.example"])
def test_import_har_shows_every_note_that_json_gives(
    dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch, service: str
) -> None:
    """A customer's HAR for their live host, read on the sandbox (replayed there, as a
    pasted curl is) and on that host: the plain listing says each note --json has."""
    if service.startswith("https://"):
        monkeypatch.setenv("CREDITSCOPE_BASE_URL", service)
    else:
        monkeypatch.delenv("CREDITSCOPE_BASE_URL", raising=False)
    listing = json.loads(run("import-har", str(CHROME_EXPORT), "--json").stdout)
    notes = {note for request in listing["requests"] for note in request["notes"]}
    replayed = "Replayed on the sandbox (demo data); the customer called api.dataservice.example."
    assert HAR_KEY_DROPPED in notes and (replayed in notes) == (service == "the built-in sandbox")
    text = run("import-har", str(CHROME_EXPORT)).stdout
    assert f"4 requests to {service}" in text
    for note in notes:
        assert note in text
    assert "SECRET" not in text


def test_import_har_suggests_a_command_that_sends_a_value_read_as_an_option(
    dirs: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A name of ``--help`` printed as its own word made the suggested command show help."""
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.dataservice.example")
    har = tmp_path / "option.har"
    har.write_text(CHROME_EXPORT.read_text().replace("Northwind Labs Ltd", "--help"))
    text = run("import-har", str(har)).stdout
    [line] = [line for line in text.splitlines() if "find_company --name" in line]
    assert "--name=--help" in line
    command = shlex.split(line.split("run: ", 1)[1])
    assert command[:2] == ["creditscope", "call"]
    dry_run = run(*command[1:], "--dry-run", "--json")
    assert dry_run.exit_code == 0, dry_run.output
    assert "Usage:" not in dry_run.output and '"--help"' in dry_run.stdout


def test_import_har_of_a_file_that_is_no_har_says_how_to_get_one(
    dirs: dict[str, str], tmp_path: Path
) -> None:
    picture = tmp_path / "screenshot.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    shown = run("import-har", str(picture))
    assert shown.exit_code == 2
    assert "error: This is not a HAR file: it is not text." in shown.output
    assert "Save all as HAR" in shown.output and "Usage:" not in shown.output
    as_json = json.loads(run("import-har", str(picture), "--json").stdout)["error"]
    assert as_json["code"] == "bad_file" and "Save all as HAR" in as_json["next_step"]


def test_a_session_divider_names_when_it_was_not_only_its_id() -> None:
    from datetime import UTC, datetime

    from creditscope.client.history import HistoryEntry
    from creditscope.commands.history import history_lines

    at = datetime(2026, 11, 24, 14, 2, tzinfo=UTC)
    entry = HistoryEntry(1, "dfb85127" + "0" * 24, at, "restaurants/search", "GET",
                         {"location": "Lisbon"}, 200, "miss", 2, 0, None, 9_998, None)
    divider = history_lines([entry])[0]
    assert divider == f"── session dfb85127 · {at.astimezone():%a %d %b %H:%M} ──"


FIXTURES = CHROME_EXPORT.parent


def test_import_har_totals_each_distinct_request_once(dirs: dict[str, str]) -> None:
    """Two spellings of one lookup and of one search (the customer's form retried): the
    total is what fetching them costs, 10 + 2 cr, as a batch of the same rows would."""
    shown = run("import-har", str(FIXTURES / "chrome-retyped-lookups.har"))
    assert shown.exit_code == 0, shown.output
    assert "Fetching every request not cached: 12 credits. Nothing was sent." in shown.stdout
    assert "browser sent GET" in shown.stdout and "-G" not in shown.stdout


def test_import_har_of_a_file_cut_short_says_so_and_what_to_ask_for(
    dirs: dict[str, str],
) -> None:
    from creditscope.commands.import_har import SAVE_A_HAR

    cut = run("import-har", str(FIXTURES / "chrome-export-cut-short.har"))
    assert cut.exit_code == 2
    assert "error: This HAR file is cut short" in cut.output
    assert "Ask the customer to save the HAR again" in cut.output
    assert SAVE_A_HAR not in cut.output  # they did pass a HAR file
    as_json = json.loads(run("import-har", str(FIXTURES / "chrome-export-cut-short.har"),
                             "--json").stdout)["error"]
    assert as_json["code"] == "bad_file" and "save the HAR again" in as_json["next_step"]
