"""``creditscope doctor``: all well on a fresh install, and each kind of trouble reported
clearly (exit 1, the first problem and its fix) without a crash, the key or a paid call."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from creditscope.cli import main
from creditscope.client.cache import CACHE_FORMAT, DATABASE_NAME
from creditscope.doctor import run_doctor

LIVE_KEY = "sk_live_doctor_secret_7731"
CHECKS = ["config file", "settings", "service", "API key", "cache", "data", "ledger", "terminal",
          "textual patches", "reachability"]


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    found = {name: tmp_path / "cs" / name for name in ("config", "cache", "data")}
    monkeypatch.setenv("CREDITSCOPE_CONFIG_FILE", str(found["config"] / "config.toml"))
    monkeypatch.setenv("CREDITSCOPE_CACHE_DIR", str(found["cache"]))
    monkeypatch.setenv("CREDITSCOPE_DATA_DIR", str(found["data"]))
    return found


def doctor(*args: str) -> Result:
    return CliRunner().invoke(main, ["doctor", *args], catch_exceptions=False)


def doctor_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = doctor("--json", *args)
    return result.exit_code, json.loads(result.stdout)


def finding(report: dict[str, Any], name: str) -> dict[str, Any]:
    return next(check for check in report["checks"] if check["name"] == name)


def write_config(dirs: dict[str, Path], text: str, mode: int = 0o600) -> Path:
    path = dirs["config"] / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_fresh_sandbox_install_is_all_well(dirs: dict[str, Path]) -> None:
    result = doctor()
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("All well.")
    for name in CHECKS:
        assert f"  {name}  " in result.output
    assert "the built-in sandbox" in result.output
    assert "GET /catalog (sandbox): 200 in" in result.output
    code, report = doctor_json()
    assert code == 0 and report["ok"] is True and report["first_problem"] is None
    assert [check["name"] for check in report["checks"]] == CHECKS
    assert finding(report, "reachability")["details"]["endpoints"] == 8
    # Doctor reports; it creates nothing (the first real call does).
    assert not dirs["cache"].exists() and not dirs["data"].exists()


def test_after_some_calls_it_counts_cache_entries_and_ledger_rows(dirs: dict[str, Path]) -> None:
    runner = CliRunner()
    for args in (["call", "restaurants/search", "--location", "Lisbon"], ["call", "catalog"]):
        assert runner.invoke(main, args).exit_code == 0
    code, report = doctor_json()
    assert code == 0
    assert finding(report, "cache")["details"]["responses"] == 2
    ledger = finding(report, "ledger")["details"]
    assert (ledger["calls"], ledger["spent"]) == (2, 2)
    assert "sandbox-ledger.sqlite3" in finding(report, "data")["details"]["entries"]


def test_a_config_file_that_does_not_parse(dirs: dict[str, Path]) -> None:
    path = write_config(dirs, 'theme = "nord"\nbudget = \n')
    result = doctor()
    assert result.exit_code == 1
    assert "does not parse" in result.output and "line 2" in result.output
    assert f"Fix: Correct it, or move it away to start from defaults: {path}" in result.output
    assert "reachability" in result.output  # the other checks still ran
    _, report = doctor_json()
    assert report["first_problem"]["name"] == "config file"
    assert finding(report, "config file")["details"]["parses"] is False


def test_a_config_file_with_an_invalid_value_and_the_sources_of_values(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    write_config(dirs, "budget = -5\n")
    code, report = doctor_json()
    assert code == 1
    assert "invalid value" in report["first_problem"]["summary"]
    assert "budget" in report["first_problem"]["summary"]

    write_config(dirs, 'theme = "nord"\noffline = true\nbudgit = 3\n')
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "40")
    code, report = doctor_json()
    assert code == 0
    sources = finding(report, "settings")["details"]
    assert sources["from_file"] == ["offline", "theme"]
    assert "budget" in sources["from_env"] and "cache_dir" in sources["from_env"]
    config = finding(report, "config file")
    assert config["status"] == "note" and config["details"]["unknown_keys"] == ["budgit"]
    assert config["details"]["mode"] == "0600"


def test_a_key_in_a_file_others_can_read(dirs: dict[str, Path]) -> None:
    path = write_config(dirs, f'api_key = "{LIVE_KEY}"\n', mode=0o644)
    result = doctor()
    assert result.exit_code == 1
    assert "holds the API key and other users can read it" in result.output
    assert f"Fix: chmod 600 {path}" in result.output
    assert LIVE_KEY not in result.output


def test_an_invalid_environment_variable_is_reported_and_the_rest_still_checked(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BUDGET", "lots")
    monkeypatch.setenv("CREDITSCOPE_KEYS", "{not json")
    code, report = doctor_json()
    assert code == 1
    first = report["first_problem"]
    assert first["name"] == "settings"
    assert first["summary"].startswith("CREDITSCOPE_BUDGET is invalid: Input should be a valid")
    assert first["fix"] == "Correct or unset CREDITSCOPE_BUDGET."
    invalid = finding(report, "settings")["details"]["invalid_env"]
    assert [problem.split(" ")[0] for problem in invalid] == ["CREDITSCOPE_BUDGET",
                                                              "CREDITSCOPE_KEYS"]
    # The valid variables still count: the user's own directories are the ones checked.
    assert finding(report, "cache")["details"]["path"] == str(dirs["cache"] / CACHE_FORMAT)
    assert finding(report, "reachability")["status"] == "ok"


@pytest.mark.parametrize("variable", ["CACHE_DIR", "DATA_DIR"])
def test_a_directory_that_cannot_be_created(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str,
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(f"CREDITSCOPE_{variable}", str(blocker / "sub"))
    result = doctor()
    assert result.exit_code == 1
    # Every command refuses it as a usage error naming the variable; so does the doctor.
    assert f"First: settings: CREDITSCOPE_{variable} is invalid" in result.output
    assert f"cannot be created: {blocker} is not a directory" in result.output
    assert f"Fix: Correct or unset CREDITSCOPE_{variable}" in result.output


def test_a_config_path_that_is_a_directory(dirs: dict[str, Path]) -> None:
    (dirs["config"] / "config.toml").mkdir(parents=True)
    code, report = doctor_json()
    assert code == 1
    assert report["first_problem"]["name"] == "config file"
    assert "is a directory" in report["first_problem"]["summary"]


def doctor_json_without_root_overrides() -> tuple[int, dict[str, Any]]:
    """``doctor --json`` as this user; as root (how CI runs), in a process whose
    capabilities cannot override permission bits, so a directory without write
    permission is unwritable to it as to anyone else."""
    if os.geteuid() != 0:
        return doctor_json()
    setpriv = shutil.which("setpriv")
    assert setpriv, "setpriv (util-linux) runs this check as root without DAC override"
    done = subprocess.run(
        [setpriv, "--bounding-set=-dac_override,-dac_read_search",
         sys.executable, "-m", "creditscope", "doctor", "--json"],
        capture_output=True, text=True, timeout=60, check=False, stdin=subprocess.DEVNULL,
    )
    assert done.stdout, done.stderr
    return done.returncode, json.loads(done.stdout)


def test_a_read_only_cache_dir(dirs: dict[str, Path]) -> None:
    cache = dirs["cache"] / CACHE_FORMAT
    cache.mkdir(parents=True)
    cache.chmod(0o500)
    try:
        code, report = doctor_json_without_root_overrides()
    finally:
        cache.chmod(0o700)
    assert code == 1 and "not writable" in report["first_problem"]["summary"]


def test_a_corrupt_ledger_is_reported_and_left_as_it_is(dirs: dict[str, Path]) -> None:
    dirs["data"].mkdir(parents=True)
    ledger = dirs["data"] / "sandbox-ledger.sqlite3"
    garbage = b"not a ledger " * 500
    ledger.write_bytes(garbage)
    result = doctor()
    assert result.exit_code == 1
    assert "ledger" in result.output and "is damaged" in result.output
    assert "Fix: Run `creditscope credits`" in result.output
    assert ledger.read_bytes() == garbage  # doctor never repairs behind the user's back
    assert not list(dirs["data"].glob("*.corrupt-*"))


def test_a_damaged_cache_index(dirs: dict[str, Path]) -> None:
    assert CliRunner().invoke(main, ["call", "catalog"]).exit_code == 0
    index = dirs["cache"] / CACHE_FORMAT / DATABASE_NAME
    for suffix in ("-wal", "-shm"):
        index.with_name(index.name + suffix).unlink(missing_ok=True)
    index.write_bytes(b"garbage" * 1000)
    code, report = doctor_json()
    assert code == 1
    assert report["first_problem"]["name"] == "cache"
    assert "damaged" in report["first_problem"]["summary"]
    assert "creditscope cache clear" in report["first_problem"]["fix"]


def test_an_unreachable_base_url(dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    port = closed_port()
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", LIVE_KEY)
    result = doctor("--timeout", "2")
    assert result.exit_code == 1
    assert f"GET http://127.0.0.1:{port}/catalog: cannot connect" in result.output
    assert "Fix: Check the base URL" in result.output
    assert LIVE_KEY not in result.output and "sk_…7731" in result.output

    monkeypatch.setenv("CREDITSCOPE_OFFLINE", "true")
    code, report = doctor_json("--timeout", "2")
    assert code == 0  # offline by choice: a note, not a problem
    assert finding(report, "reachability")["status"] == "note"


def test_a_base_url_that_is_not_an_address(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "api.example.test")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", LIVE_KEY)
    code, report = doctor_json("--timeout", "1")
    assert code == 1
    assert report["first_problem"]["name"] == "service"
    assert "sandbox" in report["first_problem"]["fix"]


def test_a_live_service_without_a_key(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", f"http://127.0.0.1:{closed_port()}")
    code, report = doctor_json("--timeout", "1")
    assert code == 1
    assert report["first_problem"]["name"] == "API key"
    assert "CREDITSCOPE_API_KEY" in report["first_problem"]["fix"]


def test_only_the_free_catalog_is_asked_and_never_with_the_key(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://user:hunter2@api.example.test/v1")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", LIVE_KEY)
    seen: list[httpx.Request] = []
    catalog = {"providers": [{"id": "p", "name": "P", "endpoints": [
        {"name": "search", "method": "GET", "path": "/restaurants/search", "credits": 2}]}]}

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=catalog)

    report = run_doctor(timeout=2, transport=httpx.MockTransport(answer))
    assert [(r.method, r.url.path) for r in seen] == [("GET", "/v1/catalog")]
    assert "x-api-key" not in seen[0].headers
    assert not any(LIVE_KEY in value for value in seen[0].headers.values())
    text = json.dumps(report.as_json())
    assert LIVE_KEY not in text and "hunter2" not in text
    reach = next(f for f in report.findings if f.name == "reachability")
    assert reach.status == "ok" and reach.details["endpoints"] == 1


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (404, {"error": {"code": "not_found", "message": "no"}}, "answered 404 (not_found)"),
        (200, {"hello": "world"}, "not with a catalog"),
    ],
)
def test_a_service_that_answers_wrongly(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, status: int, body: Any,
    expected: str,
) -> None:
    monkeypatch.setenv("CREDITSCOPE_BASE_URL", "https://api.example.test")
    monkeypatch.setenv("CREDITSCOPE_API_KEY", LIVE_KEY)
    transport = httpx.MockTransport(lambda _request: httpx.Response(status, json=body))
    report = run_doctor(timeout=2, transport=transport)
    assert not report.ok and report.problems[0].name == "reachability"
    assert expected in report.problems[0].summary


def test_a_check_that_breaks_becomes_a_problem_not_a_traceback(
    dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import creditscope.doctor as doctor_module

    def broken() -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(doctor_module, "check_terminal", broken)
    result = doctor()
    assert result.exit_code == 1
    assert "could not be checked: OperationalError: disk I/O error" in result.output
    assert "Traceback" not in result.output
    assert "reachability" in result.output  # later checks still ran


def test_version_names_textual_and_python() -> None:
    import platform
    from importlib.metadata import version

    from creditscope import __version__

    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert result.output.strip() == (
        f"creditscope {__version__} (Textual {version('textual')}, "
        f"Python {platform.python_version()})"
    )
