"""Files as customers send them (issue 37), from ``batch_corpus/``, byte for byte as real
programs saved them: workbooks from LibreOffice, Excel for Mac's Mac Roman with CR line
ends, a German cp1252 export, Excel's "Unicode text", lists with title rows, totals rows,
header words of other markets and a line break inside a cell. Each goes through
``creditscope batch`` on the sandbox, and what it spent is checked against the ledger."""

from __future__ import annotations

import codecs
import io
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from batch_results import read_results_csv
from credit_counts import ledger_spent, sandbox_balance
from creditscope.cli import main
from creditscope.sandbox import DEFAULT_CREDITS

CORPUS = Path(__file__).parent / "batch_corpus"
FIND = "professional_network/find_company"
PRICE = 10  # find_company


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["batch", FIND, *args], catch_exceptions=False)


def results(path: Path) -> list[dict[str, str]]:
    return read_results_csv(path)  # a semicolon file's results are semicolon-separated


def workbook_rows(path: Path) -> list[list[Any]]:
    from python_calamine import CalamineWorkbook

    return list(CalamineWorkbook.from_path(str(path)).get_sheet_by_index(0).iter_rows())


def nothing_spent(dirs: dict[str, Path]) -> bool:
    return ledger_spent() == 0 and sandbox_balance(dirs["data"]) == DEFAULT_CREDITS


@pytest.mark.parametrize(("name", "kind"), [("prospects.xlsx", "Excel workbook"),
                                            ("prospects.ods", "OpenDocument spreadsheet")])
def test_a_workbook_is_read_below_its_title_and_its_total_is_not_sent(
    tmp_path: Path, isolated_dirs: dict[str, Path], name: str, kind: str,
) -> None:
    # LibreOffice's own .xlsx and .ods: a title row, a blank row, Company / Domain /
    # Employees, an Alt+Enter cell, and a "Total" row whose count is a =SUM formula.
    out = tmp_path / "results.csv"
    result = run(str(CORPUS / name), "--ignore-extra-columns", "--yes", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"{kind}, sheet 'prospects'" in result.output and "UTF-16" not in result.output
    assert "header on line 3, below 1 title row" in result.output
    rows = results(out)
    assert [(row["line"], row["status"], row["Company"]) for row in rows] == [
        ("4", "ok", "Nestlé S.A."), ("5", "ok", "Tailspin Toys\nUK Division"),
        ("6", "ok", "Contoso Ltd"), ("7", "ok", "Fabrikam"), ("8", "skipped", "Total")]
    assert rows[-1]["Employees"] == "270245"  # the formula's value, never the formula
    assert rows[-1]["note"] == "a totals row (Total), not a request"
    assert rows[1]["note"] == "the line break in name was read as a space"
    assert ledger_spent() == 4 * PRICE == DEFAULT_CREDITS - sandbox_balance(isolated_dirs["data"])
    assert out.read_bytes().startswith(codecs.BOM_UTF8)  # a workbook came from Excel


def test_a_named_sheet_goes_back_as_a_real_workbook_whose_text_is_never_a_formula(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = CORPUS / "accounts.xlsx"  # sheets "Summary", then "Accounts"
    first = run(str(source), "--dry-run")
    assert first.exit_code == 2 and "sheet 'Summary'" in first.output
    assert "The list may be on another sheet: --sheet 'Accounts'" in first.output
    out = tmp_path / "results.xlsx"
    result = run(str(source), "--sheet", "accounts", "--yes", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "Wrote 7 rows" in result.output and "(XLSX)" in result.output
    assert zipfile.is_zipfile(out)
    rows = workbook_rows(out)
    header = rows[0]
    by_line = {int(row[0]): dict(zip(header, row, strict=True)) for row in rows[1:]}
    assert by_line[3]["Account Name"] == '=HYPERLINK("http://evil.example","Click")'
    assert [by_line[line]["status"] for line in range(2, 9)] == [
        "ok", "ok", "ok", "ok", "skipped", "skipped", "skipped"]
    assert [by_line[line]["note"] for line in (6, 7, 8)] == [
        "a totals row (Grand total), not a request",
        "numbers only (a total or a count), not a request", "a notes row, not a request"]
    sheet_xml = zipfile.ZipFile(out).read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet_xml  # no cell is a formula...
    styles = zipfile.ZipFile(out).read("xl/styles.xml").decode()
    assert 'quotePrefix="1"' in styles  # ...and text that looks like one stays text if edited
    assert ledger_spent() == 4 * PRICE == DEFAULT_CREDITS - sandbox_balance(isolated_dirs["data"])


def test_an_unknown_sheet_is_named_among_the_sheets(isolated_dirs: dict[str, Path]) -> None:
    result = run(str(CORPUS / "accounts.xlsx"), "--sheet", "Leads", "--yes")
    assert result.exit_code == 2
    assert "has no sheet 'Leads' (its sheets: 'Summary', 'Accounts')" in result.output
    assert nothing_spent(isolated_dirs)


@pytest.mark.parametrize("suffix", [".ods", ".xls", ".xlsm"])
def test_out_naming_a_workbook_not_written_here_is_refused_naming_csv(
    tmp_path: Path, isolated_dirs: dict[str, Path], suffix: str,
) -> None:
    out = tmp_path / f"results{suffix}"
    result = run(str(CORPUS / "crm-title-rows.csv"), "--yes", "--out", str(out))
    assert result.exit_code == 2 and "results.csv" in result.output
    assert "results.xlsx" in result.output
    assert not out.exists() and nothing_spent(isolated_dirs)


def test_a_workbook_renamed_csv_is_still_a_workbook_and_a_pdf_is_no_text_table(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    renamed = tmp_path / "prospects.csv"
    shutil.copy(CORPUS / "prospects.xlsx", renamed)
    # As advised before: "looks like UTF-16 without a BOM; re-run with --encoding utf-16-le".
    advised = run(str(renamed), "--ignore-extra-columns", "--encoding", "utf-16-le", "--dry-run")
    assert advised.exit_code == 0, advised.output
    assert "Excel workbook" in advised.output and "--encoding utf-16-le ignored" in advised.output
    pdf = run(str(CORPUS / "prospects.pdf"), "--yes")
    assert pdf.exit_code == 2
    assert "is not a text table (it looks like a PDF document)" in pdf.output
    assert "--encoding" not in pdf.output
    binary = tmp_path / "export.csv"
    binary.write_bytes(bytes(range(256)) * 8)  # NUL bytes, and no UTF-16 text in them
    refused = run(str(binary), "--yes")
    assert "is not a text table" in refused.output and "--encoding" not in refused.output
    cut = tmp_path / "cut.xlsx"  # an attachment that did not arrive whole
    cut.write_bytes((CORPUS / "prospects.xlsx").read_bytes()[:2000])
    damaged = run(str(cut), "--yes")
    assert damaged.exit_code == 2 and "a damaged ZIP archive" in damaged.output
    assert nothing_spent(isolated_dirs)


def test_an_excel_2011_for_mac_csv_is_named_mac_roman_and_read_so(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = CORPUS / "excel2011-mac.csv"  # Mac Roman, CR line ends: Nestlé, L’Oréal
    refused = run(str(source), "--yes")
    assert refused.exit_code == 2 and nothing_spent(isolated_dirs)
    assert "line 2, byte 6" in refused.output
    assert 'looks like Mac Roman, as Excel for Mac saves CSV: that line reads "Nestlé S.A.' \
        in refused.output
    assert "re-run with --encoding mac_roman" in refused.output
    out = tmp_path / "results.csv"
    done = run(str(source), "--encoding", "mac_roman", "--yes", "--out", str(out))
    assert done.exit_code == 0, done.output
    assert [row["Company"] for row in results(out)] == ["Nestlé S.A.", "L’Oréal", "Contoso Ltd"]
    assert out.read_bytes().startswith(codecs.BOM_UTF8)  # Excel for Mac gets a BOM back
    assert ledger_spent() == 3 * PRICE


def test_a_german_cp1252_export_is_advised_cp1252_and_gets_a_bom_back(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = CORPUS / "excel-de-cp1252.csv"  # Firma;Webseite;Mitarbeiter ... Summe;;19
    refused = run(str(source), "--ignore-extra-columns", "--yes")
    assert "re-run with --encoding cp1252" in refused.output and nothing_spent(isolated_dirs)
    out = tmp_path / "results.csv"
    done = run(str(source), "--encoding", "cp1252", "--ignore-extra-columns", "--yes",
               "--out", str(out))
    assert done.exit_code == 0, done.output
    assert "Firma (as name), Webseite (as website)" in done.output
    assert "1 skipped" in done.output and "skipped rows cost nothing" in done.output
    assert [(row["Firma"], row["status"]) for row in results(out)] == [
        ("Müller GmbH", "ok"), ("Bäckerei Größe KG", "ok"), ("Summe", "skipped")]
    assert out.read_bytes().startswith(codecs.BOM_UTF8)
    assert ledger_spent() == 2 * PRICE


def test_excel_unicode_text_with_an_alt_enter_cell_is_sent_with_a_space(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    out = tmp_path / "results.csv"
    done = run(str(CORPUS / "unicode-text.txt"), "--yes", "--out", str(out))
    assert done.exit_code == 0, done.output
    rows = results(out)
    assert [(row["line"], row["status"]) for row in rows] == [
        ("2", "ok"), ("4", "ok"), ("5", "skipped")]  # the quoted cell runs over line 3
    assert rows[0]["Organisation"] == "Tailspin Toys\nUK Division"  # echoed as it was
    assert rows[0]["note"] == "the line break in name was read as a space"
    assert rows[0]["best_match"]  # sent as "Tailspin Toys UK Division", and answered
    assert ledger_spent() == 2 * PRICE


@pytest.mark.parametrize(("name", "columns", "valid", "skipped"), [
    ("crm-title-rows.csv", "Company Name (as name), Website URL (as website)", 2, 1),
    ("excel-fr-utf8.csv", "Société (as name), Site web (as website)", 1, 1),
    ("excel-nl-utf8.csv", "Bedrijfsnaam (as name), Website", 1, 1),
    ("excel-es-utf8.csv", "Empresa (as name), Sitio web (as website)", 1, 0),
    ("excel-ja-utf8.csv", "会社名 (as name), ウェブサイト (as website)", 1, 1),
])
def test_headers_by_meaning_and_totals_rows_free(
    isolated_dirs: dict[str, Path], name: str, columns: str, valid: int, skipped: int,
) -> None:
    result = run(str(CORPUS / name), "--dry-run")
    assert result.exit_code == 0, result.output
    assert f"columns {columns}" in result.output
    assert f"{valid} valid" in result.output
    assert (f"{skipped} skipped" in result.output) == bool(skipped)
    assert f"= {valid * PRICE} credits" in result.output  # the totals row is not priced
    assert nothing_spent(isolated_dirs)


def test_a_tsv_is_tab_separated_and_a_column_can_be_named_outright(
    isolated_dirs: dict[str, Path],
) -> None:
    source = str(CORPUS / "legal-names.tsv")  # header "Company; legal name<TAB>Website"
    unknown = run(source, "--dry-run")
    assert unknown.exit_code == 2 and "--name-column" in unknown.output
    named = run(source, "--name-column", "Company; legal name", "--dry-run")
    assert named.exit_code == 0, named.output
    assert "CSV (tab-separated" in named.output and "2 valid" in named.output
    assert nothing_spent(isolated_dirs)


def test_two_columns_for_one_parameter_are_never_chosen_between_silently(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = tmp_path / "crm.csv"
    source.write_bytes(b"Account Name,Website URL,Domain\r\n"
                       b"Contoso Ltd,contoso.example,contoso.com\r\n")
    ambiguous = run(str(source), "--dry-run")
    assert ambiguous.exit_code == 2
    assert "'Website URL' and 'Domain' could both be the website" in ambiguous.output
    told = run(str(source), "--website-column", "domain", "--ignore-extra-columns", "--out",
               str(tmp_path / "out.csv"), "--dry-run")
    assert told.exit_code == 0, told.output
    assert "Domain (as website); ignoring Website URL" in told.output
    assert nothing_spent(isolated_dirs)


def test_results_of_a_workbook_keep_the_customers_text_exactly(tmp_path: Path,
                                                               isolated_dirs: dict[str, Path],
                                                               ) -> None:
    # A CSV with text a spreadsheet would run, to an .xlsx: each cell is text, as typed.
    source = tmp_path / "in.csv"
    source.write_bytes(b"name\r\n=1+1\r\n-Minus Ltd\r\n+Plus Ltd\r\n")
    out = tmp_path / "out.xlsx"
    assert run(str(source), "--dry-run", "--out", str(out)).exit_code == 0
    names = [row[7] for row in workbook_rows(out)[1:]]
    assert names == ["=1+1", "-Minus Ltd", "+Plus Ltd"]
    with zipfile.ZipFile(out) as archive:
        assert "<f>" not in archive.read("xl/worksheets/sheet1.xml").decode()
    assert io.BytesIO(out.read_bytes()).read(4) == b"PK\x03\x04"
    assert nothing_spent(isolated_dirs)
