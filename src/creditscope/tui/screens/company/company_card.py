"""``CompanyCard``: everything the network's page says about the selected match."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Label, Static

from creditscope.models import Company, Match
from creditscope.tui.fact_rows import add_fact
from creditscope.tui.host import host_of
from creditscope.tui.prices import credits_text, price_of
from creditscope.tui.screens.company.lookup_form import FIND_COMPANY
from creditscope.tui.screens.company.reasoning import confidence_badge, why


def _count(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def company_facts(company: Company, match: Match) -> Table:
    """The page's fields as a two-column grid, in the order a reader scans them."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    rows: list[tuple[str, str | None]] = [
        ("Industry", company.industry),
        ("Size", company.company_size),
        ("Headquarters", company.headquarters),
        ("Organisation", company.organization_type),
        ("Specialties", company.specialties),
        ("Followers", _count(company.followers)),
        ("On the network", _count(company.employees_on_network) + " employees"
         if company.employees_on_network is not None else "—"),
        ("Website", company.website),
        ("URL", company.url or match.company_url),
        ("Logo", company.logo),
    ]
    for label, value in rows:
        add_fact(grid, label, value or "—")
    return grid


class CompanyCard(VerticalScroll, can_focus=False):
    """The selected match's company page, or why it is missing and how to re-check it."""

    def compose(self) -> ComposeResult:
        """Heading, why line, tagline, description, facts, search snippet, re-check row."""
        yield Label("", id="card-heading")
        yield Static("", id="card-why")
        yield Static("", id="card-tagline")
        yield Static("", id="card-description")
        yield Static("", id="card-facts")
        yield Static("", id="card-snippet")
        with Horizontal(id="card-recheck"):
            yield Button("Re-check page", id="recheck", variant="warning")
            yield Static(
                "Runs the same lookup again past the cache; the whole lookup is charged.",
                id="recheck-hint",
            )

    def on_mount(self) -> None:
        """Nothing is selected yet."""
        self.border_title = "Company page"
        self.show(None, None, 0)

    def _recheck_label(self) -> str:
        # A re-check is the whole lookup again, past the cache: say what it costs.
        return f"Re-check page · {credits_text(price_of(host_of(self), FIND_COMPANY))}"

    def show(self, match: Match | None, website: str | None, rank: int) -> None:
        """Fill the card from ``match`` (None clears it)."""
        heading = self.query_one("#card-heading", Label)
        recheck = self.query_one("#card-recheck")
        texts = {
            name: self.query_one(f"#card-{name}", Static)
            for name in ("why", "tagline", "description", "facts", "snippet")
        }
        if match is None:
            heading.update("No match selected")
            for static in texts.values():
                static.update("")
            texts["why"].update("Pick a match in the table to see its page.")
            recheck.display = False
            return
        company = match.company
        title = Text(f"#{rank} ")
        title.append_text(confidence_badge(match.confidence))
        title.append(" ")
        if company is None:
            title.append("page momentarily unavailable", style="bold yellow")
        else:
            title.append(company.name or match.company_url, style="bold")
        heading.update(title)
        texts["why"].update(Text("Why: " + why(match, website), style="italic"))
        snippet = Text("Search hit: ", style="bold")
        snippet.append(match.serp_title or "—")
        snippet.append("\n")
        snippet.append(match.serp_snippet or "", style="bright_black")
        texts["snippet"].update(snippet)
        if company is None:
            texts["tagline"].update(
                Text("The service could not fetch this page just now (company: null).")
            )
            texts["description"].update(Text(f"Page: {match.company_url}"))
            texts["facts"].update("")
            texts["facts"].display = False
            self.query_one("#recheck", Button).label = self._recheck_label()
            recheck.display = True
            return
        recheck.display = False
        texts["facts"].display = True
        texts["tagline"].update(Text(company.tagline or "", style="italic"))
        texts["description"].update(Text(company.description or ""))  # text, not markup
        texts["facts"].update(company_facts(company, match))

    def text_of(self, part: str) -> str:
        """The plain text of one part of the card: why, tagline, description, facts, snippet."""
        content = self.query_one(f"#card-{part}", Static).content
        return content.plain if isinstance(content, Text) else str(content)
