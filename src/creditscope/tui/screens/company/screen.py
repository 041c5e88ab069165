"""The Company lookup area: find a company's page on the network and see why it matched."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.css.query import NoMatches
from textual.widgets import Button, Input, Static

from creditscope import operations
from creditscope.client.errors import InvalidRequest
from creditscope.client.records import CallRecord
from creditscope.models import CompanyLookup
from creditscope.row_export import file_stem
from creditscope.shown_url import shown_url
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.clipboard import copy_text
from creditscope.tui.host import host_of
from creditscope.tui.list_export import export_list
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.prices import credits_text, price_of, spend_note
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.company.company_card import CompanyCard
from creditscope.tui.screens.company.export import render_matches
from creditscope.tui.screens.company.lookup_form import FIND_COMPANY, check_form, lookup_params
from creditscope.tui.screens.company.match_table import MatchTable
from creditscope.tui.screens.company.reasoning import domain_of, normalised_query
from creditscope.tui.screens.company.recent import RecentLookups
from creditscope.tui.screens.company.report import lookup_report
from creditscope.tui.screens.save_file import SaveFileDialog
from creditscope.tui.web_tab import save_text
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput

WEBSITE_HINT = "Website is optional, but gives the most reliable match."
EMPTY_TEXT = (
    "Type a company name (and ideally its website), then press Enter.\n"
    "Lookups already in the cache reopen for free from Recent lookups."
)
FORM_FIELDS = {"name": "#name", "website": "#website"}  # request field -> its box


class CompanyScreen(AreaScreen):
    """Look up a company: form, summary of what the service did, graded matches, the page."""

    # Not the name field: number keys keep switching areas until `/` or a click.
    AUTO_FOCUS = "#matches"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_main", "New lookup", id="company.focus_name"),
        Binding("c", "copy_url", "Copy URL", id="company.copy_url"),
        Binding("e", "export", "Export", id="company.export"),
        Binding("h", "recent", "Recent", id="company.recent"),
        Binding("ctrl+r", "recheck", "Re-check", id="company.recheck"),
        Binding("y", "copy_report", "Copy report", id="company.copy_report"),
        Binding("w", "compare", "Compare", id="company.compare"),
    ]
    # A re-check is the whole lookup again, past the cache: always charged.
    SPENDING_KEYS: ClassVar[dict[str, str]] = {"company.recheck": FIND_COMPANY}
    MAIN_FIELD = "#name"

    def __init__(self) -> None:
        super().__init__()
        self.lookup: CompanyLookup | None = None
        self.shown_params: dict[str, Any] | None = None  # the request behind the results
        self.shown_record: CallRecord | None = None  # the call that answered it

    def compose_body(self) -> ComposeResult:
        """Form, hint, recent lookups; then the result area with summary, table and card."""
        with Horizontal(id="company-form", classes="toolbar compact-form"):
            yield labelled(TextInput(placeholder="Company name (required)", id="name"),
                           "Company name")
            yield labelled(TextInput(placeholder="Website (optional)", id="website"),
                           "Website")
            yield PriceButton("Look up", operation=FIND_COMPANY, id="submit", variant="primary")
            yield RecentLookups(id="recent")  # its prompt is its label
        with Horizontal(id="company-hints"):
            yield Static("", id="form-error", classes="field-error")
            yield Static(WEBSITE_HINT, id="website-hint")
        with ResultArea(id="lookup", empty=EMPTY_TEXT, fields=FORM_FIELDS):
            yield Static("", id="summary")
            yield MatchTable(id="matches")
            yield CompanyCard(id="card")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Re-check is offered while a lookup's answer is on screen."""
        if action == "recheck":
            return self.recheckable is not None
        return super().check_action(action, parameters)

    @property
    def recheckable(self) -> dict[str, Any] | None:
        """The lookup a re-check would send: the one whose answer is on screen, whatever
        the form now holds; None while an error, the empty hint or another lookup on its
        way is shown (the re-check would pay for a lookup not in view)."""
        try:
            area = self.query_one("#lookup", ResultArea)
        except NoMatches:  # still composing
            return None
        if not area.shows_content or area.is_loading:
            return None
        return self.shown_params

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Look up, copy, export and re-check from the command palette."""
        price = credits_text(price_of(host_of(self), FIND_COMPANY))
        yield PaletteCommand("Look up company", f"Run the lookup in the form ({price})",
                             self.submit)
        yield PaletteCommand(
            "Copy company URL", "Copy the selected match's URL", self.action_copy_url
        )
        yield PaletteCommand(
            "Export matches", "Write the matches as JSON or CSV", self.action_export
        )
        if self.recheckable is not None:
            yield PaletteCommand("Re-check lookup", "The lookup on screen again, past the"
                                 f" cache ({credits_text(price_of(host_of(self), FIND_COMPANY))})",
                                 self.action_recheck)
        yield PaletteCommand("Copy lookup report", "Markdown for a ticket (y)",
                             self.action_copy_report)
        yield PaletteCommand("Save lookup report", "Markdown for a ticket, to a file",
                             self.action_save_report)
        yield PaletteCommand("Compare with and without the website",
                             "The same lookup without (or with another) website, side by side (w)",
                             self.action_compare)

    # --- the form -------------------------------------------------------------

    def action_focus_main(self) -> None:
        """``/`` (New lookup): both boxes emptied, the cursor in the name. A new name must
        not go out with the last lookup's website (a paid lookup nobody typed);
        Ctrl+Z in a box brings its text back."""
        for box in self.query("#name, #website").results(Input):
            box.value = ""
        super().action_focus_main()

    @property
    def form_params(self) -> dict[str, Any]:
        """The request the form currently describes."""
        name = self.query_one("#name", Input).value
        website = self.query_one("#website", Input).value
        return lookup_params(name, website)

    @on(Input.Changed, "#name, #website")
    def _typed(self) -> None:
        # The price label follows the cache as the user types.
        self.query_one("#submit", PriceButton).params = self.form_params
        self._form_error(None, "")

    @on(Input.Submitted, "#name, #website")
    @on(Button.Pressed, "#submit")
    def submit(self) -> None:
        """Validate locally, then run the lookup (free when cached)."""
        name = self.query_one("#name", Input).value
        website = self.query_one("#website", Input).value
        problem = check_form(name, website)
        client = host_of(self).client
        if problem is None and client is not None:
            try:
                client.validate(FIND_COMPANY, lookup_params(name, website))
            except InvalidRequest as error:
                problem = (error.field or "name", error.message)
        if problem is not None:
            self._form_error(*problem)
            return
        self._run(lookup_params(name, website), refresh=False)

    def _run(self, params: dict[str, Any], *, refresh: bool) -> None:
        label = f"company lookup for “{params['name']}”"
        request = CallRequest(operations.FIND_COMPANY, params, refresh=refresh, label=label)
        self.query_one("#lookup", ResultArea).run(request)
        self.refresh_bindings()  # no re-check of the old answer while this one is on its way

    def _form_error(self, field: str | None, message: str) -> None:
        # Refused before sending: the same outline (and focus) as the service's refusal.
        self.query_one("#lookup", ResultArea).mark_field(field, focus=True)
        self._show_form_message(message)

    def _show_form_message(self, message: str) -> None:
        self.query_one("#form-error", Static).update(message)
        self.query_one("#website-hint").display = not message

    # --- results --------------------------------------------------------------

    @on(ResultArea.Succeeded, "#lookup")
    def _show(self, event: ResultArea.Succeeded) -> None:
        answer = event.answer(operations.FIND_COMPANY)
        lookup = answer.data
        params = dict(event.request.params)
        self.lookup = lookup
        self.shown_params = params
        self.shown_record = answer.record
        self.refresh_bindings()  # Re-check is offered now
        website = params.get("website")
        summary = self._summary(lookup, params, answer.record)
        self.query_one("#summary", Static).update(summary)
        table = self.query_one("#matches", MatchTable)
        table.show(lookup, website)
        self.query_one("#card", CompanyCard).display = bool(lookup.matches)
        if lookup.matches:
            table.focus_when_drawn()

    @on(ResultArea.Failed, "#lookup")
    def _failed(self, event: ResultArea.Failed) -> None:
        self.refresh_bindings()  # the error, not a lookup, is on screen: nothing to re-check
        # The area outlined the refused box; say why beside the form too.
        if isinstance(event.error, InvalidRequest) and event.error.field in FORM_FIELDS:
            self._show_form_message(event.error.message)

    def _summary(self, lookup: CompanyLookup, params: dict[str, Any], record: CallRecord) -> Text:
        text = Text()
        text.append("Query ", style="bold")
        text.append(normalised_query(str(params.get("name", "")), lookup.query))
        count = lookup.count if lookup.count else len(lookup.matches)
        text.append(f"   ·   {count} match{'es' if count != 1 else ''}   ·   ")
        text.append_text(spend_note(record))
        text.append("\nSearches ", style="bold")
        searches = "   ".join(lookup.queries) if lookup.queries else "not reported"
        text.append(searches, style="bright_black")
        if not lookup.matches:
            text.append(
                "\nNo candidate pages: the company may have no page on the network.",
                style="italic",
            )
        elif params.get("website") and not any(m.website_match for m in lookup.matches):
            text.append(
                f"\nNo page lists {domain_of(str(params['website']))}: "
                "none of these is a reliable match.",
                style="italic",
            )
        return text

    @on(MatchTable.MatchChosen, "#matches")
    def _chosen(self, event: MatchTable.MatchChosen) -> None:
        website = (self.shown_params or {}).get("website")
        self.query_one("#card", CompanyCard).show(event.match, website, event.rank)

    # --- actions ----------------------------------------------------------------

    @on(Button.Pressed, "#recheck")
    def action_recheck(self) -> None:
        """Run the lookup on screen again past the cache (charged), e.g. to re-check an
        unavailable page; not the form's text, which may have changed since."""
        params = self.recheckable
        if params is not None:
            self._run(params, refresh=True)

    @on(RecentLookups.Reopen)
    def _reopen(self, event: RecentLookups.Reopen) -> None:
        params = event.params
        self.query_one("#name", Input).value = str(params.get("name", ""))
        self.query_one("#website", Input).value = str(params.get("website") or "")
        self._run(lookup_params(str(params.get("name", "")), str(params.get("website") or "")),
                  refresh=False)

    def action_copy_url(self) -> None:
        """Copy the selected match's company URL to the clipboard."""
        match = self.query_one("#matches", MatchTable).current
        if match is None:
            self.notify("Run a lookup and pick a match first.", severity="warning")
            return
        url = match.company.url if match.company and match.company.url else match.company_url
        copy_text(self.app, url, f"Company URL {url}", save_as="company-url.txt")

    def action_export(self) -> None:
        """Ask for a file and write the shown matches as JSON or CSV (free: nothing is fetched)."""
        shown = self.query_one("#lookup", ResultArea).shows_content
        lookup, params = self.lookup if shown else None, self.shown_params or {}
        name, website = str(params.get("name", "")), params.get("website")
        export_list(
            self.app, lookup.matches if lookup is not None else [],
            word="match", plural="matches",
            default=Path(f"{file_stem(name, 'company')}-matches.json"),
            empty="run a lookup first." if lookup is None else "this lookup found no pages.",
            render=None if lookup is None else partial(
                render_matches, lookup=lookup, name=name, website=website),
        )

    def action_recent(self) -> None:
        """Open the recent-lookups list."""
        recent = self.query_one("#recent", RecentLookups)
        if not recent.disabled:
            recent.focus()
            recent.action_show_overlay()

    def _report(self) -> str | None:
        if self.lookup is None or self.shown_params is None or self.shown_record is None:
            self.notify("Run a lookup first; there is nothing to report.", severity="warning")
            return None
        host = host_of(self)
        service = "sandbox" if host.is_sandbox else shown_url(str(host.settings.base_url))
        return lookup_report(self.lookup, self.shown_params, self.shown_record,
                             service=service, sandbox=host.is_sandbox, now=host.clock())

    def action_copy_report(self) -> None:
        """Copy the shown lookup as a Markdown report for a ticket (never the key)."""
        report = self._report()
        if report is not None:
            copy_text(self.app, report, "Lookup report", save_as="lookup-report.md")

    def action_save_report(self) -> None:
        """Ask for a file and save the Markdown report there."""
        report = self._report()
        if report is None:
            return
        slug = file_stem(str((self.shown_params or {}).get("name", "")), "company")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                where = save_text(self.app, path, report)  # a web tab downloads it instead
            except OSError as error:
                self.notify(f"{path}: {error.strerror or error}", title="Not saved",
                            severity="error")
                return
            self.notify(f"Lookup report saved to {where}", title="Saved")

        self.app.push_screen(SaveFileDialog("Save the lookup report (Markdown)",
                                            Path(f"{slug}-lookup.md")), chosen)

    def action_compare(self) -> None:
        """Run the shown lookup again without its website (or with another) and compare."""
        if self.lookup is None or self.shown_params is None:
            self.notify("Run a lookup first; then compare it.", severity="warning")
            return
        from creditscope.tui.screens.company.compare_screen import CompareScreen

        self.app.push_screen(CompareScreen(self.lookup, self.shown_params))

    def fill_request(self, operation: str, params: dict[str, Any]) -> bool:
        """Fill the form from an imported request; sends nothing (the button shows the price)."""
        if operation != FIND_COMPANY:
            return False
        self.query_one("#name", Input).value = str(params.get("name") or "")
        self.query_one("#website", Input).value = str(params.get("website") or "")
        self.query_one("#submit", PriceButton).focus()
        return True

