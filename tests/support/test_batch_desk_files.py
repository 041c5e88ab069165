"""Files a support engineer got from customers (``batch_corpus/``, see its README) that
``creditscope batch`` read wrong: a traceback, rows silently lost or merged, data
dropped without a word. Each is now read whole, or refused before anything is sent."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from test_batch_corpus import CORPUS, PRICE, nothing_spent, results, run

from credit_counts import ledger_spent


def test_a_crm_description_cell_over_128_kb_is_read_not_a_traceback(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    out = tmp_path / "results.csv"
    result = run(str(CORPUS / "crm-long-description.csv"), "--ignore-extra-columns", "--yes",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = results(out)
    assert len(rows) == 12 and all(row["status"] == "ok" for row in rows)
    assert max(len(row["Description"]) for row in rows) > 140_000  # echoed whole
    assert ledger_spent() == 12 * PRICE


def test_a_cell_past_the_cap_is_refused_naming_its_line(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    path = tmp_path / "huge.csv"
    path.write_text("Company,Website,Notes\nAcme,acme.com,ok\nBeta,beta.com," + "y" * (5 << 20)
                    + "\n", encoding="utf-8")
    result = run(str(path), "--ignore-extra-columns", "--dry-run")
    assert result.exit_code == 2 and "line 3 has a cell longer than 4 MB" in result.output
    assert nothing_spent(isolated_dirs)


def test_an_unbalanced_quote_is_refused_instead_of_swallowing_fifty_companies(
    isolated_dirs: dict[str, Path],
) -> None:
    # Line 3 is `"12"" Pizza Ltd,pizza12.co.uk`: the quote is never closed, and the csv
    # module read lines 3-53 as one name ("2 rows").
    result = run(str(CORPUS / "unbalanced-quote.csv"), "--yes")
    assert result.exit_code == 2
    assert "unclosed quote starting on line 3" in result.output
    assert "Nothing was sent" in result.output and nothing_spent(isolated_dirs)


def test_a_quote_open_at_the_end_is_refused_and_a_quoted_line_break_is_still_read(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    result = run(str(CORPUS / "quote-open-at-end.csv"), "--yes")
    assert result.exit_code == 2 and "unclosed quote starting on line 7" in result.output
    assert nothing_spent(isolated_dirs)
    closed = tmp_path / "closed.csv"  # the same file, the customer's quote closed
    closed.write_text((CORPUS / "quote-open-at-end.csv").read_text(encoding="utf-8").replace(
        '"Unclosed quote Ltd,', '"Unclosed quote Ltd",'), encoding="utf-8")
    assert run(str(closed), "--dry-run").exit_code == 0


def test_a_quoted_cell_swallowing_rows_is_refused_even_when_a_later_quote_closes_it(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    path = tmp_path / "swallowed.csv"
    path.write_text('Company,Website\n"Unclosed Ltd,foo.com\nNext Co,next.com\n'
                    'Third Ltd,third.com\n"Other",other.com\n', encoding="utf-8")
    result = run(str(path), "--dry-run")
    assert result.exit_code == 2, result.output
    assert ("unclosed quote starting on line 2: the quoted cell swallows line 3 "
            "(Next Co,next.com)") in result.output
    address = tmp_path / "address.csv"  # a real multi-line cell is no swallowed row
    address.write_text('Company,Website\n"Acme Ltd\n1 High St, London\nUK",acme.co.uk\n',
                       encoding="utf-8")
    assert run(str(address), "--dry-run").exit_code == 0


def test_a_scripts_workbook_whose_formulas_were_never_calculated_loses_no_cell(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    # openpyxl saved the formulas alone: calamine read "=1+1" and "=COUNTA" as empty.
    source = CORPUS / "openpyxl-formulas.xlsx"
    refused = run(str(source), "--ignore-extra-columns", "--dry-run")
    assert refused.exit_code == 2
    assert ("this workbook's formulas were never calculated (cell B4 holds =1+1 and no "
            "value): open and save it in Excel or LibreOffice, or export CSV") in refused.output
    assert nothing_spent(isolated_dirs)
    links_only = tmp_path / "links.xlsx"  # its HYPERLINK cells alone read as Excel shows them
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(links_only, "w") as copy:
        for member in original.infolist():
            data = original.read(member.filename)
            if member.filename == "xl/worksheets/sheet2.xml":
                data = data.replace(b"<f>1+1</f><v />", b"").replace(
                    b"<f>COUNTA(B2:B7)</f><v />", b"")
            copy.writestr(member, data)
    out = tmp_path / "results.csv"
    result = run(str(links_only), "--ignore-extra-columns", "--yes", "--out", str(out))
    assert result.exit_code == 0, result.output
    sent = {row["Firma"]: row["Webseite"] for row in results(out) if row["status"] == "ok"}
    assert sent == {"Siemens AG": "siemens.com", "Bayerische Motoren Werke AG": "bmw.com",
                    "BASF SE": "basf.com", "Allianz SE": "allianz.com"}


def dry_run_statuses(tmp_path: Path, name: str) -> list[tuple[str, str]]:
    out = tmp_path / "dry.csv"
    result = run(str(CORPUS / name), "--ignore-extra-columns", "--dry-run", "--out", str(out))
    assert result.exit_code == 0, result.output
    return [(row["line"], row["status"]) for row in results(out)]


def test_report_footers_below_the_list_are_skipped_not_priced(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    assert dry_run_statuses(tmp_path, "salesforce-report-footer.csv") == [
        ("2", "valid"), ("3", "valid"), ("4", "blank"), ("5", "skipped"), ("6", "blank"),
        ("7", "skipped"), ("8", "skipped")]  # Grand Totals (2 records), Confidential, ©
    assert dry_run_statuses(tmp_path, "crm-footers.csv") == [
        ("2", "valid"), ("3", "blank")] + [(str(line), "skipped") for line in range(4, 9)]
    assert nothing_spent(isolated_dirs)


def test_a_report_footer_block_after_two_blank_rows_is_skipped_whole(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    # The report's name and filters under "Generated By:" were priced as three companies.
    assert dry_run_statuses(tmp_path, "salesforce-report-filters.csv") == [
        ("2", "valid"), ("3", "valid"), ("4", "valid"), ("5", "blank"), ("6", "blank"),
        ("7", "skipped"), ("8", "skipped"), ("9", "blank"), ("10", "skipped"),
        ("11", "skipped"), ("12", "skipped")]
    assert nothing_spent(isolated_dirs)


@pytest.mark.parametrize(("text", "statuses", "summary"), [
    ("Copyright Agency Ltd,\nAcme,acme.com\nPage 1 of 1\n",
     ["valid", "valid", "skipped"], "1 skipped"),
    # skipped rows between companies: each counted, and every company after still priced
    ("Acme,acme.com\nTotal: 3\nGlobex,globex.com\nSubtotal EMEA\nInitech,initech.com\n",
     ["valid", "skipped", "valid", "skipped", "valid"], "2 skipped"),
    # rows after two blank rows without a footer cell are still requests
    ("Acme,acme.com\n,\n,\nAccount Report Ltd,\nBeta,beta.com\n",
     ["valid", "blank", "blank", "valid", "valid"], "3 valid"),
])
def test_a_footer_shaped_name_above_a_request_is_still_a_company(
    tmp_path: Path, isolated_dirs: dict[str, Path], text: str, statuses: list[str],
    summary: str,
) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Company,Website\n" + text, encoding="utf-8")
    out = tmp_path / "dry.csv"
    done = run(str(path), "--dry-run", "--out", str(out))
    assert done.exit_code == 0, done.output
    assert [row["status"] for row in results(out)] == statuses
    assert summary in done.output and nothing_spent(isolated_dirs)


def test_totals_in_every_accounting_format_and_a_subtotal_are_skipped(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    statuses = dict(dry_run_statuses(tmp_path, "totals-formats.csv"))
    assert statuses["2"] == "valid"  # Siemens AG
    # Summe, Gesamt:, 100%, $1,234.00, (1,234), n/a, -, TOTAL (3 companies), Total: 3,
    # Subtotal EMEA: none is priced as a company
    assert all(statuses[str(line)] == "skipped" for line in range(3, 13)), statuses


def test_a_results_workbook_given_back_does_not_price_its_grand_total(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    statuses = dry_run_statuses(tmp_path, "results-fed-back.xlsx")
    assert statuses[-1] == ("8", "skipped")  # the "Grand total" row


def test_hubspots_domain_and_website_columns_are_never_chosen_between_silently(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    source = CORPUS / "hubspot-companies.csv"
    refused = run(str(source), "--ignore-extra-columns", "--dry-run")
    assert refused.exit_code == 2  # Fabrikam's Website URL is empty: it would go without one
    assert ("columns 'Company Domain Name' and 'Website URL' could both be the website; say "
            "which with --website-column") in refused.output
    out = tmp_path / "dry.csv"
    told = run(str(source), "--ignore-extra-columns", "--website-column", "Company Domain Name",
               "--dry-run", "--out", str(out))
    assert told.exit_code == 0, told.output
    assert [row["Company Domain Name"] for row in results(out) if row["status"] == "valid"] == [
        "contoso.com", "fabrikam.com", "adventure-works.com"]
    assert nothing_spent(isolated_dirs)


def test_website_beside_domain_names_both_instead_of_calling_domain_no_parameter(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Company,Website,Domain\nAcme,https://acme-robotics.com,acme-robotics.com\n",
                    encoding="utf-8")
    refused = run(str(path), "--dry-run")
    assert refused.exit_code == 2 and "not a parameter" not in refused.output
    assert "'Website' and 'Domain' could both be the website" in refused.output
    assert "--website-column" in refused.output


def test_a_header_cell_with_a_line_break_reads_as_its_words(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    out = tmp_path / "dry.csv"
    result = run(str(CORPUS / "header-line-breaks.csv"), "--ignore-extra-columns", "--dry-run",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "columns Company Name (as name), Web site (as website)" in result.output
    assert [(row["line"], row["status"], row["Company Name"]) for row in results(out)] == [
        ("4", "valid", "Acme Robotics"), ("5", "valid", "Beta Corp")]


@pytest.mark.parametrize(("name", "advice", "reads"), [
    ("japanese-shift-jis.csv", "--encoding cp932", "会社名,ウェブサイト"),
    ("greek-cp1253.csv", "--encoding cp1253", "Ελληνική Εταιρεία Α.Ε."),
])
def test_encoding_advice_reads_the_files_own_script_and_works(
    isolated_dirs: dict[str, Path], name: str, advice: str, reads: str,
) -> None:
    refused = run(str(CORPUS / name), "--dry-run")
    assert refused.exit_code == 2
    assert f"re-run with {advice}" in refused.output and reads in refused.output
    followed = run(str(CORPUS / name), *advice.split(), "--dry-run")
    assert followed.exit_code == 0, followed.output
    assert nothing_spent(isolated_dirs)


def test_a_lone_nul_byte_in_utf8_is_named_not_called_utf16(
    isolated_dirs: dict[str, Path],
) -> None:
    refused = run(str(CORPUS / "nul-in-utf8.csv"), "--dry-run")
    assert refused.exit_code == 2
    assert "line 3: a NUL byte" in refused.output and "UTF-16" not in refused.output
    assert "utf-16" not in refused.output


@pytest.mark.parametrize(("name", "said"), [
    ("utf8-latin.csv", 'read as cp1252 it says "NestlÃ© S.A.,nestle.com" instead of '
                       '"Nestlé S.A.,nestle.com"'),
    ("utf8-bom-latin.csv", "UTF-8 (it starts with a UTF-8 byte-order mark)"),
])
def test_a_utf8_file_forced_to_cp1252_is_refused_not_read_as_mojibake(
    isolated_dirs: dict[str, Path], name: str, said: str,
) -> None:
    refused = run(str(CORPUS / name), "--encoding", "cp1252", "--yes")
    assert refused.exit_code == 2 and said in refused.output
    assert "drop --encoding cp1252" in refused.output and nothing_spent(isolated_dirs)


@pytest.mark.parametrize(("name", "kind"), [
    ("html-saved-as.xls", "an HTML page"),
    ("xml-spreadsheet-2003.xls", 'an XML file (Excel 2003 "XML Spreadsheet")'),
])
def test_markup_saved_as_xls_is_named_with_what_to_do(
    isolated_dirs: dict[str, Path], name: str, kind: str,
) -> None:
    refused = run(str(CORPUS / name), "--dry-run")
    assert refused.exit_code == 2 and "--name-column" not in refused.output
    assert (f"is {kind}, not a table batch reads: open it in Excel and save it as .xlsx or "
            "CSV") in refused.output


def test_a_header_below_eleven_title_rows_is_found(isolated_dirs: dict[str, Path]) -> None:
    result = run(str(CORPUS / "eleven-title-rows.csv"), "--ignore-extra-columns", "--dry-run")
    assert result.exit_code == 0, result.output
    assert "header on line 12, below 11 title rows" in result.output


def test_an_empty_first_sheet_points_at_the_sheet_holding_the_list(
    isolated_dirs: dict[str, Path],
) -> None:
    refused = run(str(CORPUS / "empty-first-sheet.xlsx"), "--dry-run")
    assert refused.exit_code == 2 and "sheet 'Empty' is empty" in refused.output
    assert "The list may be on another sheet: --sheet 'Data'" in refused.output
    assert run(str(CORPUS / "empty-first-sheet.xlsx"), "--sheet", "Data",
               "--dry-run").exit_code == 0


def test_results_of_a_semicolon_file_open_in_columns_in_german_excel(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    out = tmp_path / "results.csv"
    done = run(str(CORPUS / "excel-de-cp1252.csv"), "--encoding", "cp1252",
               "--ignore-extra-columns", "--dry-run", "--out", str(out))
    assert done.exit_code == 0, done.output
    assert "semicolon-separated as the input" in done.output
    header = out.read_text(encoding="utf-8-sig").splitlines()[0]
    assert header.startswith("line;status;credits;") and "," not in header
    with_sep = tmp_path / "sep.csv"  # Excel's sep= line goes back too
    with_sep.write_text("sep=;\nName;Website\nSiemens AG;siemens.com\n", encoding="utf-8")
    run(str(with_sep), "--dry-run", "--out", str(out))
    assert out.read_text(encoding="utf-8").splitlines()[:2] == [
        "sep=;", "line;status;credits;possibly_charged;cache;error;note;Name;Website;matches;"
        "best_match;best_match_url;confidence;name_similarity;website_match"]


def test_messages_read_as_written_english(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    other_sheet = run(str(CORPUS / "accounts.xlsx"), "--dry-run")
    assert "(they are then echoed in --out). The list may be on another sheet" in (
        other_sheet.output)
    one_column = tmp_path / "names.csv"
    one_column.write_text("Company\nAcme,acme.com\nBeta\n", encoding="utf-8")
    result = run(str(one_column), "--dry-run")
    assert "line 2: 2 cells but the header has 1 column (" in result.output


def test_a_row_hidden_in_the_workbook_is_skipped_with_a_note_not_charged(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    out = tmp_path / "results.csv"
    result = run(str(CORPUS / "filtered-hidden-row.xlsx"), "--ignore-extra-columns", "--yes",
                 "--out", str(out))
    assert result.exit_code == 0, result.output
    rows = {row["line"]: row for row in results(out)}
    assert rows["5"]["status"] == "skipped" and rows["5"]["Company"] == "Hidden Row Co"
    assert rows["5"]["note"] == ("hidden in the workbook (filtered out), not sent; unhide it "
                                 "to send it")
    sent = [row for row in rows.values() if row["status"] == "ok"]
    assert "Hidden Row Co" not in {row["Company"] for row in sent}
    assert ledger_spent() == len(sent) * PRICE


def test_cells_beyond_the_header_are_kept_in_the_rows_error(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Company,Website\nAcme, Inc.,acme.com\n", encoding="utf-8")
    out = tmp_path / "dry.csv"
    run(str(path), "--dry-run", "--out", str(out))
    (row,) = results(out)
    assert (row["status"], row["Company"], row["Website"]) == ("invalid", "Acme", " Inc.")
    assert row["error"].endswith("beyond the header: 'acme.com'")  # not lost from the results
