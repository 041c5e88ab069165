"""With and without the website: the shown lookup beside the same one run without it
(or with a corrected website), and what changed in each page's grade.

The second lookup's price is on its button before it runs; when the cache already
holds it, it reopens at once for free. Escape goes back to the lookup.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, DataTable, Input, Static

from creditscope import operations
from creditscope.client.records import CacheStatus
from creditscope.models import CompanyLookup
from creditscope.operations import identity_key
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.prices import spend_note
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.company.comparison import (
    RowChange,
    compare_lookups,
    comparison_summary,
    website_label,
)
from creditscope.tui.screens.company.lookup_form import FIND_COMPANY, check_form, lookup_params
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput

EMPTY_TEXT = (
    "Leave the website empty to run the same lookup without it, or type a corrected one,\n"
    "then press Enter. The price is on the button; a lookup already cached is free."
)


def _change_text(row: RowChange) -> Text:
    style = ""
    if "(up)" in row.change or row.change.startswith("found only"):
        style = "green"
    elif "(down)" in row.change or row.change.startswith("not found"):
        style = "red"
    elif row.change == "unchanged":
        style = "dim"
    return Text(row.change, style=style)


class CompareScreen(AreaScreen):
    """The shown lookup (left) against the same name with another website (right)."""

    AUTO_FOCUS = "#compare-website"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="compare.back"),
    ]

    def __init__(self, lookup: CompanyLookup, params: dict[str, Any]) -> None:
        super().__init__()
        self.left = lookup
        self.left_params = dict(params)

    @property
    def name_asked(self) -> str:
        """The company name both lookups use."""
        return str(self.left_params.get("name", ""))

    def compose_body(self) -> ComposeResult:
        """Title, the website for the second lookup with its priced button, the table."""
        shown = website_label(self.left_params.get("website"))
        yield Static(Text.assemble(("Compare ", "bold"), (self.name_asked, "bold"),
                                   f"   shown lookup: {shown}"), id="compare-title")
        with Horizontal(classes="toolbar compact-form", id="compare-form"):
            yield labelled(
                TextInput(placeholder="Website for the second lookup (empty = without one)",
                          id="compare-website"), "Second lookup's website")
            yield PriceButton("Compare", operation=FIND_COMPANY, id="compare-run",
                              variant="primary")
        yield Static("", id="compare-error", classes="field-error")
        with ResultArea(id="compare-result", empty=EMPTY_TEXT):
            yield Static("", id="compare-summary")
            yield DataTable(id="compare-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        """Price the button; a cached comparison reopens at once (it is free)."""
        self._typed()
        client = host_of(self).client
        params = self.right_params
        if client is not None and self.left_params.get("website") and \
                client.cache_state(FIND_COMPANY, params) == CacheStatus.HIT:
            self.action_compare()

    @property
    def right_params(self) -> dict[str, Any]:
        """The second lookup: same name, the typed website (or none)."""
        return lookup_params(self.name_asked, self.query_one("#compare-website", Input).value)

    @on(Input.Changed, "#compare-website")
    def _typed(self) -> None:
        self.query_one("#compare-run", PriceButton).params = self.right_params
        self.query_one("#compare-error", Static).update("")

    @on(Input.Submitted, "#compare-website")
    @on(Button.Pressed, "#compare-run")
    def action_compare(self) -> None:
        """Run the second lookup (free when cached) and show both side by side."""
        website = self.query_one("#compare-website", Input).value
        problem = check_form(self.name_asked, website)
        params = self.right_params
        if problem is None and self._same_as_shown(params):
            problem = ("website", "That is the shown lookup (the same website, however "
                                  "written): leave the website empty or type a different one.")
        if problem is not None:
            self.query_one("#compare-error", Static).update(problem[1])
            return
        label = f"company lookup for “{self.name_asked}” ({website_label(params.get('website'))})"
        self.query_one("#compare-result", ResultArea).run(
            CallRequest(operations.FIND_COMPANY, params, label=label))

    def _same_as_shown(self, params: dict[str, Any]) -> bool:
        """Whether ``params`` asks what the shown lookup asked (``https://www.x/`` is ``x``)."""
        return identity_key(FIND_COMPANY, params) == identity_key(FIND_COMPANY, self.left_params)

    @on(ResultArea.Succeeded, "#compare-result")
    def _compared(self, event: ResultArea.Succeeded) -> None:
        answer = event.answer(operations.FIND_COMPANY)
        right = answer.data
        right_website = event.request.params.get("website")
        rows = compare_lookups(self.left, self.left_params.get("website"), right, right_website)
        summary = Text(comparison_summary(rows) + "   ·   ")
        summary.append_text(spend_note(answer.record))
        self.query_one("#compare-summary", Static).update(summary)
        table: DataTable[Any] = self.query_one("#compare-table", DataTable)
        table.clear(columns=True)
        table.add_column("Page", width=24)
        table.add_column(f"Shown: {website_label(self.left_params.get('website'))}", width=26)
        table.add_column(f"New: {website_label(right_website)}", width=26)
        table.add_column("What changed")
        for row in rows:
            table.add_row(
                row.name,
                row.left.text if row.left else Text("not found", style="dim"),
                row.right.text if row.right else Text("not found", style="dim"),
                _change_text(row),
            )
        table.focus()
