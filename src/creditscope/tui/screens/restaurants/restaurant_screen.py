"""One restaurant, pushed over the results: Overview, Menu and Reviews, each paid for once."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static, TabbedContent, TabPane, Tabs

from creditscope import operations
from creditscope.client.price_state import PriceState, PriceWords
from creditscope.models import RestaurantDetails, RestaurantSummary
from creditscope.row_export import file_stem
from creditscope.tui.calls import ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.key_costs import Priced
from creditscope.tui.list_export import export_list
from creditscope.tui.prices import Quote, quote
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.screens.restaurants.breadcrumb import Breadcrumb
from creditscope.tui.screens.restaurants.menu_view import MenuView
from creditscope.tui.screens.restaurants.overview import OverviewView
from creditscope.tui.screens.restaurants.part import RestaurantPart
from creditscope.tui.screens.restaurants.reviews_view import ReviewsView
from creditscope.tui.widgets.text_input import focus_now
from creditscope.wording import counted

PARTS: tuple[type[RestaurantPart], ...] = (OverviewView, MenuView, ReviewsView)
# The key that opens each tab (its binding id): the footer prices it as the tab does.
TAB_KEYS = {f"restaurants.{part.title.lower()}": part.title.lower() for part in PARTS}
EXPORT_NAMES = {"overview": "restaurant", "menu": "menu", "reviews": "reviews"}  # file prefixes


def part_words(now: Quote, loaded: bool) -> PriceWords:
    """What opening a part costs, in the words of every price: a part on screen already
    (or answered by the cache) is free."""
    words = now.words()
    return PriceWords(PriceState.CACHED, words.price) if loaded else words


def tab_label(title: str, now: Quote | None, loaded: bool) -> str:
    """What a part's tab says: its price until opened ("Menu · N cr"), then "Menu · cached";
    an expired copy costs again ("Menu · N cr · expired")."""
    if loaded:
        return f"{title} · cached"
    if now is None:  # the client is still starting
        return title
    return now.label(title)


def heading(name: str, summary: RestaurantSummary | RestaurantDetails | None) -> Text:
    """The restaurant's name with its cuisine and rating, as far as they are known."""
    text = Text()
    text.append(name, style="bold")
    if summary is None:
        return text
    if summary.cuisine:
        text.append(f"  {fmt.title_case(summary.cuisine)}", style="bright_black")
    if summary.rating is not None:
        text.append(f"  {fmt.stars(summary.rating)}", style="yellow")
        text.append(f" {summary.rating:.1f}")
    if summary.review_count is not None:
        reviews = counted(summary.review_count, "review", grouped=True)
        text.append(f" ({reviews})", style="bright_black")
    return text


class RestaurantScreen(AreaScreen):
    """A restaurant's overview, menu and reviews; each tab is fetched when first opened."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back to results", id="restaurants.back"),
        Binding("v", "show_part('overview')", "Overview", id="restaurants.overview"),
        Binding("m", "show_part('menu')", "Menu", id="restaurants.menu"),
        Binding("r", "show_part('reviews')", "Reviews", id="restaurants.reviews"),
        Binding("e", "export", "Export", id="restaurants.export_tab"),
    ]

    def __init__(
        self,
        restaurant_id: str,
        *,
        summary: RestaurantSummary | None = None,
        place: str = "",
    ) -> None:
        super().__init__()
        self.restaurant_id = restaurant_id
        self.summary = summary
        self.place = place
        self.name_shown = summary.name if summary else restaurant_id

    def compose_body(self) -> ComposeResult:
        """Breadcrumb, heading, then one tab per part."""
        yield Breadcrumb(self._trail("Overview"), id="restaurant-breadcrumb")
        yield Static(heading(self.name_shown, self.summary), id="restaurant-heading")
        with TabbedContent(id="restaurant-parts", initial="overview"):
            for part in PARTS:
                pane_id = part.title.lower()
                with TabPane(part.title, id=pane_id):
                    yield part(self.restaurant_id, id=f"{pane_id}-part")

    def _part_price(self, part: RestaurantPart) -> tuple[Quote | None, bool]:
        """(quote, already opened): what opening ``part`` costs now (None while the client
        is still starting)."""
        return quote(host_of(self), part.operation.name, part.params()), part.loaded

    def binding_cost(self, binding_id: str) -> Priced | None:
        """A tab's key (``m`` Menu) says what its tab says: the part's price, or free once
        fetched or cached; other keys as every area prices them."""
        pane_id = TAB_KEYS.get(binding_id)
        if pane_id is None:
            return super().binding_cost(binding_id)
        for part in self.query(f"#{pane_id}-part").results(RestaurantPart):  # none while composing
            now, loaded = self._part_price(part)
            return None if now is None else part_words(now, loaded)
        return None

    def on_mount(self) -> None:
        """Price the tabs now and whenever a client is ready; open the overview."""
        self.relabel_tabs()
        host_of(self).signals.client_ready.subscribe(self, lambda _client: self.relabel_tabs())
        self.part("overview").load()  # the priced press that opened this restaurant

    def on_unmount(self) -> None:
        """Popped: stop following the app (else it would keep this whole screen alive)."""
        host_of(self).signals.unsubscribe(self)

    def part(self, pane_id: str) -> RestaurantPart:
        """The part shown in the tab ``pane_id`` (``"overview"``, ``"menu"``, ``"reviews"``)."""
        return self.query_one(f"#{pane_id}-part", RestaurantPart)

    def _trail(self, tab: str) -> list[str]:
        return ["Restaurants", self.place, self.name_shown, tab]

    def relabel_tabs(self) -> None:
        """Each tab says what opening it costs: its price, or "cached" when that is free."""
        tabs = self.query_one("#restaurant-parts", TabbedContent)
        for part_class in PARTS:
            pane_id = part_class.title.lower()
            part = self.part(pane_id)
            tabs.get_tab(pane_id).label = tab_label(part.title, *self._part_price(part))
        self.refresh_bindings()  # the keys show the same prices

    @on(TabbedContent.TabActivated, "#restaurant-parts")
    def _tab_opened(self, event: TabbedContent.TabActivated) -> None:
        pane_id = event.pane.id or "overview"
        if not self.part(pane_id).ensure_loaded():
            # The cursor stays on the tabs: letters switch tabs and never land in a box
            # that Textual would otherwise pick when the focused widget is hidden.
            self.query_one(Tabs).focus()
        self.query_one("#restaurant-breadcrumb", Breadcrumb).parts = self._trail(
            self.part(pane_id).title
        )

    @on(ResultArea.Succeeded)
    def _part_loaded(self, event: ResultArea.Succeeded) -> None:
        if event.is_for(operations.RESTAURANT_DETAILS):
            # Opened by id alone: the listing gives the name the breadcrumb lacked.
            details = event.answer(operations.RESTAURANT_DETAILS).data
            self.name_shown = details.name
            self.query_one("#restaurant-heading", Static).update(heading(details.name, details))
            active = self.query_one("#restaurant-parts", TabbedContent).active or "overview"
            self.query_one("#restaurant-breadcrumb", Breadcrumb).parts = self._trail(
                self.part(active).title
            )
        self.call_after_refresh(self.relabel_tabs)

    def main_field(self) -> Input | None:
        """On the Menu tab, the dish search; elsewhere none (``/`` goes back to the search)."""
        tabs = self.query_one("#restaurant-parts", TabbedContent)
        if tabs.active == "menu" and self.part("menu").loaded:
            return self.query_one("#menu-search", Input)
        return None

    def action_focus_main(self) -> None:
        """``/``: the dish search on a fetched menu, else back to the restaurant search with
        the cursor in its location box (never a tab's key: those are letters)."""
        field = self.main_field()
        if field is not None:
            focus_now(field)
            return
        self.app.pop_screen()
        below = self.app.screen
        if isinstance(below, AreaScreen):
            below.action_focus_main()

    def action_show_part(self, pane_id: str) -> None:
        """Switch to a part (free: a part not fetched yet offers its priced button)."""
        # Load before switching: a cached part is filled before the tab's first frame.
        self.part(pane_id).ensure_loaded()
        self.query_one("#restaurant-parts", TabbedContent).active = pane_id

    def action_export(self) -> None:
        """Write what the active tab shows to CSV or JSON: the overview as one record, the
        menu's dishes as filtered on screen, the reviews shown. Free: nothing is fetched."""
        pane_id = self.query_one("#restaurant-parts", TabbedContent).active or "overview"
        part = self.part(pane_id)
        word, plural = part.export_word
        stem = file_stem(self.restaurant_id, "restaurant")
        export_list(
            self.app, part.export_rows(), word=word, plural=plural,
            default=Path(f"{EXPORT_NAMES.get(pane_id, pane_id)}-{stem}.json"),
            scope=part.export_scope(), empty=part.export_empty(),
        )
