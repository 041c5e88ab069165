"""Restaurants: the search form and its results; Enter on a result opens the restaurant."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, DataTable, Input, Select, Static

from creditscope import operations
from creditscope.client.errors import InvalidRequest
from creditscope.models import CUISINES, RestaurantSearch
from creditscope.outside_text import markup_escaped
from creditscope.place_check import check_place, is_known_place
from creditscope.row_export import file_stem
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.list_export import export_list
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.place_choices import complete_to_choices, namesake_hint, resolved_text
from creditscope.tui.place_input import PlaceInput
from creditscope.tui.prices import credits_text, price_of
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.screens.restaurants.breadcrumb import Breadcrumb
from creditscope.tui.screens.restaurants.places import local_currency_symbol, place_name
from creditscope.tui.screens.restaurants.results_table import BY_KEY, RestaurantResults
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput

SEARCH = operations.RESTAURANT_SEARCH.name  # what prices, keys and imports go by
DEFAULT_LIMIT = 10


class RestaurantsScreen(AreaScreen):
    """Search restaurants by place, cuisine and count; results sortable; Enter opens one."""

    # Not the location box: number keys keep switching areas until `/` or a click.
    AUTO_FOCUS = "#results-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_main", "Search", id="restaurants.focus_search"),
        Binding("ctrl+r", "refresh", "Refresh", id="restaurants.refresh"),
        Binding("e", "export", "Export", id="restaurants.export"),
    ]
    SPENDING_KEYS: ClassVar[dict[str, str]] = {"restaurants.refresh": SEARCH}
    MAIN_FIELD = "#location"
    PLACE_BOX = True

    def __init__(self) -> None:
        super().__init__()
        self.place = ""  # where the last search was, as the service named it
        self._last: tuple[RestaurantSearch, dict[str, Any]] | None = None

    def compose_body(self) -> ComposeResult:
        """Form (location, cuisine, limit, priced search button), breadcrumb, results."""
        with Horizontal(id="restaurant-form", classes="restaurant-toolbar compact-form"):
            yield labelled(PlaceInput(placeholder="City, e.g. Lisbon or Paris, FR",
                                      id="location"), "Location")
            cuisine: Select[str] = Select(
                [(fmt.title_case(name), name) for name in CUISINES],
                prompt="Any cuisine",
                id="cuisine",
            )
            yield labelled(cuisine, "Cuisine")
            with Horizontal(id="limit-field"):
                yield labelled(TextInput(str(DEFAULT_LIMIT), type="integer", id="limit",
                                         max_length=2), "Results (1-30)")
                # A one-line box has no title: there the number says what it counts.
                yield Static("results", classes="field-unit")
            yield PriceButton("Search", operation=SEARCH, id="search", variant="primary")
        yield Breadcrumb(["Restaurants"], id="restaurants-breadcrumb")
        with ResultArea(
            id="restaurant-results",
            empty="Type a city (Tab completes it), pick a cuisine if you like, and press Enter.\n"
            "Each search is priced on its button; the same search again is free from the cache.",
            fields={"location": "#location", "cuisine": "#cuisine", "limit": "#limit"},
        ):
            yield Static("", id="results-summary", classes="restaurant-summary")
            yield RestaurantResults(id="results-table")

    def on_mount(self) -> None:
        """Price the button; the cursor stays out of the form until `/` (see AUTO_FOCUS)."""
        self._sync_price()
        complete_to_choices(self.query_one("#location", Input), host_of(self))

    # --- the request -------------------------------------------------------------

    def search_params(self) -> dict[str, Any]:
        """The request as typed: location, cuisine if chosen, limit (as typed if not a number)."""
        typed = self.query_one("#location", Input).value.strip()
        params: dict[str, Any] = {"location": resolved_text(host_of(self), typed)}
        cuisine = self.query_one("#cuisine", Select).value
        if isinstance(cuisine, str):
            params["cuisine"] = cuisine
        limit = self.query_one("#limit", Input).value.strip()
        if limit:
            params["limit"] = int(limit) if limit.lstrip("-").isdigit() else limit
        else:
            params["limit"] = DEFAULT_LIMIT
        return params

    @on(Input.Changed, "#location, #limit")
    @on(Select.Changed, "#cuisine")
    def _sync_price(self) -> None:
        # The same request again is free: the button says so before it is pressed.
        params = self.search_params()
        button = self.query_one("#search", PriceButton)
        button.params = params
        location = str(params["location"])
        button.blocked = "unknown place" if location and not is_known_place(location) else None
        self.refresh_bindings()  # ^o Other place, when the name has namesakes
        self.query_one("#restaurant-results", ResultArea).mark_field(None)

    @on(Button.Pressed, "#search")
    @on(Input.Submitted, "#location, #limit")
    def action_search(self) -> None:
        """Run the search (validated locally first: a bad form costs nothing)."""
        self.run_search()

    def run_search(self, *, refresh: bool = False) -> None:
        """Send the current form through the results area; a place the gazetteer does not
        know is refused here, free, with the closest names (the sandbox would only answer
        "no restaurants"; a live service may know it, so there it can be sent anyway)."""
        params = self.search_params()
        label = f"restaurants near {params['location']}" if params["location"] else "restaurants"
        request = CallRequest(operations.RESTAURANT_SEARCH, params, refresh=refresh, label=label)
        area = self.query_one("#restaurant-results", ResultArea)
        checked = check_place(str(params["location"])) if params["location"] else None
        client = host_of(self).client
        if checked is None or checked.known or client is None:
            area.run(request)
            return
        try:
            client.validate(SEARCH, params)
        except InvalidRequest:
            area.run(request)  # the client's own refusal (free) says what is wrong first
            return
        area.refuse(request, InvalidRequest(checked.message, field="location",
                                            code="unknown_place"))
        if not host_of(self).is_sandbox:
            self._offer_unknown_place(request, checked.message)

    def _offer_unknown_place(self, request: CallRequest[RestaurantSearch], why: str) -> None:
        """A live service may know a place the gazetteer does not: send only if confirmed."""
        from creditscope.tui.screens.confirm import ConfirmSpend

        def decided(confirmed: bool | None) -> None:
            if confirmed:
                self.query_one("#restaurant-results", ResultArea).run(request, deliberate=True)

        price = price_of(host_of(self), SEARCH)
        self.app.push_screen(ConfirmSpend(
            "Search an unknown place?",
            f"{why} The service may still know it: searching costs {credits_text(price)}, "
            "even if it finds nothing.", price=price), decided)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Refresh once a search has answered: before, there is nothing to fetch again
        (it offered a priced Refresh on an empty screen)."""
        if action == "refresh":
            return self._last is not None
        return super().check_action(action, parameters)

    def action_refresh(self) -> None:
        """Search again past the cache (charged)."""
        self.run_search(refresh=True)

    def action_export(self) -> None:
        """Write the results, in the order shown, to CSV or JSON. Free: nothing is fetched."""
        area = self.query_one("#restaurant-results", ResultArea)
        table = self.query_one("#results-table", RestaurantResults)
        export_list(
            self.app, table.shown() if area.shows_content else [], word="restaurant",
            default=Path(f"restaurants-{file_stem(self.place, 'search')}.csv"),
            empty="search a place first." if self._last is None
            else "the results show no restaurants.",
        )

    def fill_request(self, operation: str, params: dict[str, Any]) -> bool:
        """Fill the form from an imported request; sends nothing (the button shows the price)."""
        if operation != SEARCH:
            return False
        self.query_one("#location", Input).value = str(params.get("location") or "")
        cuisine = str(params.get("cuisine") or "").strip().lower()
        select = self.query_one("#cuisine", Select)
        if cuisine:
            select.value = cuisine
        else:
            select.clear()
        self.query_one("#limit", Input).value = str(params.get("limit") or DEFAULT_LIMIT)
        self.query_one("#search", PriceButton).focus()
        return True

    # --- results -------------------------------------------------------------------

    @on(ResultArea.Succeeded, "#restaurant-results")
    def _searched(self, event: ResultArea.Succeeded) -> None:
        data = event.answer(operations.RESTAURANT_SEARCH).data
        self.place = place_name(data.location or str(event.request.params.get("location", "")))
        table = self.query_one("#results-table", RestaurantResults)
        table.show(data.results, symbol=local_currency_symbol(data.location))
        self.query_one("#restaurants-breadcrumb", Breadcrumb).parts = ["Restaurants", self.place]
        self._summarise(data, event.request.params)
        if data.results:
            table.focus_when_drawn()
        else:
            cuisine = event.request.params.get("cuisine")
            what = f"{fmt.title_case(cuisine)} restaurants" if cuisine else "Restaurants"
            self.query_one("#restaurant-results", ResultArea).show_empty(
                f"No {what.lower()} found near {self.place}. Try another cuisine or place."
            )

    def _summarise(self, data: RestaurantSearch, params: dict[str, Any]) -> None:
        table = self.query_one("#results-table", RestaurantResults)
        cuisine = params.get("cuisine")
        kind = f"{fmt.title_case(cuisine)} restaurants" if cuisine else "restaurants"
        # The place is the service's echo: text, never markup.
        place = markup_escaped(data.location or self.place)
        text = f"[b]{data.total:,}[/b] {markup_escaped(kind)} near [b]{place}[/b]"
        if data.total > len(data.results):
            text += f" · showing {len(data.results)}"
        if table.sort_column:
            direction = "high to low" if table.sort_descending else "low to high"
            text += f" · sorted by {BY_KEY[table.sort_column].title.lower()}, {direction}"
        also = namesake_hint(host_of(self), str(params.get("location", "")))
        if also:
            text += f" · {also}"
        opening = table.open_price()
        chosen = table.selected
        if chosen is not None and opening is not None:
            # Where the eye is: what Enter (or a second click) on the highlighted row costs.
            text += f"  · ⏎ opens [b]{markup_escaped(chosen.name)}[/b] · {opening.long}"
        self.query_one("#results-summary", Static).update(text)
        self._last = (data, params)
        self.refresh_bindings()  # Refresh is offered from now on

    @on(DataTable.RowHighlighted, "#results-table")
    def _highlighted(self) -> None:
        if self._last is not None:
            self._summarise(*self._last)

    @on(RestaurantResults.SortChanged)
    def _resorted(self) -> None:
        if self._last is not None:
            self._summarise(*self._last)

    @on(RestaurantResults.Opened)
    def _open(self, event: RestaurantResults.Opened) -> None:
        from creditscope.tui.screens.restaurants.restaurant_screen import RestaurantScreen

        self.app.push_screen(
            RestaurantScreen(event.restaurant.id, summary=event.restaurant, place=self.place)
        )

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Restaurant actions for the command palette."""
        price = credits_text(price_of(host_of(self), SEARCH))
        yield PaletteCommand("Search restaurants", f"Run the search form ({price})",
                             self.action_search)
        yield PaletteCommand(
            "Refresh restaurant search", "Search again past the cache", self.action_refresh
        )
        yield PaletteCommand(
            "Export restaurants", "The results, as sorted, to CSV or JSON (free)",
            self.action_export,
        )
