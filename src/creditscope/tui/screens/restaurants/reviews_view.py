"""Reviews: the average and total, a histogram of the ratings shown, and each review."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Static

from creditscope import operations
from creditscope.models import Review, Reviews
from creditscope.row_export import Row
from creditscope.tui.calls import ResultArea
from creditscope.tui.screens.restaurants import formatting as fmt
from creditscope.tui.screens.restaurants.part import RestaurantPart
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput
from creditscope.wording import counted

DEFAULT_LIMIT = 10


def average_text(reviews: Reviews) -> Text:
    """``4.2 ★★★★☆`` over ``128 reviews in all``."""
    text = Text()
    if reviews.average_rating is None:
        text.append("no rating", style="bright_black")
    else:
        text.append(f"{reviews.average_rating:.1f} ", style="bold")
        text.append(fmt.stars(reviews.average_rating), style="yellow")
    text.append(f"\n{counted(reviews.total, 'review', grouped=True)} in all", style="bright_black")
    return text


def histogram(reviews: list[Review], width: int = 24) -> Table:
    """One bar per star (5 to 1) with its count, for the reviews shown."""
    counts = fmt.rating_histogram(review.rating for review in reviews)
    largest = max(counts.values(), default=0)
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True, width=width)
    table.add_column(justify="right", no_wrap=True)
    for star, count in counts.items():
        table.add_row(
            f"{star} ★", Text(fmt.histogram_bar(count, largest, width), style="yellow"), str(count)
        )
    return table


def render_reviews(reviews: list[Review]) -> RenderableType:
    """Each review: stars, author, date and helpful votes, then the text."""
    parts: list[RenderableType] = []
    for review in reviews:
        head = Text()
        head.append(fmt.stars(review.rating), style="yellow")
        head.append(f"  {review.author or 'Anonymous'}", style="bold")
        if review.date:
            head.append(f"  ·  {review.date.isoformat()}", style="bright_black")
        votes = review.helpful_votes or 0
        head.append(
            f"  ·  {votes} found this helpful" if votes else "  ·  no helpful votes",
            style="bright_black",
        )
        parts.append(head)
        if review.text:
            parts.append(Text(review.text))
        parts.append(Text(""))
    return Group(*parts)


class ReviewsView(RestaurantPart):
    """Recent reviews (N cr); a new limit is a new request, priced on its button."""

    operation = operations.RESTAURANT_REVIEWS
    title: ClassVar[str] = "Reviews"
    area_id: ClassVar[str] = "reviews-area"
    button_id: ClassVar[str | None] = "reviews-load"
    export_word: ClassVar[tuple[str, str | None]] = ("review", None)

    def __init__(self, restaurant_id: str, **kwargs: Any) -> None:
        super().__init__(restaurant_id, **kwargs)
        self.reviews: Reviews | None = None

    def compose(self) -> ComposeResult:
        """The limit and its priced button stay above the results, so a bad limit can be fixed."""
        with Horizontal(classes="restaurant-toolbar"):
            limit = TextInput(str(DEFAULT_LIMIT), type="integer", id="reviews-limit", max_length=2)
            limit.border_title = "Reviews (1-50)"
            yield limit
            yield PriceButton("Show reviews", operation=self.operation.name, id="reviews-load")
        with ResultArea(id=self.area_id, fields={"limit": "#reviews-limit"}):
            with Horizontal(classes="reviews-summary"):
                yield Static("", id="reviews-average", classes="reviews-average")
                yield Static("", id="reviews-histogram", classes="reviews-histogram")
            with VerticalScroll(id="reviews-scroll", classes="restaurant-scroll"):
                yield Static("", id="reviews-list")

    def on_mount(self) -> None:
        """Price the button for the default limit."""
        self._sync_price()

    def params(self) -> dict[str, Any]:
        """The id and the limit as typed (the client refuses an out-of-range one, free)."""
        text = self.query_one("#reviews-limit", Input).value.strip()
        limit: Any = DEFAULT_LIMIT
        if text:
            limit = int(text) if text.lstrip("-").isdigit() else text
        return {"id": self.restaurant_id, "limit": limit}

    @on(Input.Changed, "#reviews-limit")
    def _sync_price(self) -> None:
        self.query_one("#reviews-load", PriceButton).params = self.params()
        self.query_one(f"#{self.area_id}", ResultArea).mark_field(None)

    @on(Button.Pressed, "#reviews-load")
    @on(Input.Submitted, "#reviews-limit")
    def _reload(self) -> None:
        self.load()

    def shown_rows(self) -> list[Row]:
        """The reviews shown, newest first as the service lists them."""
        return list(self.reviews.reviews) if self.reviews is not None else []

    def export_scope(self) -> str:
        """How many there are in all, when more than were fetched."""
        reviews = self.reviews
        if reviews is None or reviews.total <= len(reviews.reviews):
            return ""
        return f" (of {counted(reviews.total, 'review', grouped=True)} in all)"

    @on(ResultArea.Succeeded, "#reviews-area")
    def _loaded(self, event: ResultArea.Succeeded) -> None:
        data = event.answer(operations.RESTAURANT_REVIEWS).data
        self.reviews = data
        self.loaded = True
        self.query_one("#reviews-average", Static).update(average_text(data))
        title = Text(f"Ratings of the {len(data.reviews)} shown\n", style="bold")
        self.query_one("#reviews-histogram", Static).update(Group(title, histogram(data.reviews)))
        listing: RenderableType = render_reviews(data.reviews)
        if not data.reviews:
            listing = Text("No reviews yet.", style="bright_black")
        self.query_one("#reviews-list", Static).update(listing)
