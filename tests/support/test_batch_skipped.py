"""Totals, counts and notes under a list are no request; a company called "Total" is one,
and a header is read by what it means."""

from __future__ import annotations

import pytest

from creditscope.support.batch_columns import ColumnChoiceProblem, column_params
from creditscope.support.batch_skipped import skip_reason

NAME_WEBSITE = ("name", "website", None)  # a third column that is no parameter


@pytest.mark.parametrize(("cells", "reason"), [
    (["Total", "", "8"], "a totals row (Total), not a request"),
    (["Summe", "", "5"], "a totals row (Summe), not a request"),
    (["Grand total:", "", "1,234.50"], "a totals row (Grand total), not a request"),
    (["Totaal", "", ""], "a totals row (Totaal), not a request"),
    (["Gesamt 12", "", ""], "a totals row (Gesamt), not a request"),
    (["合計", "", "3"], "a totals row (合計), not a request"),
    (["40", "", ""], "numbers only (a total or a count), not a request"),
    (["Notes: exported from the CRM", "", ""], "a notes row, not a request"),
    (["Anmerkung: Stand 30.09.", "", ""], "a notes row, not a request"),
])
def test_totals_counts_and_notes_are_skipped(cells: list[str], reason: str) -> None:
    assert skip_reason(cells, NAME_WEBSITE) == reason


@pytest.mark.parametrize("cells", [
    ["Total", "total.com", ""],  # a company really called Total: it has a website
    ["Total S.A.", "", ""],
    ["Sum Up Ltd", "", "8"],
    ["3M", "3m.com", ""],
    ["", "", "8"],  # a number in no parameter and no name: invalid (name missing), not skipped
    ["", "", ""],
])
def test_a_company_really_called_total_is_sent(cells: list[str]) -> None:
    assert skip_reason(cells, NAME_WEBSITE) is None


def test_a_number_where_a_place_or_an_id_goes_is_a_request() -> None:
    assert skip_reason(["10115"], ("location",)) is None  # a German postcode
    assert skip_reason(["38.7", "-9.1"], ("lat", "lng")) is None


@pytest.mark.parametrize(("header", "params"), [
    (["Company", "Domain"], ("name", "website")),
    (["Account Name", "Website URL", "Owner"], ("name", "website", None)),
    (["ORGANIZATION", "home page"], ("name", "website")),
    (["Nom de l'entreprise", "Site Web"], ("name", "website")),
    (["Razão social", "Domínio"], ("name", "website")),
    (["会社名", "ホームページ"], ("name", "website")),
    (["Company", "Name"], (None, "name")),  # the parameter's own name wins over an alias
])
def test_headers_are_read_by_meaning(header: list[str], params: tuple[str | None, ...]) -> None:
    assert column_params(header, ("name", "website"), {}) == params


def test_a_named_column_wins_and_a_missing_one_is_said() -> None:
    assert column_params(["Legal entity", "Site"], ("name", "website"),
                         {"name": "legal entity"}) == ("name", "website")
    with pytest.raises(ColumnChoiceProblem, match="no column 'Firm' for name"):
        column_params(["Company"], ("name", "website"), {"name": "Firm"})
    with pytest.raises(ColumnChoiceProblem, match="'Company' and 'Customer' could both"):
        column_params(["Company", "Customer"], ("name", "website"), {})
