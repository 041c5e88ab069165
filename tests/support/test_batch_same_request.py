"""``creditscope batch`` with what customers' spreadsheets really hold: near-duplicate rows
cost once, junk websites are refused before the price and never sent."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from creditscope.cli import main

FIND = "professional_network/find_company"
PRICE = 10


def test_near_duplicates_cost_once_and_junk_websites_are_never_priced(tmp_path: Path) -> None:
    source = tmp_path / "customers.csv"
    source.write_text(
        "name,website\n"
        "Northwind Labs Ltd ,https://www.northwind-labs.co.uk/\n"  # 1: sent
        "northwind labs ltd,northwind-labs.co.uk\n"  # 2: same as 1
        "NORTHWIND  LABS LTD.,HTTPS://WWW.Northwind-Labs.co.uk/team\n"  # 3: same as 1
        "Northwind Labs Ltd,   \n"  # 4: sent (no website)
        "northwind labs,\n"  # 5: same as 4 (the spec drops Ltd before searching)
        "Acme,n/a\n"
        "Acme,info@example.co.uk\n"
        "Acme,TBD\n"
        "Acme,https://\n"
        "Acme,-\n"
        "Acme,co.uk\n"
        "Globex,globex.example\n",  # 12: sent
        encoding="utf-8",
    )
    out = tmp_path / "out.csv"
    runner = CliRunner()
    result = runner.invoke(main, ["batch", FIND, str(source), "--yes", "--out", str(out)],
                           catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "12 rows: 6 valid (3 distinct, 3 duplicates sent once), 6 invalid" in result.output
    assert f"To send: 3 requests × {PRICE} cr = {3 * PRICE} credits" in result.output
    assert ("line 7: website must be a domain or URL such as example.com, not “n/a”"
            in result.output)
    assert "line 8: website is an e-mail address, not a website" in result.output

    with out.open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["status"] for r in rows] == ["ok"] * 5 + ["invalid"] * 6 + ["ok"]
    assert [int(r["credits"]) for r in rows] == [10, 0, 0, 10, 0] + [0] * 6 + [10]
    assert [r["cache"] for r in rows[1:5]] == ["same as line 2", "same as line 2", "miss",
                                               "same as line 5"]
    assert rows[1]["confidence"] == rows[0]["confidence"] == "high"

    spent = json.loads(runner.invoke(main, ["credits", "--json"]).stdout)["lifetime"]["spent"]
    assert spent == 3 * PRICE  # distinct normalised valid requests × price
