"""What customers really attach goes through ``creditscope batch`` and back: one result
row per input line, the customer's own columns echoed, each distinct request paid once,
and nothing sent before the question (issue 25)."""

from __future__ import annotations

import builtins
import codecs
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from batch_results import read_results_csv
from credit_counts import ledger_spent, sandbox_balance
from creditscope.cli import main
from creditscope.client.client import DataClient
from creditscope.client.errors import InvalidRequest
from creditscope.sandbox import DEFAULT_CREDITS
from creditscope.support.batch_input import BatchFile
from creditscope.support.batch_output import STATUS_COLUMNS
from creditscope.support.batch_plan import request_key

FIND = "professional_network/find_company"
PRICE = 10  # find_company


def run(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(main, ["batch", *args], input=stdin, catch_exceptions=False)


def read_results(path: Path) -> list[dict[str, str]]:
    return read_results_csv(path)  # a semicolon file's results are semicolon-separated


def distinct_valid_requests(source: BatchFile) -> int:
    """Distinct requests among the valid rows, by the batch's own identity of a request."""
    client = DataClient("http://sandbox.invalid", None)
    keys = set()
    for row in source:
        if row.blank or row.problem:
            continue
        try:
            keys.add(request_key(FIND, client.validate(FIND, row.params)))
        except InvalidRequest:
            continue
    return len(keys)


# Each file: its name, bytes, extra flags, then per data line: (line, first column echoed),
# None for a blank line.
_NORTHWIND = "Northwind Labs Ltd"
FILES = [
    pytest.param("latin1.csv", (
        "\n".join(["name,website"] + [f"Company {n},c{n}.example" for n in range(1, 9)]
                  + ["Café Müller,cafe-muller.example", "Company 1,c1.example"]) + "\n"
    ).encode("cp1252"), ("--encoding", "cp1252"),
        [(n, f"Company {n - 1}") for n in range(2, 10)]
        + [(10, "Café Müller"), (11, "Company 1")], id="latin-1 late, with --encoding"),
    pytest.param("unicode.txt", codecs.BOM_UTF16_LE + (
        "Customer ID\tName\tWebsite\r\nC-001\tSiemens AG\tsiemens.com\r\n"
        "C-002\tKlarna Bank AB\tklarna.com\r\n\t\t\r\nC-003\tSiemens AG\tsiemens.com\r\n"
    ).encode("utf-16-le"), ("--ignore-extra-columns",),
        [(2, "C-001"), (3, "C-002"), (4, None), (5, "C-003")], id="UTF-16 from Excel, an ID"),
    pytest.param("sheets.csv", (
        b"Name,Website\r\nAcme Robotics,acme-robotics.example\r\n"
        b'"Globex, Inc.",globex.example\r\nInitech,\r\n'
    ), (), [(2, "Acme Robotics"), (3, "Globex, Inc."), (4, "Initech")],
        id="Google Sheets headers"),
    pytest.param("excel.csv", codecs.BOM_UTF8 + (
        b"sep=;\r\nname;website;;\r\nAcme;acme.example;;\r\n;;;\r\nGlobex;;;\r\n"
        b"Umbrella;umbrella.example;;\r\n"
    ), (), [(3, "Acme"), (4, None), (5, "Globex"), (6, "Umbrella")],
        id="Excel sep= and trailing empty columns"),
    pytest.param("near.csv", (
        f"name,website\n{_NORTHWIND},northwind-labs.co.uk\n\n{_NORTHWIND},northwind-labs.co.uk\n"
        f"{_NORTHWIND} ,northwind-labs.co.uk\n{_NORTHWIND.lower()},northwind-labs.co.uk\n"
        f"{_NORTHWIND},https://www.northwind-labs.co.uk/\n\n,nameless.example\n"
    ).encode(), (), [(2, _NORTHWIND), (3, None), (4, _NORTHWIND), (5, f"{_NORTHWIND} "),
                     (6, _NORTHWIND.lower()), (7, _NORTHWIND), (8, None), (9, "")],
        id="blanks and near-duplicates"),
]


@pytest.mark.parametrize(("name", "content", "flags", "expected"), FILES)
def test_a_customer_file_goes_through_and_back(
    tmp_path: Path, isolated_dirs: dict[str, Path], name: str, content: bytes,
    flags: tuple[str, ...], expected: list[tuple[int, str | None]],
) -> None:
    source = tmp_path / name
    source.write_bytes(content)
    out = tmp_path / "results.csv"
    declined = run(FIND, str(source), "--out", str(out), *flags, stdin="n\n")
    assert declined.exit_code == 1, declined.output
    assert "Spend up to" in declined.output and "Nothing was sent" in declined.output
    assert sandbox_balance(isolated_dirs["data"]) == DEFAULT_CREDITS and ledger_spent() == 0

    done = run(FIND, str(source), "--out", str(out), "--yes", *flags)
    assert done.exit_code == 0, done.output
    rows = read_results(out)
    first_column = tuple(rows[0])[len(STATUS_COLUMNS)]  # after the status columns
    assert [(int(row["line"]), row[first_column]) for row in rows] == [
        (line, echoed or "") for line, echoed in expected]
    assert [row["status"] == "blank" for row in rows] == [echoed is None for _, echoed in expected]
    assert all(row["status"] in ("ok", "invalid") for row in rows if row["status"] != "blank")
    assert all(row["best_match"] == "" for row in rows if row["status"] != "ok")  # no answer
    assert f"Wrote {len(expected)} rows to" in done.output
    encoding = flags[1] if flags[:1] == ("--encoding",) else None
    distinct = distinct_valid_requests(BatchFile(source, FIND, ignore_extra=True,
                                                 encoding=encoding))
    spent = sum(int(row["credits"]) for row in rows)
    assert 0 < distinct <= len(expected)
    assert spent == distinct * PRICE == ledger_spent()
    assert DEFAULT_CREDITS - sandbox_balance(isolated_dirs["data"]) == spent
    # What came from Excel (a BOM, UTF-16, a code page such as cp1252) goes back to it.
    from_excel = content.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE)) or bool(encoding)
    assert out.read_bytes().startswith(codecs.BOM_UTF8) == from_excel


def test_a_latin1_file_is_refused_before_anything_with_its_line_and_byte(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    lines = ["name"] + [f"Company {n}" for n in range(1, 1201)]
    lines[601] = "Café Müller"
    source = tmp_path / "export.csv"
    source.write_bytes(("\n".join(lines) + "\n").encode("latin-1"))
    out = tmp_path / "results.csv"
    result = run(FIND, str(source), "--yes", "--out", str(out))
    assert result.exit_code == 2
    assert "line 602, byte 4" in result.output and "--encoding cp1252" in result.output
    assert not out.exists() and ledger_spent() == 0
    assert sandbox_balance(isolated_dirs["data"]) == DEFAULT_CREDITS


@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
def test_out_naming_the_input_is_refused_and_the_input_kept(
    tmp_path: Path, link: str, isolated_dirs: dict[str, Path],
) -> None:
    source = tmp_path / "customers.csv"
    source.write_text("name\nAcme\n", encoding="utf-8")
    out = tmp_path / "results.csv"
    if link == "same":
        out = tmp_path / "." / "customers.csv"
    elif link == "symlink":
        out.symlink_to(source)
    else:
        os.link(source, out)
    result = run(FIND, str(source), "--yes", "--out", str(out))
    assert result.exit_code == 2 and "is the input file" in result.output
    assert source.read_text(encoding="utf-8") == "name\nAcme\n"
    assert ledger_spent() == 0 and sandbox_balance(isolated_dirs["data"]) == DEFAULT_CREDITS


@pytest.mark.parametrize(("where", "words"), [
    ("customers.csv/results.csv", "is a file, not a directory"),
    ("folder", "is a directory"),
])
def test_an_unwritable_out_is_refused_before_spending(
    tmp_path: Path, where: str, words: str, isolated_dirs: dict[str, Path],
) -> None:
    source = tmp_path / "customers.csv"
    source.write_text("name\nAcme\n", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    result = run(FIND, str(source), "--yes", "--out", str(tmp_path / where))
    assert result.exit_code == 2 and words in result.output
    assert ledger_spent() == 0 and sandbox_balance(isolated_dirs["data"]) == DEFAULT_CREDITS


def test_ctrl_c_at_the_question_exits_130_and_writes_the_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, isolated_dirs: dict[str, Path],
) -> None:
    def pressed_ctrl_c(*_: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", pressed_ctrl_c)
    source = tmp_path / "customers.csv"
    source.write_text("id,name\n7,Acme\n\n8,\n", encoding="utf-8")
    out = tmp_path / "results.csv"
    result = run(FIND, str(source), "--ignore-extra-columns", "--out", str(out))
    assert result.exit_code == 130, result.output
    assert "Aborted!" not in result.output and "nothing was sent" in result.output
    rows = read_results(out)
    assert [(row["line"], row["id"], row["status"]) for row in rows] == [
        ("2", "7", "not run"), ("3", "", "blank"), ("4", "8", "invalid")]
    assert rows[0]["error"] == "interrupted (Ctrl+C)"
    assert ledger_spent() == 0 and sandbox_balance(isolated_dirs["data"]) == DEFAULT_CREDITS


def test_a_dry_run_writes_each_rows_validation_and_price(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = tmp_path / "customers.csv"
    source.write_text("name,website\nAcme,acme.example\nAcme,acme.example\n\n"
                      ",nameless.example\nGlobex,\n", encoding="utf-8")
    run(FIND, str(tmp_path / "customers.csv"), "--yes")  # all sent and cached once...
    source.write_text(source.read_text(encoding="utf-8") + "Umbrella,\n", encoding="utf-8")
    out = tmp_path / "dry.csv"
    spent = ledger_spent()
    result = run(FIND, str(source), "--dry-run", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "dry run: nothing was sent" in result.output
    rows = read_results(out)
    assert [(row["status"], row["credits"], row["cache"]) for row in rows] == [
        ("valid", "0", "cached (free)"), ("valid", "0", "same as line 2"), ("blank", "0", ""),
        ("invalid", "0", ""), ("valid", "0", "cached (free)"), ("valid", "10", "")]
    assert "name" in rows[3]["error"]
    assert ledger_spent() == spent  # ...and the dry run spent nothing more


def test_ctrl_c_at_the_question_in_a_real_process(tmp_path: Path) -> None:
    source = tmp_path / "customers.csv"
    source.write_text("name\nAcme\nGlobex\n", encoding="utf-8")
    out = tmp_path / "results.csv"
    process = subprocess.Popen(
        [sys.executable, "-m", "creditscope", "batch", FIND, str(source), "--out", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert process.stderr is not None
    shown = b""
    deadline = time.monotonic() + 60
    # poll, not select: a worker that has run many tests may hold descriptors past 1024.
    waiting = select.poll()
    waiting.register(process.stderr, select.POLLIN)
    while b"[y/N]" not in shown and time.monotonic() < deadline:
        if waiting.poll(1000):
            shown += os.read(process.stderr.fileno(), 4096)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    shown += stderr
    assert process.returncode == 130, shown.decode()
    assert b"Aborted!" not in shown and b"Traceback" not in shown
    assert [row["status"] for row in read_results(out)] == ["not run", "not run"]
    assert ledger_spent() == 0
