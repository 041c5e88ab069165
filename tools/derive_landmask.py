"""Derive the city-zoom land mask ``src/creditscope/data/landmask.bin``.

Provenance: the 30-arc-second (about 1 km) land/ocean grid of the
``global-land-mask`` 1.0.0 package (MIT), itself the ocean cells of NOAA's
GLOBE digital elevation model (public domain,
https://www.ngdc.noaa.gov/mgg/topo/globe.html). The package needs numpy; the
app never imports either: it reads the compact file written here.

Reproduce (tool-only packages):

    .venv/bin/pip install global-land-mask==1.0.0 numpy
    .venv/bin/python tools/derive_landmask.py

File format (all little-endian), read by ``creditscope.worldmap.landmask``:

    magic   8 bytes  b"CSMASK\\x01\\x00"
    u8 levels, finest first; per level:
        u16 pixels per degree, u16 pixels per tile side, u16 tile rows, u16 tile columns
        tile rows x tile columns bytes, row-major from 90N 180W: 0 water, 1 land, 2 mixed
        per mixed tile, in the same order: u16 length of its compressed pixels
        the compressed pixels of each mixed tile: zlib of one byte (0 or 1) per
        pixel, row-major from the tile's north-west corner

Level 0 keeps every pixel (120 per degree); level 1 takes the majority of each
4 x 4 block (30 per degree), for views too coarse to show 1 km.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np  # tool-only
from global_land_mask import globe  # tool-only

MAGIC = b"CSMASK\x01\x00"
OUTPUT = Path(__file__).resolve().parents[1] / "src" / "creditscope" / "data" / "landmask.bin"
TILE = 120  # pixels per tile side at every level
COARSE_FACTOR = 4
WATER, LAND, MIXED = 0, 1, 2


def encode_level(land: np.ndarray, pixels_per_degree: int) -> bytes:
    """One level: header, tile states, lengths and compressed mixed tiles."""
    rows, cols = land.shape[0] // TILE, land.shape[1] // TILE
    states = bytearray()
    blobs: list[bytes] = []
    for tile_row in range(rows):
        for tile_col in range(cols):
            top, left = tile_row * TILE, tile_col * TILE
            tile = land[top : top + TILE, left : left + TILE]
            count = int(tile.sum())
            if count == 0:
                states.append(WATER)
            elif count == tile.size:
                states.append(LAND)
            else:
                states.append(MIXED)
                blobs.append(zlib.compress(tile.astype(np.uint8).tobytes(), 9))
    header = struct.pack("<HHHH", pixels_per_degree, TILE, rows, cols)
    lengths = struct.pack(f"<{len(blobs)}H", *(len(blob) for blob in blobs))
    return header + bytes(states) + lengths + b"".join(blobs)


def main() -> None:
    """Write the two levels and say how large the file is."""
    land = ~globe._mask  # the package stores the ocean: True where there is sea
    per_degree = land.shape[1] // 360
    coarse = (
        land.reshape(
            land.shape[0] // COARSE_FACTOR, COARSE_FACTOR,
            land.shape[1] // COARSE_FACTOR, COARSE_FACTOR,
        ).mean(axis=(1, 3))
        >= 0.5
    )  # fmt: skip
    data = MAGIC + bytes([2])
    data += encode_level(land, per_degree)
    data += encode_level(coarse, per_degree // COARSE_FACTOR)
    OUTPUT.write_bytes(data)
    print(f"wrote {OUTPUT} ({len(data) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
