"""The km scale bar shown at city scale: a round distance and its width in cells."""

from __future__ import annotations

import math
from dataclasses import dataclass

# Below this ground distance per cell the map counts as "city scale".
CITY_SCALE_KM_PER_CELL = 50.0
_NICE_STEPS = (1, 2, 5)


@dataclass(frozen=True, slots=True)
class ScaleBar:
    """A bar ``cells`` wide that stands for ``km`` kilometres."""

    km: float
    cells: int

    @property
    def label(self) -> str:
        """The distance as people say it: "500 m", "2 km", "20 km"."""
        if self.km < 1:
            return f"{round(self.km * 1000)} m"
        return f"{self.km:g} km"

    @property
    def text(self) -> str:
        """The bar drawn with box characters, then its label: ``├────┤ 5 km``."""
        return "├" + "─" * (self.cells - 2) + "┤ " + self.label


def scale_bar(km_per_cell: float, max_cells: int = 16) -> ScaleBar | None:
    """The longest round distance that fits in ``max_cells``; None above city scale."""
    if not 0 < km_per_cell < CITY_SCALE_KM_PER_CELL or max_cells < 3:
        return None
    best: ScaleBar | None = None
    exponent = math.floor(math.log10(km_per_cell * 3))
    for power in range(exponent, exponent + 4):
        for step in _NICE_STEPS:
            km = step * 10.0**power
            cells = round(km / km_per_cell)
            if 3 <= cells <= max_cells and (best is None or km > best.km):
                best = ScaleBar(km, cells)
    return best
