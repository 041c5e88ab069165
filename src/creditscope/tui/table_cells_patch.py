"""Item 9 of :mod:`creditscope.tui.textual_patch`: result tables that draw a cell they
drew before from its lines of then. Apart from ``textual_patch`` so the first frame,
which shows no table, does not import ``DataTable``; applied on the pinned Textual only."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from rich.style import Style as RichStyle
from rich.text import Text
from textual.cache import LRUCache
from textual.widgets import DataTable

from creditscope.tui.textual_patch import is_on

if TYPE_CHECKING:  # a private module of Textual's: never imported at run time
    from textual._types import SegmentLines


def _content_key(cell: object) -> Hashable:
    """What decides how ``cell`` (a row's renderable) is drawn; None if it cannot be said."""
    if isinstance(cell, str):
        return cell
    if isinstance(cell, Text):
        spans = tuple((span.start, span.end, str(span.style)) for span in cell.spans)
        return (cell.plain, str(cell.style), spans, cell.justify, cell.overflow, cell.no_wrap,
                cell.end)
    return None


class CellsKeyedByContent(DataTable[Any]):
    """Patch 9 (table-cells), for tables: a ``DataTable`` that draws a cell it drew
    before, with the same text in the same place and state, from its lines of then,
    across ``clear()`` (see ``textual_patch``, 9.)."""

    KEPT_CELLS = 4096
    """Rendered cells kept (a cell is a few segments: ~1 MB at most)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cells_by_content: LRUCache[Hashable, SegmentLines] = LRUCache(self.KEPT_CELLS)
        self.cells_rendered = 0
        """Cells rendered through Rich so far (the others came from the cache)."""

    def _render_cell(
        self,
        row_index: int,
        column_index: int,
        base_style: RichStyle,
        width: int,
        cursor: bool = False,
        hover: bool = False,
    ) -> SegmentLines:
        key = self._cell_key(row_index, column_index) if is_on("table-cells") else None
        if key is None:
            self.cells_rendered += 1
            return super()._render_cell(row_index, column_index, base_style, width, cursor,
                                        hover)
        full = (key, row_index, column_index, base_style, width, cursor, hover,
                self._show_hover_cursor, self.show_cursor, self._pseudo_class_state)
        lines = self._cells_by_content.get(full)
        if lines is None:
            self.cells_rendered += 1
            lines = super()._render_cell(row_index, column_index, base_style, width, cursor,
                                         hover)
            self._cells_by_content[full] = lines
        return lines

    def _cell_key(self, row_index: int, column_index: int) -> Hashable:
        """The cell's content and row height; None for a row label or an unknown cell."""
        if column_index < 0:
            return None
        _label, cells = self._get_row_renderables(row_index)
        if column_index >= len(cells):
            return None
        content = _content_key(cells[column_index])
        if content is None:
            return None
        if row_index < 0:
            return content, self.header_height
        row_key = self._row_locations.get_key(row_index)
        row = self.rows.get(row_key) if row_key is not None else None
        if row is None or row.auto_height:
            return None
        return content, row.height
