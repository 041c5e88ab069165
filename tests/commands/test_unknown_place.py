"""Issue 23, C: a search for a place the client can tell will find nothing ("Narnia",
"Hogwarts") costs nothing: ``call`` refuses it (exit 2, suggestions, nothing sent),
``batch`` lists it as an invalid row; ``--allow-unknown-place`` sends it anyway."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from credit_counts import ledger_lifetime as lifetime
from credit_counts import sandbox_balance as balance
from creditscope.cli import main
from creditscope.sandbox import DEFAULT_CREDITS, SANDBOX_BASE_URL

SEARCH = "restaurants/search"


def cli(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_call_refuses_an_unknown_place_for_free(isolated_dirs: dict[str, Path]) -> None:
    result = cli("call", SEARCH, "--location", "Narnia")
    assert result.exit_code == 2
    assert "No place called 'Narnia' is known, so nothing was sent or charged" \
        in result.stderr
    assert "Did you mean Narita" in result.stderr and "--allow-unknown-place" in result.stderr
    hogwarts = cli("call", SEARCH, "--location", "Hogwarts", "--dry-run")
    assert hogwarts.exit_code == 2 and "Hogwarts" in hogwarts.stderr
    assert balance(isolated_dirs["data"]) == DEFAULT_CREDITS
    assert lifetime()["spent"] == 0


def test_a_pasted_curl_search_for_an_unknown_place_is_refused_too(
    isolated_dirs: dict[str, Path],
) -> None:
    pasted = f"curl '{SANDBOX_BASE_URL}/restaurants/search?location=Hogwarts'"
    result = cli("call", "--from-curl", pasted)
    assert result.exit_code == 2 and "No place called 'Hogwarts'" in result.stderr
    assert balance(isolated_dirs["data"]) == DEFAULT_CREDITS


def test_known_places_are_sent_and_the_flag_sends_an_unknown_one(
    isolated_dirs: dict[str, Path],
) -> None:
    assert cli("call", SEARCH, "--location", "Lisbon", "--json").exit_code == 0
    sent = cli("call", SEARCH, "--location", "Hogwarts", "--allow-unknown-place", "--json")
    assert sent.exit_code == 0, sent.stderr
    assert json.loads(sent.stdout)["results"] == []  # the sandbox found nothing: charged
    assert DEFAULT_CREDITS - balance(isolated_dirs["data"]) == 4 == lifetime()["spent"]


def batch(tmp_path: Path, places: list[str], *flags: str) -> tuple[Any, list[dict[str, str]]]:
    """Run ``batch restaurants/search`` over ``places``; its output and result rows."""
    source, out = tmp_path / "places.csv", tmp_path / "out.csv"
    source.write_text("location\n" + "\n".join(places) + "\n", encoding="utf-8")
    result = cli("batch", SEARCH, str(source), "--yes", "--out", str(out), *flags)
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8") as handle:
        return result, list(csv.DictReader(handle))


def test_batch_lists_unknown_places_as_invalid_and_never_prices_them(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    result, rows = batch(tmp_path, ["Lisbon", "Narnia", "Hogwarts"])
    assert "3 rows: 1 valid (1 distinct, 0 duplicates sent once), 2 invalid" in result.output
    assert "line 3: No place called 'Narnia'" in result.output
    assert "Did you mean Narita" in result.output and "--allow-unknown-place" in result.output
    assert "To send: 1 request × 2 cr = 2 credits" in result.output
    assert [row["status"] for row in rows] == ["ok", "invalid", "invalid"]
    assert "Hogwarts" in rows[2]["error"]
    assert DEFAULT_CREDITS - balance(isolated_dirs["data"]) == 2 == lifetime()["spent"]


def test_batch_sends_unknown_places_with_the_flag(
    tmp_path: Path, isolated_dirs: dict[str, Path],
) -> None:
    result, rows = batch(tmp_path, ["Narnia", "Hogwarts"], "--allow-unknown-place")
    assert "To send: 2 requests × 2 cr = 4 credits" in result.output
    assert [row["status"] for row in rows] == ["ok", "ok"]
    assert DEFAULT_CREDITS - balance(isolated_dirs["data"]) == 4 == lifetime()["spent"]
