"""Outside text is data, never code: the hostile corpus through every sink that could turn
text into action. A link opens only as an http(s) web link; text printed by the CLI shows
escape sequences and invisible characters visibly (JSON keeps the exact data, escaped);
no CSV cell we write is a formula, and our own reader reads it back; a name's invisible
characters are folded before validation, identity and sending, and what cannot be folded
is refused free, naming the character."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from click.testing import CliRunner, Result
from hostile_corpus import (
    FOLDED_NAMES,
    FORMULAS,
    HOSTILE_TEXT,
    HOSTILE_URLS,
    OSC0_TITLE,
    OSC52_CLIPBOARD,
    PLAIN_CELLS,
    REFUSED_NAMES,
    WEB_URLS,
)

from client_fakes import FakeService, commands_talk_to, error_response
from creditscope.cli import main
from creditscope.client.errors import InvalidRequest
from creditscope.client.usage import Bucket, Usage
from creditscope.client.validation import validate
from creditscope.commands import call as call_command
from creditscope.commands.credits_usage import usage_csv
from creditscope.link_safety import link_refusal, openable
from creditscope.outside_text import (
    SHOWN_VALUE_LIMIT,
    hidden,
    json_text,
    shown,
    shown_lines,
    shown_value,
)
from creditscope.row_export import csv_text
from creditscope.sandbox import SANDBOX_BASE_URL
from creditscope.spreadsheet_cells import original_cell, safe_cell
from creditscope.support.batch_input import BatchFile

FIND = "professional_network/find_company"


def terminal_safe(text: str) -> bool:
    """Nothing in ``text`` a terminal would act on, nor anything invisible (line breaks
    are the output's own)."""
    return not any(hidden(char) for char in text if char != "\n")


# --- opening a link -------------------------------------------------------------------


@pytest.mark.parametrize("url", HOSTILE_URLS)
def test_a_hostile_url_is_never_a_link_to_open(url: str) -> None:
    reason = link_refusal(url)
    assert reason is not None and terminal_safe(reason)


@pytest.mark.parametrize("url", WEB_URLS)
def test_a_web_link_with_a_host_is_opened(url: str) -> None:
    assert link_refusal(url) is None


@pytest.mark.parametrize(("url", "reason"), [
    ("", "there is no link"),
    ("--renderer-cmd-prefix=/bin/sh",
     "it begins with '-', which a browser would read as an option"),
    ("https://example.com/a b", "it holds spaces or invisible characters"),
    ("https://exa\u200bmple.com", "it holds spaces or invisible characters"),
    ("http://[", "it is not a well-formed URL"),
    ("javascript:alert(1)", "it is a javascript: link; only http and https links are opened"),
    ("www.example.com/page", "it is not a full web address; only http and https links are opened"),
    ("https:///path", "it names no host"),
])
def test_a_refused_link_says_why_in_words(url: str, reason: str) -> None:
    """The page row shows this sentence where the link would be."""
    assert link_refusal(url) == reason
    assert not openable(url)


def test_a_scheme_in_capitals_is_still_a_web_link() -> None:
    assert link_refusal("HTTPS://Example.com/Events") is None
    assert openable("HTTPS://Example.com/Events")


# --- drawing and printing -------------------------------------------------------------


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_shown_text_holds_nothing_a_terminal_obeys_and_hides_nothing(text: str) -> None:
    visible = shown(text)
    assert terminal_safe(visible)
    assert visible.startswith("Casa ") and visible.endswith(" Lisboa")
    assert len(visible) > len(text)  # each hidden character became several visible ones


def test_shown_writes_escapes_as_a_reader_knows_them() -> None:
    assert shown(OSC0_TITLE) == "\\x1b]0;pwned\\x07"
    assert shown("a\u202eb\u200bc\x9b") == "a\\u202eb\\u200bc\\x9b"
    assert shown("Zürich · 東京 🍣") == "Zürich · 東京 🍣"  # letters and emoji stay


def test_hidden_characters_beyond_the_first_plane_are_written_whole() -> None:
    """A language tag (U+E0001) is invisible: printed as its full code, and in JSON as the
    surrogate pair a parser reads back as that one character."""
    tag = "\U000e0001"
    assert shown(f"Tasca{tag}") == "Tasca\\U000e0001"
    assert shown("\ufff9") == "\\ufff9"  # the last plane-0 width: four digits
    assert json_text({"name": f"Tasca{tag}"}) == '{"name": "Tasca\\udb40\\udc01"}'
    assert json.loads(json_text(f"Tasca{tag}")) == f"Tasca{tag}"


def test_a_block_of_lines_keeps_its_breaks_and_shows_the_rest() -> None:
    assert shown_lines("Rua\nAugusta\x1b[2J\r") == "Rua\nAugusta\\x1b[2J\\r"
    assert shown("Rua\nAugusta") == "Rua\\nAugusta"  # one line: the break is shown


def test_a_value_as_long_as_the_limit_is_printed_whole_without_a_note() -> None:
    whole = "x" * SHOWN_VALUE_LIMIT
    assert shown_value(whole) == whole
    assert shown_value(whole + "y") == f"{whole}… ({SHOWN_VALUE_LIMIT + 1:,} characters in all)"


def test_json_keeps_letters_as_written_and_the_callers_layout() -> None:
    assert json_text({"city": "Zürich", "dish": "寿司"}) == '{"city": "Zürich", "dish": "寿司"}'
    assert json_text(["Zürich"], indent=1) == '[\n "Zürich"\n]'


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_json_keeps_the_exact_data_escaped(text: str) -> None:
    printed = json_text({"name": text, "list": [text]}, indent=2)
    assert terminal_safe(printed)
    assert json.loads(printed) == {"name": text, "list": [text]}


@pytest.mark.parametrize("text", HOSTILE_TEXT)
def test_the_explorers_raw_response_shows_hidden_characters_as_escapes(text: str) -> None:
    from creditscope.tui.widgets.json_view import pretty_json

    raw = json.dumps({"results": [{"name": text}]}, ensure_ascii=False)
    shown_json = pretty_json(raw)
    assert terminal_safe(shown_json)
    assert json.loads(shown_json) == json.loads(raw)  # copied or saved, the same data


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeService]:
    """Every client the CLI builds talks to this fake service."""
    fake = FakeService()
    commands_talk_to(fake, monkeypatch, "sk_live_outside_text_4242")
    yield fake


def hostile_search(request: httpx.Request) -> httpx.Response:
    results = [{"id": f"r{i}", "name": name, "cuisine": "thai", "rating": 4.0}
               for i, name in enumerate(HOSTILE_TEXT)]
    return httpx.Response(200, json={"location": "Lisbon", "total": len(results),
                                     "results": results},
                          headers={"X-Credits-Charged": "2", "X-Credits-Remaining": "9998"})


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``call`` prints its table, as on a terminal (CliRunner's stdout is not one)."""
    terminal = SimpleNamespace(stdout=SimpleNamespace(isatty=lambda: True))
    monkeypatch.setattr(call_command, "sys", terminal)


def test_call_prints_the_services_names_visibly_on_a_terminal(
    service: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.script.append(hostile_search)
    on_a_terminal(monkeypatch)
    result = run("call", "restaurants/search", "--location", "Lisbon")
    assert result.exit_code == 0, result.output
    assert terminal_safe(result.stdout)
    assert "\\x1b]52;c;" in result.stdout  # the clipboard sequence, shown, not obeyed
    assert "\\u202eevil" in result.stdout


HOSTILE_KEY = f"x{OSC52_CLIPBOARD}{OSC0_TITLE}\x9b31m\u202e\x1b[2J"


def hostile_keys(request: httpx.Request) -> httpx.Response:
    rows = [{"id": "r0", "name": "Tasca", HOSTILE_KEY: "1"}]
    body = {"id": "rst_0", "name": "Tasca", "hours": {HOSTILE_KEY: "10:00-11:00"},
            HOSTILE_KEY: "an unknown field", "nested": {"rows": rows}, "rows": rows}
    return httpx.Response(200, json=body)


def test_call_prints_the_services_key_names_visibly_on_a_terminal(
    service: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    service.script.append(hostile_keys)
    on_a_terminal(monkeypatch)
    result = run("call", "restaurants/details", "--id", "rst_0")
    assert result.exit_code == 0, result.output
    assert terminal_safe(result.stdout)
    assert "hours.x\\x1b]52;c;" in result.stdout  # the key, shown as its value would be
    assert "\\u202e" in result.stdout


def test_call_json_is_the_exact_data_with_nothing_a_terminal_obeys(service: FakeService) -> None:
    service.script.append(hostile_search)  # one row per hostile name: within the limit
    result = run("call", "restaurants/search", "--location", "Lisbon", "--limit", "30",
                 "--json")
    assert result.exit_code == 0, result.output
    assert terminal_safe(result.stdout)
    names = [row["name"] for row in json.loads(result.stdout)["results"]]
    assert names == list(HOSTILE_TEXT)


def test_a_service_error_message_is_printed_visibly(service: FakeService) -> None:
    service.script.append(error_response(500, "internal_error", f"down {OSC52_CLIPBOARD}"))
    result = run("call", "restaurants/search", "--location", "Lisbon")
    assert result.exit_code == 3
    assert terminal_safe(result.stderr)
    assert "down \\x1b]52;c;" in result.stderr


def test_history_prints_an_error_code_the_service_sent_visibly(service: FakeService) -> None:
    service.script.append(error_response(500, f"boom{OSC0_TITLE}", "no"))
    run("call", "restaurants/search", "--location", "Lisbon")
    listed = run("history")
    assert listed.exit_code == 0, listed.output
    assert terminal_safe(listed.stdout)
    assert "boom\\x1b]0;pwned\\x07" in listed.stdout


def har_file(path: Path, urls: list[str]) -> Path:
    entries = [{"startedDateTime": "2026-11-20T10:00:00Z", "time": 1,
                "request": {"method": "GET", "url": url, "headers": []},
                "response": {"status": 200}} for url in urls]
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), "utf-8")
    return path


def test_import_har_lists_urls_with_escape_sequences_visibly(tmp_path: Path) -> None:
    har = har_file(tmp_path / "ticket.har", [
        f"{SANDBOX_BASE_URL}/restaurants/search?location=Lis%1B%5D0%3Bpwned%07bon"
        "&cuisine=thai%E2%80%AE",
        "https://evil\u001b]0;x\u0007.example/a",
    ])
    listed = run("import-har", str(har))
    assert listed.exit_code == 0, listed.output
    assert terminal_safe(listed.stdout)
    assert "location=Lis\\x1b]0;pwned\\x07bon" in listed.stdout
    as_json = run("import-har", str(har), "--json")
    assert terminal_safe(as_json.stdout)
    params = json.loads(as_json.stdout)["requests"][0]["params"]
    assert params["location"] == "Lis\x1b]0;pwned\x07bon"  # the exact data, escaped


def test_import_har_cuts_a_huge_value_on_a_terminal_and_json_keeps_it(tmp_path: Path) -> None:
    huge = "A" * 1_000_000
    har = har_file(tmp_path / "huge.har", [f"{SANDBOX_BASE_URL}/restaurants/menu?id={huge}"])
    listed = run("import-har", str(har))
    assert listed.exit_code == 0, listed.output
    assert len(listed.stdout) < 5_000
    assert "… (1,000,000 characters in all)" in listed.stdout
    as_json = run("import-har", str(har), "--json")
    assert json.loads(as_json.stdout)["requests"][0]["params"]["id"] == huge


def test_a_pasted_curl_with_escape_sequences_is_shown_not_obeyed(service: FakeService) -> None:
    for pasted in (f"curl 'https://api.example.test/restaurants/search?location=Lisbon"
                   f"{OSC0_TITLE}' -H 'X-Trace: {OSC52_CLIPBOARD}'",
                   f"curl 'https://evil{OSC0_TITLE}.example/restaurants/search?location=x'"):
        result = run("call", "--from-curl", pasted, "--dry-run")
        assert result.exit_code == 2
        assert terminal_safe(result.stdout) and terminal_safe(result.stderr), result.stderr
    assert service.requests == []


# --- writing a table ------------------------------------------------------------------


@pytest.mark.parametrize("cell", FORMULAS)
def test_a_formula_cell_is_neutralised_and_reads_back(cell: str) -> None:
    written = safe_cell(cell)
    assert written.startswith("'")
    assert original_cell(written) == cell


@pytest.mark.parametrize("cell", PLAIN_CELLS)
def test_a_plain_cell_and_a_number_stay_as_they_are(cell: str) -> None:
    assert safe_cell(cell) == cell and original_cell(cell) == cell
    assert safe_cell(-5) == -5 and safe_cell(-9.14) == -9.14


def starts_like_a_formula(cell: str) -> bool:
    return cell.startswith(("=", "+", "-", "@", "\t", "\r")) and not cell.lstrip("-").replace(
        ".", "", 1).isdigit()


def test_a_row_export_plants_no_formula() -> None:
    text = csv_text([{"name": cell, "rating": -1.5} for cell in FORMULAS])
    rows = list(csv.reader(io.StringIO(text)))
    assert not any(starts_like_a_formula(cell) for row in rows for cell in row)
    assert [row[0] for row in rows[1:]] == [safe_cell(cell) for cell in FORMULAS]
    assert {row[1] for row in rows[1:]} == {"-1.5"}  # our own number stays a number


def test_the_usage_csv_plants_no_formula() -> None:
    bucket = Bucket(label="=cmd|' /C calc'!A0")
    text = usage_csv(Usage(period="day", since=None, periods=[bucket], operations=[bucket],
                           total=bucket, grades={}), "operation")
    assert "\n'=cmd|" in text


def test_batch_out_plants_no_formula_and_batch_reads_it_back(
    service: FakeService, tmp_path: Path
) -> None:
    source = tmp_path / "companies.csv"
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "customer_ref"])
        for number, cell in enumerate(FORMULAS):
            writer.writerow([f"Company {number}", cell])
    out = tmp_path / "results.csv"
    result = run("batch", FIND, str(source), "--out", str(out), "--yes",
                 "--ignore-extra-columns")
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle))
    assert not any(starts_like_a_formula(cell) for row in rows for cell in row)
    # The file batch wrote, read by batch again: the customer's cells as batch read them.
    assert customer_refs(out) == customer_refs(source)
    assert customer_refs(source)[:8] == list(FORMULAS[:8])  # (a quote before "=" is read as
    # the neutralising quote it almost always is: a spreadsheet does not save its own)


def customer_refs(path: Path) -> list[str]:
    read = BatchFile(path, FIND, ignore_extra=True)
    return [row.echo[read.echo_columns.index("customer_ref")] for row in read]


# --- reading a name -------------------------------------------------------------------


@pytest.mark.parametrize("name", FOLDED_NAMES)
def test_invisible_characters_and_odd_spaces_are_folded_before_validation(name: str) -> None:
    assert validate(FIND, {"name": name}) == {"name": "Contoso Ltd"}


@pytest.mark.parametrize(("name", "character"), REFUSED_NAMES)
def test_what_cannot_be_folded_is_refused_naming_the_character(name: str, character: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        validate(FIND, {"name": name})
    assert refused.value.field == "name" and character in refused.value.message


def test_the_cli_notes_a_folded_name_and_sends_it_folded(service: FakeService) -> None:
    result = run("call", FIND, "--name", "Contoso\u200b\u00a0Ltd", "--json")
    assert result.exit_code == 0, result.output
    assert "name: removed 1 invisible character (U+200B ZERO WIDTH SPACE)" in result.stderr
    assert "read 1 odd space (U+00A0 NO-BREAK SPACE) as a space" in result.stderr
    assert json.loads(service.requests[0].content) == {"name": "Contoso Ltd"}


def test_the_cli_refuses_a_bidi_override_free_naming_it(service: FakeService) -> None:
    result = run("call", FIND, "--name", "Contoso\u202e Ltd")
    assert result.exit_code == 2
    assert "U+202E RIGHT-TO-LEFT OVERRIDE" in result.stderr
    assert terminal_safe(result.stderr)
    assert service.requests == []
    credits = run("credits")
    rows = [line.split() for line in credits.output.splitlines()]
    assert [FIND, "1", "0", "0", "1"] in rows  # recorded as refused, costing nothing



# --- the rest of what the CLI prints on a terminal ------------------------------------


class _TerminalStdout:
    """What ``sys`` looks like to code asking whether standard output is a terminal:
    CliRunner's stream, saying it is one."""

    class _Terminal:
        def __init__(self, stream: io.TextIOBase) -> None:
            self._stream = stream

        def isatty(self) -> bool:
            return True

        def __getattr__(self, name: str) -> object:
            return getattr(self._stream, name)

    @property
    def stdout(self) -> object:
        import sys

        return self._Terminal(sys.stdout)


def test_batch_out_to_a_terminal_shows_every_cell_visibly(
    service: FakeService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from creditscope.support import batch_destination

    source = tmp_path / "companies.csv"
    source.write_text(f"name,customer_ref\nContoso,{OSC52_CLIPBOARD}{OSC0_TITLE}\n", "utf-8")
    monkeypatch.setattr(batch_destination, "sys", _TerminalStdout())
    result = run("batch", FIND, str(source), "--out", "-", "--yes", "--ignore-extra-columns")
    assert result.exit_code == 0, result.output
    assert terminal_safe(result.stdout.replace("\r", ""))
    assert "\\x1b]52;c;" in result.stdout and "\\x1b]0;pwned\\x07" in result.stdout
    monkeypatch.undo()
    piped = run("batch", FIND, str(source), "--out", "-", "--yes", "--ignore-extra-columns")
    assert "\x1b]0;pwned\x07" in piped.stdout  # a pipe gets the exact data


def test_import_har_shows_a_method_with_escape_sequences_visibly(tmp_path: Path) -> None:
    har = har_file(tmp_path / "method.har", [f"{SANDBOX_BASE_URL}/restaurants/search"])
    document = json.loads(har.read_text("utf-8"))
    document["log"]["entries"][0]["request"]["method"] = f"GET{OSC0_TITLE}\x1b[2J"
    har.write_text(json.dumps(document), "utf-8")
    listed = run("import-har", str(har))
    assert listed.exit_code == 0, listed.output
    assert terminal_safe(listed.stdout)
    assert "GET\\x1b]0;PWNED\\x07\\x1b[2J" in listed.stdout  # (methods are upper-cased)


def test_a_batch_files_column_names_are_shown_visibly_in_its_error(tmp_path: Path) -> None:
    source = tmp_path / "columns.tsv"
    source.write_text(f"name\tx{OSC0_TITLE}\x1b[2J\nAcme\t1\n", "utf-8")
    result = run("batch", FIND, str(source), "--dry-run")
    assert result.exit_code == 2
    assert terminal_safe(result.stderr)
    assert "x\\x1b]0" in result.stderr


@pytest.mark.parametrize("codec", ["base64", "hex", "rot13", "zlib_codec"])
def test_a_codec_that_is_no_text_encoding_is_a_usage_error(tmp_path: Path, codec: str) -> None:
    source = tmp_path / "companies.csv"
    source.write_text("name\nAcme\n", "utf-8")
    result = run("batch", FIND, str(source), "--dry-run", "--encoding", codec)
    assert result.exit_code == 2, result.output
    assert f"--encoding {codec}: not a text encoding" in result.stderr


@pytest.mark.parametrize("codec", ["punycode", "undefined"])
def test_a_codec_that_fails_on_the_bytes_is_a_usage_error(tmp_path: Path, codec: str) -> None:
    source = tmp_path / "companies.csv"
    source.write_text("name\nAcmé\n", "utf-8")
    result = run("batch", FIND, str(source), "--dry-run", "--encoding", codec)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "--encoding" in result.stderr


def test_doctor_shows_what_a_finding_quotes_visibly() -> None:
    from creditscope.commands.doctor import render_text
    from creditscope.doctor.report import Finding, Report

    quoted = f"answered 500 (internal_error{OSC0_TITLE}{OSC52_CLIPBOARD})"
    report = Report({"creditscope": "0", "textual": "0", "python": "3", "platform": "x",
                     "python_executable": "/usr/bin/python3"},
                    [Finding("reachability", "problem", quoted, fix=f"ask{OSC0_TITLE}")])
    text = "\n".join(render_text(report))
    assert terminal_safe(click_unstyled(text)), text
    assert "internal_error\\x1b]0;pwned\\x07" in text and "ask\\x1b]0;" in text


def click_unstyled(text: str) -> str:
    import click

    return click.unstyle(text)


def test_paths_written_are_named_visibly(service: FakeService, tmp_path: Path) -> None:
    source = tmp_path / "companies.csv"
    source.write_text("name\nContoso\n", "utf-8")
    out = tmp_path / f"results{OSC0_TITLE}.csv"
    result = run("batch", FIND, str(source), "--out", str(out), "--yes")
    assert result.exit_code == 0, result.output
    assert terminal_safe(result.stderr)
    assert "results\\x1b]0;pwned\\x07.csv" in result.stderr


def test_a_base_url_with_a_control_character_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "http://127.0.0.1:9/\x1b[2J")
    result = run("call", "catalog")
    assert result.exit_code == 2, result.output
    assert terminal_safe(result.stderr)
    assert "base_url: holds the control character \\x1b" in result.stderr
