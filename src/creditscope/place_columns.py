"""The gazetteer's places as columns: 34,000 places in a few MB.

As 34,000 ``City`` dataclasses with their floats and strings, and indexes of them,
the places took ~45 MB of the explorer's memory all day; here names are one UTF-8
block, numbers are arrays, and a ``City`` is made only for a place asked for. The
file's layout is described in ``tools/derive_cities.py``. Pure: imports only
``text_folding`` of the package.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

from creditscope.text_folding import fold


@dataclass(frozen=True, slots=True)
class City:
    """One populated place of the gazetteer (made on demand from the columns)."""

    name: str
    ascii_name: str
    country_code: str
    lat: float
    lng: float
    timezone: str
    population: int
    region: str = ""  # its state or province ("Illinois"), where the data names it

    @property
    def label(self) -> str:
        """``"Lisbon, PT"``: the name with its country code, as the sandbox echoes it."""
        return f"{self.name}, {self.country_code}"

    @property
    def full_label(self) -> str:
        """``"Springfield, Illinois, US"``: the label with the state or province, which
        tells namesakes of one country apart (and resolves to this one place)."""
        return f"{self.name}, {self.region}, {self.country_code}" if self.region else self.label


class TextColumn:
    """Strings kept as one UTF-8 block and their end offsets: a place name costs its
    bytes and 4 more, not a ~60-byte ``str`` object; each read decodes a fresh one."""

    def __init__(self, texts: Iterable[str]) -> None:
        block, ends = bytearray(), array("I")
        for text in texts:
            block += text.encode()
            ends.append(len(block))
        self._block, self._ends = bytes(block), ends

    def __len__(self) -> int:
        return len(self._ends)

    def __getitem__(self, index: int) -> str:
        start = self._ends[index - 1] if index else 0
        return self._block[start:self._ends[index]].decode()


@dataclass
class Places:
    """Every place as columns, indexed by rank (most populous first).

    34,000 ``City`` objects with their floats and dicts took ~20 MB of the explorer's
    memory; columns take ~4 MB, and a ``City`` is made only for the places asked for.
    """

    names: TextColumn
    spellings: TextColumn  # the ASCII name where it differs from the name, else ""
    countries: array[int]  # index into ``country_codes``
    zones: array[int]  # index into ``zone_names``
    lat: array[int]  # in 0.0001 degree, as the file has them (exact floats on division)
    lng: array[int]
    population: array[int]
    regions: array[int]  # index into ``region_codes``
    country_codes: list[str]
    zone_names: list[str]
    region_codes: list[str]  # "US.IL": country and admin1 code ("": none known)
    capitals: frozenset[int]  # ranks of national capitals
    region_names: dict[str, str] = field(default_factory=dict)  # "US.IL" -> "Illinois"

    def __len__(self) -> int:
        return len(self.names)

    def ascii_name(self, rank: int) -> str:
        return self.spellings[rank] or self.names[rank]

    def region_code(self, rank: int) -> str:
        """``"US.IL"``: the place's country and admin1 code."""
        return self.region_codes[self.regions[rank]]

    def city(self, rank: int) -> City:
        return City(
            self.names[rank], self.ascii_name(rank),
            self.country_codes[self.countries[rank]],
            self.lat[rank] / 10_000, self.lng[rank] / 10_000,
            self.zone_names[self.zones[rank]], self.population[rank],
            self.region_names.get(self.region_code(rank), ""),
        )


class CitySequence(Sequence[City]):
    """The places as ``City`` values, most populous first, made as they are read."""

    def __init__(self, places: Places) -> None:
        self._places = places

    def __len__(self) -> int:
        return len(self._places)

    @overload
    def __getitem__(self, index: int) -> City: ...
    @overload
    def __getitem__(self, index: slice) -> list[City]: ...
    def __getitem__(self, index: int | slice) -> City | list[City]:
        if isinstance(index, slice):
            return [self._places.city(rank) for rank in range(len(self))[index]]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        return self._places.city(index)

    def __iter__(self) -> Iterator[City]:
        return map(self._places.city, range(len(self)))


def parse_places(lines: Iterable[str], regions: Mapping[str, str] | None = None) -> Places:
    """The places of a cities file's lines (layout in ``tools/derive_cities.py``): ``=CC``
    lines with the country's time zones, then its places, each latitude a step from the
    last; ranked most populous first (ties by name and country, then in the file's order).
    Read into columns as the lines stream past: the load's peak stays a few MB. A place's
    state or province is kept where ``regions`` ("US.IL" -> "Illinois") names it."""
    named = regions or {}
    names: list[str] = []
    spellings: list[str] = []
    countries, zones = array("H"), array("H")
    lats, lngs, population, in_region = array("i"), array("i"), array("q"), array("H")
    country_codes: list[str] = []
    zone_names: dict[str, int] = {}
    region_codes: dict[str, int] = {"": 0}  # the codes no name is known for: not kept
    capitals: list[int] = []
    country_zones, lat = [0], 0
    for line in lines:
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if line.startswith("="):
            country_codes.append(fields[0][1:])
            country_zones = [zone_names.setdefault(z, len(zone_names)) for z in fields[1:]] or [0]
            lat = 0
            continue
        name, spelled, step, lng, zone, people, region = fields[:7]
        lat += int(step)
        if fields[7:] == ["*"]:
            capitals.append(len(names))
        key = f"{country_codes[-1]}.{region}"
        in_region.append(region_codes.setdefault(key, len(region_codes)) if key in named else 0)
        names.append(name)
        spellings.append(spelled)
        countries.append(len(country_codes) - 1)
        zones.append(country_zones[int(zone or 0)])
        lats.append(lat)
        lngs.append(int(lng))
        population.append(int(people))
    # Stable sorts, least significant key first: population down, then name, then country.
    order = list(range(len(names)))
    order.sort(key=lambda index: country_codes[countries[index]])
    order.sort(key=names.__getitem__)
    order.sort(key=population.__getitem__, reverse=True)
    rank_of = {index: rank for rank, index in enumerate(order)}
    return Places(
        names=TextColumn(map(names.__getitem__, order)),
        spellings=TextColumn(map(spellings.__getitem__, order)),
        countries=array("H", map(countries.__getitem__, order)),
        zones=array("H", map(zones.__getitem__, order)),
        lat=array("i", map(lats.__getitem__, order)),
        lng=array("i", map(lngs.__getitem__, order)),
        population=array("q", map(population.__getitem__, order)),
        regions=array("B" if len(region_codes) <= 256 else "H",
                      map(in_region.__getitem__, order)),
        country_codes=country_codes, zone_names=list(zone_names) or [""],
        region_codes=list(region_codes), region_names=dict(named),
        capitals=frozenset(rank_of[index] for index in capitals),
    )


def name_index(places: Places) -> array[int]:
    """(rank * 2 [+ 1 for the ASCII spelling]) entries sorted by folded name, then rank:
    a name's places are one contiguous run, and so are a prefix's."""
    entries = array("I")
    for rank in range(len(places)):
        entries.append(rank * 2)
        spelled = places.spellings[rank]
        if spelled and fold(spelled) != fold(places.names[rank]):
            entries.append(rank * 2 + 1)

    def folded(entry: int) -> str:
        return fold(places.spellings[entry >> 1] if entry & 1 else places.names[entry >> 1])

    return array("I", sorted(entries, key=folded))  # stable: ranks stay in order
