"""Menu: sections and items with prices in the menu's currency, filterable by diet and text."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Select, Static, Tabs

from creditscope import operations
from creditscope.models import Menu, MenuItem, MenuSection
from creditscope.outside_text import markup_escaped
from creditscope.row_export import Row, dump_row
from creditscope.tui.calls import ResultArea
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.screens.restaurants.part import RestaurantPart
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput
from creditscope.wording import counted


def dietary_tags(menu: Menu) -> list[str]:
    """Every dietary tag on the menu, alphabetically (the full set is the service's to choose)."""
    return sorted(
        {tag for section in menu.sections for item in section.items for tag in item.dietary}
    )


def _matches(item: MenuItem, section: MenuSection, needle: str) -> bool:
    haystack = " ".join((item.name, item.description or "", section.name, *item.dietary))
    return needle in haystack.casefold()


def filter_menu(menu: Menu, text: str = "", tag: str | None = None) -> list[MenuSection]:
    """The sections and items that carry ``tag`` and mention ``text``; empty sections dropped."""
    needle = text.strip().casefold()
    kept: list[MenuSection] = []
    for section in menu.sections:
        items = [
            item
            for item in section.items
            if (tag is None or tag in item.dietary)
            and (not needle or _matches(item, section, needle))
        ]
        if items:
            kept.append(MenuSection(name=section.name, items=items))
    return kept


def render_sections(sections: list[MenuSection], currency: str | None) -> RenderableType:
    """Each section's heading, then its items: name (★ popular), description, tags, price."""
    parts: list[RenderableType] = []
    for section in sections:
        parts.append(Text(section.name, style="bold underline"))
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        for item in section.items:
            line = Text()
            line.append(item.name, style="bold")
            if item.popular:
                line.append("  ★ popular", style="yellow")
            if item.description:
                line.append("\n" + item.description, style="bright_black")
            if item.dietary:
                line.append("\n" + " · ".join(item.dietary), style="italic green")
            table.add_row(line, Text(fmt.format_money(item.price, currency), style="bold"))
        parts.append(table)
        parts.append(Text(""))
    return Group(*parts)


class MenuView(RestaurantPart):
    """The restaurant's current menu (N cr); the diet filter and text search are free."""

    operation = operations.RESTAURANT_MENU
    title: ClassVar[str] = "Menu"
    area_id: ClassVar[str] = "menu-area"
    button_id: ClassVar[str | None] = "menu-load"
    export_word: ClassVar[tuple[str, str | None]] = ("dish", "dishes")

    def __init__(self, restaurant_id: str, **kwargs: object) -> None:
        super().__init__(restaurant_id, **kwargs)
        self.menu: Menu | None = None

    def compose(self) -> ComposeResult:
        """Its priced button until fetched; then search box, diet filter and menu facts above
        the scrolling list of sections."""
        yield PriceButton("Get the menu", operation=self.operation.name, id=self.button_id,
                          classes="part-load")
        with ResultArea(id=self.area_id):
            with Horizontal(classes="restaurant-toolbar"):
                search = TextInput(placeholder="Search dishes, e.g. pasta", id="menu-search")
                search.border_title = "Search"
                yield search
                diet: Select[str] = Select([], prompt="Any diet", id="menu-diet")
                diet.border_title = "Dietary"
                yield diet
                yield Static("", id="menu-meta", classes="restaurant-meta")
            yield Static("", id="menu-count", classes="restaurant-summary")
            with VerticalScroll(id="menu-scroll", classes="restaurant-scroll"):
                yield Static("", id="menu-items")

    def on_mount(self) -> None:
        """Price the button for this restaurant."""
        self.query_one(f"#{self.button_id}", PriceButton).params = self.params()

    @on(Button.Pressed, "#menu-load")
    def _load_pressed(self) -> None:
        self.load()

    @on(ResultArea.Succeeded, "#menu-area")
    def _loaded(self, event: ResultArea.Succeeded) -> None:
        self.menu = event.answer(operations.RESTAURANT_MENU).data
        self.loaded = True
        button = self.query_one(f"#{self.button_id}", PriceButton)
        if button.has_focus:  # the cursor goes back to the tabs, not to another tab's box
            self.screen.query_one(Tabs).focus()
        button.display = False
        menu = self.menu
        assert menu is not None
        diet = self.query_one("#menu-diet", Select)
        diet.set_options([(fmt.title_case(tag), tag) for tag in dietary_tags(menu)])
        updated = menu.last_updated.isoformat() if menu.last_updated else "unknown"
        self.query_one("#menu-meta", Static).update(
            f"Prices in [b]{markup_escaped(menu.currency or '—')}[/b]\nUpdated [b]{updated}[/b]"
        )
        self.refilter()

    @property
    def diet(self) -> str | None:
        """The chosen dietary tag, or None for any."""
        value = self.query_one("#menu-diet", Select).value
        return value if isinstance(value, str) else None

    @property
    def search_text(self) -> str:
        """The dish search as typed."""
        return self.query_one("#menu-search", Input).value

    def shown_rows(self) -> list[Row]:
        """The dishes shown (search and diet applied), one row each with its section and
        the menu's currency."""
        if self.menu is None:
            return []
        currency = self.menu.currency
        return [
            {"section": section.name, **dump_row(item), "currency": currency}
            for section in filter_menu(self.menu, self.search_text, self.diet)
            for item in section.items
        ]

    def filter_words(self) -> str:
        """The diet and search applied, as the count line says them ("" for none)."""
        words = [fmt.title_case(self.diet)] if self.diet else []
        if self.search_text.strip():
            words.append(f"matching “{self.search_text.strip()}”")
        return " · ".join(words)

    def export_scope(self) -> str:
        """Which dishes: the whole menu, or the menu as filtered on screen."""
        applied = self.filter_words()
        return f" of the menu, as filtered: {applied}" if applied else " of the whole menu"

    def export_empty(self) -> str:
        """No dishes shown: the filter hides them all (or the menu has none)."""
        if self.loaded and self.filter_words():
            return "no dishes match the search and diet."
        return super().export_empty()

    @on(Input.Changed, "#menu-search")
    @on(Select.Changed, "#menu-diet")
    def refilter(self) -> None:
        """Show only the items that match the search text and the diet (no request is made)."""
        if self.menu is None:
            return
        text = self.search_text
        sections = filter_menu(self.menu, text, self.diet)
        shown = sum(len(section.items) for section in sections)
        total = sum(len(section.items) for section in self.menu.sections)
        summary = f"[b]{shown}[/b] of {counted(total, 'dish', 'dishes')}"
        if self.filter_words():
            summary += f" · {self.filter_words()}"
        self.query_one("#menu-count", Static).update(summary)
        items: RenderableType = render_sections(sections, self.menu.currency)
        if not sections:
            items = Text(
                "No dishes match. Clear the search or pick another diet.", style="bright_black"
            )
        self.query_one("#menu-items", Static).update(items)
