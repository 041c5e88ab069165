"""Where numbered markers go on a map, and which ones share a badge.

A marker is drawn as its number starting at its cell. Two numbers on one row
that overlap or merely touch read as one ("16" beside "20" reads "1620"), so
such markers are gathered into a cluster drawn as one count in brackets: ``(3)``
is three events there. (A number and a badge, ``14+1``, read as a sum or as two
labels run together.) A cluster holding the selected marker shows its number
first, apart, then the count of the others: ``3 (10)``, so the selection is always
drawn whole. The cluster sits at its head's cell: the selected marker when it
holds it, otherwise the lowest number; a click on it steps through its events.
Venues that host several events sit on the very same point and no zoom separates
them, which is why clusters exist at all.

Pure layout, no Textual: the widget draws what :func:`layout_markers` returns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from creditscope.worldmap.projection import Viewport


@dataclass(frozen=True, slots=True)
class MapMarker:
    """A venue on the map, drawn as its number (the feed row's number)."""

    number: int
    lat: float
    lng: float
    label: str = ""


@dataclass(frozen=True, slots=True)
class PlacedMarker:
    """One drawn label at (x, y): a lone marker's number, or a cluster's count.

    ``members`` holds every marker under the label, sorted by number, head included.
    """

    head: MapMarker
    members: tuple[MapMarker, ...]
    x: int
    y: int
    selected: bool = False  # the head is the selected marker


    @property
    def is_cluster(self) -> bool:
        """Whether the label stands for more than one marker."""
        return len(self.members) > 1

    @property
    def number_text(self) -> str:
        """The head's number where it is drawn (alone, or selected in a cluster), else ""."""
        return str(self.head.number) if self.selected or not self.is_cluster else ""

    @property
    def count_text(self) -> str:
        """``(N)``: the markers of a cluster its drawn number leaves out ("" alone)."""
        if not self.is_cluster:
            return ""
        return f"({len(self.members) - (1 if self.number_text else 0)})"

    @property
    def text(self) -> str:
        """As drawn: ``14`` alone, ``(3)`` for three together, ``3 (10)`` for the
        selected marker 3 among ten others."""
        return " ".join(part for part in (self.number_text, self.count_text) if part)

    @property
    def width(self) -> int:
        """Cells the label covers."""
        return len(self.text)

    def holds(self, number: int | None) -> bool:
        """Whether marker ``number`` is under this label."""
        return any(member.number == number for member in self.members)

    def covers(self, x: int, y: int) -> bool:
        """Whether cell (x, y) is part of this label."""
        return y == self.y and self.x <= x < self.x + self.width

    def after(self, number: int | None) -> MapMarker:
        """The member to select on a click: the one after ``number``, cycling; else the head.

        Clicking a cluster again steps through its markers, which is the only
        way to reach events that share one venue.
        """
        numbers = [member.number for member in self.members]
        if number not in numbers:
            return self.head
        return self.members[(numbers.index(number) + 1) % len(self.members)]


class _Group:
    """Markers being gathered under one label while the layout settles."""

    __slots__ = ("cells", "members")

    def __init__(self, members: list[MapMarker], cells: dict[int, tuple[int, int]]) -> None:
        self.members = members
        self.cells = cells  # marker number -> its cell

    def placed(self, selected: int | None, width: int) -> PlacedMarker:
        members = tuple(sorted(self.members, key=lambda marker: marker.number))
        head = next((m for m in members if m.number == selected), members[0])
        x, y = self.cells[head.number]
        is_selected = head.number == selected
        label = PlacedMarker(head, members, x, y, is_selected)
        # Keep the whole label inside the right edge.
        return PlacedMarker(head, members, max(0, min(x, width - label.width)), y, is_selected)


def layout_markers(
    markers: Iterable[MapMarker], selected: int | None, view: Viewport
) -> list[PlacedMarker]:
    """The labels to draw for ``markers`` in ``view``: none touching another on its row.

    Off-screen markers are left out. The result is in drawing order, the
    selected marker's label last, so it wins over the crosshair beneath it.
    """
    cells: dict[int, tuple[int, int]] = {}
    by_cell: dict[tuple[int, int], list[MapMarker]] = defaultdict(list)
    for marker in markers:
        cell = view.latlng_to_cell(marker.lat, marker.lng)
        if cell is not None:
            cells[marker.number] = cell
            by_cell[cell].append(marker)
    rows: dict[int, list[_Group]] = defaultdict(list)
    for (_, y), members in by_cell.items():
        rows[y].append(_Group(members, cells))
    placed: list[PlacedMarker] = []
    for groups in rows.values():
        placed.extend(_settle_row(groups, selected, view.width))
    placed.sort(key=lambda label: (label.holds(selected), label.y, label.x))
    return placed


def _settle_row(groups: list[_Group], selected: int | None, width: int) -> list[PlacedMarker]:
    """Merge neighbouring labels on one row until no two overlap or touch."""
    while True:
        labels = sorted(
            ((group.placed(selected, width), group) for group in groups),
            key=lambda pair: pair[0].x,
        )
        merged: list[tuple[PlacedMarker, _Group]] = []
        changed = False
        for label, group in labels:
            if merged and label.x <= merged[-1][0].x + merged[-1][0].width:
                previous = merged[-1][1]
                previous.members.extend(group.members)
                # Re-measure now: the merged label may be wider or start elsewhere.
                merged[-1] = (previous.placed(selected, width), previous)
                changed = True
            else:
                merged.append((label, group))
        groups = [group for _, group in merged]
        if not changed:
            return [label for label, _ in merged]
