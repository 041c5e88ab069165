"""``MatchTable``: the graded candidate pages of one lookup, best first."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey

from creditscope.models import CompanyLookup, Match
from creditscope.tui.screens.company.reasoning import (
    BAR_WIDTH,
    confidence_badge,
    short_url,
    similarity_bar,
    website_match_text,
    why,
)
from creditscope.tui.table_cells_patch import CellsKeyedByContent
from creditscope.tui.widgets.drawn_focus import FocusWhenDrawn

_WEBSITE_STYLES = {"yes": "bold green", "no": "red", "not checked": "bright_black"}
COMPACT_UNDER = 100
"""A table narrower than this shows each match's similarity as a number and its why in
a word or two (the card below says it whole): at 80 columns the Why column was cut to
"Wh", its reasons to "name"."""


class MatchTable(FocusWhenDrawn, CellsKeyedByContent):
    """One row per match: rank, badge, website match, similarity, name, why, URL, search hit."""

    BINDING_GROUP_TITLE = "the matches"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Show page", show=False, id="company.show_match"),
    ]

    class MatchChosen(Message):
        """The highlighted match changed (cursor moved, click, or a new lookup)."""

        def __init__(self, table: MatchTable, match: Match | None, rank: int) -> None:
            super().__init__()
            self.table = table
            self.match = match
            self.rank = rank

        @property
        def control(self) -> MatchTable:
            """The table the match is in."""
            return self.table

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        # The selected row in the cursor's colours, badges included: a badge's dark text
        # on the cursor's blue would be unreadable.
        self.cursor_background_priority = "css"
        self.matches: list[Match] = []
        self.website: str | None = None
        self.compact = False

    def on_mount(self) -> None:
        """The columns, in the order support staff read a judgement."""
        self.add_column("#", key="rank")
        self.add_column("Confidence", key="confidence")
        self.add_column("Website", key="website")
        self.add_column("Name similarity", key="similarity")
        self.add_column("Company", key="name")
        self.add_column("Why", key="why")
        self.add_column("Company URL", key="url")
        self.add_column("Search hit", key="title")

    def on_resize(self) -> None:
        """Across the compact width the rows are drawn again, shortened or whole."""
        compact = self.size.width < COMPACT_UNDER
        if compact != self.compact:
            self.compact = compact
            self._fill()

    def show(self, lookup: CompanyLookup, website: str | None) -> None:
        """Replace the rows with ``lookup``'s matches and highlight the best one."""
        self.matches = list(lookup.matches)
        self.website = website
        self._fill()
        if self.matches:
            self.move_cursor(row=0)
        self._announce(0)

    def _fill(self) -> None:
        row = self.cursor_row
        self.clear()
        self.columns[self._similarity_key].label = Text(
            "Similarity" if self.compact else "Name similarity")
        for column in self.columns.values():  # widths fit these rows (they only grow)
            column.content_width = column.label.cell_len
        for rank, match in enumerate(self.matches, start=1):
            company = match.company
            name = (
                Text(company.name or "—")
                if company is not None
                else Text("page unavailable", style="italic yellow")
            )
            seen = website_match_text(match, bool(self.website))
            self.add_row(
                Text(str(rank), justify="right"),
                confidence_badge(match.confidence),
                Text(seen, style=_WEBSITE_STYLES[seen]),
                similarity_bar(match.name_similarity, 0 if self.compact else BAR_WIDTH),
                name,
                Text(why(match, self.website, brief=self.compact), style="italic"),
                Text(short_url(match.company_url), style="underline"),
                Text(match.serp_title or "", style="bright_black"),
                key=str(rank),
            )
        if 0 <= row < len(self.matches):
            self.move_cursor(row=row)

    @property
    def _similarity_key(self) -> ColumnKey:
        return next(key for key in self.columns if key.value == "similarity")

    @property
    def current(self) -> Match | None:
        """The highlighted match, if any."""
        if not self.matches or not 0 <= self.cursor_row < len(self.matches):
            return None
        return self.matches[self.cursor_row]

    def why_of(self, index: int) -> str:
        """The "why" line of the match at ``index`` (0-based)."""
        return why(self.matches[index], self.website)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Moving the cursor selects the match (the card follows)."""
        event.stop()
        self._announce(event.cursor_row)

    def _announce(self, index: int) -> None:
        match = self.matches[index] if 0 <= index < len(self.matches) else None
        self.post_message(self.MatchChosen(self, match, index + 1))
