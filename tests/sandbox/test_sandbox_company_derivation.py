"""How tools/derive_companies.py reads its sources' addresses and FinanceDatabase's 2023
database (issue 37): a headquarters is a city people know, whatever the source wrote."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

TOOLS = Path(__file__).parents[2] / "tools"


def tool(name: str) -> ModuleType:
    """A module of tools/, as the derivation script imports it."""
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # dataclasses look their module up while being made
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOLS))


derive = tool("derive_companies")
older = tool("financedatabase_2023")


@pytest.mark.parametrize(
    ("address", "country_field", "place"),
    [
        ("Washington, DC , U.S.", "White Plains, New York", ("Washington", "US")),
        ("Washington, D.C., United States", "", ("Washington", "US")),
        ("New York City, New York, U.S.", "", ("New York City", "US")),
        ("Redmond, Washington, U.S.", "", ("Redmond", "US")),  # a state still is no city
        ("Virginia, U.S.", "", ("", "US")),  # a lone state names no city
    ],
)
def test_an_address_in_a_district_named_like_its_city_is_in_that_city(
    address: str, country_field: str, place: tuple[str, str]
) -> None:
    assert derive.headquarters(address, country_field) == place


@pytest.mark.parametrize(
    ("stored", "meant"),
    [("SÃ£o Paulo", "São Paulo"), ("FlorianÃ³polis", "Florianópolis"),
     ("São Paulo", "São Paulo"), ("Ãx", "Ãx")],  # right already; not UTF-8 at all
)  # fmt: skip
def test_2023_text_read_as_latin_1_is_decoded_again(stored: str, meant: str) -> None:
    assert older.unmangled(stored) == meant


def listing(name: str, size: str | None, market: str = "za_market") -> dict[str, object]:
    return {"long_name": name, "summary": f"{name} mines gold.", "sector": "Basic Materials",
            "industry": "Gold", "exchange": "JNB", "market": market, "country": "South Africa",
            "city": "SÃ£o Paulo", "zipcode": "2196", "website": "http://example.com",
            "market_cap": size}  # fmt: skip


def test_2023_listings_are_read_once_largest_first_and_receipts_after_shares(
    tmp_path: Path,
) -> None:
    country = tmp_path / "South Africa"
    (country / "Basic Materials").mkdir(parents=True)
    (country / "South Africa.json").write_text(json.dumps({
        "MID.JO": listing("Mid Gold", "Mid Cap"),
        "ADR": listing("Large Gold", "Large Cap", "dr_market"),
        "BIG.JO": listing("Large Gold", "Large Cap"),
        "TINY.JO": listing("Tiny Gold", "Micro Cap"),
        "NONE.JO": listing("Unsized Gold", None),
    }))  # fmt: skip
    # a sector's file lists the same listings again; a totals file lists none
    (country / "Basic Materials" / "Gold.json").write_text(
        json.dumps({"MID.JO": listing("Mid Gold", "Mid Cap")})
    )
    (country / "South Africa Industries.json").write_text(json.dumps({"Gold": 3}))
    rows = list(older.equity_rows(tmp_path))
    assert [row["name"] for row in rows] == ["Large Gold", "Large Gold", "Mid Gold"]
    assert rows[0]["city"] == "São Paulo" and rows[0]["zipcode"] == "2196"


def stock(city: str, postcode: str = "2196", name: str = "Gold Fields Limited") -> dict[str, str]:
    return {"name": name, "summary": f"{name} mines gold.", "industry": "Gold",
            "country": "South Africa", "city": city, "zipcode": postcode,
            "website": "https://www.goldfields.com"}  # fmt: skip


def test_a_district_no_gazetteer_knows_is_the_city_its_postcode_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # GeoNames' small places (a tools-only package) know no "Sandton" either
    monkeypatch.setattr(
        derive, "known_place", lambda city, country: city if derive.is_gazetteer_city(
            city, country) else None,
    )  # fmt: skip
    neighbours = [stock("Johannesburg"), stock("Johannesburg"), stock("Sandton"),
                  stock("Sandton", "8001"), stock("Cape Town", "8001")]  # fmt: skip
    postcodes = derive.postcode_cities(neighbours)
    assert postcodes == {("ZA", "2196"): "Johannesburg", ("ZA", "8001"): "Cape Town"}
    row = derive.from_financedatabase(stock("Sandton"), postcodes)
    assert row is not None
    assert (row.name, row.city, row.country) == ("Gold Fields", "Johannesburg", "ZA")
    assert derive.from_financedatabase(stock("Sandton", "9999"), postcodes).city == "Sandton"
    assert derive.from_financedatabase(stock("Pretoria"), postcodes).city == "Pretoria"
