"""What the guided tour shows: one scene per thing to see, each a caption and the
keystrokes a person would type, in the explorer's own keys (a remapped key is used
as remapped).

A scene can be played on its own (the arrows jump to it): one that needs something
on screen first (a feed, an open restaurant) says so with :class:`Needs`, whose
keys are typed at once, without the pauses, when that is not there yet. Every
price in a caption is the client's (:mod:`creditscope.tui.prices`): what the step
would cost on the live service; the tour itself runs on the sandbox, whose credits the
header counts as it would live ones, and which nobody is billed for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from creditscope.tui.prices import credits_text, price_of

if TYPE_CHECKING:
    from textual.app import App

    from creditscope.tui.host import ExplorerHost

Check = Callable[["App[Any]"], bool]


@dataclass(frozen=True)
class Press:
    """Keys pressed one after another, ``pace`` seconds apart (at speed 1)."""

    keys: tuple[str, ...]
    pace: float = 0.8


@dataclass(frozen=True)
class Bound:
    """The key of a binding (``"restaurants.menu"``), as the user's keymap has it."""

    binding_id: str
    default: str
    pace: float = 0.8


@dataclass(frozen=True)
class Type:
    """Text typed a character at a time."""

    text: str
    pace: float = 0.13


@dataclass(frozen=True)
class Go:
    """Leave any text box and detail screen (Escape), then the area's number key."""

    mode: str


@dataclass(frozen=True)
class Settle:
    """Wait until the requests the last key started have answered and, if given, until
    ``check`` holds (real time; at most ``timeout`` seconds for the check)."""

    check: Check | None = None
    timeout: float = 3.0


@dataclass(frozen=True)
class When:
    """Do ``actions`` only if ``check`` holds now."""

    check: Check
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Needs:
    """Unless ``check`` holds, bring it about with ``actions``, typed without pauses."""

    check: Check
    actions: tuple[Action, ...]


Action = Press | Bound | Type | Go | Settle | When | Needs
Caption = Callable[["ExplorerHost"], str]


@dataclass(frozen=True)
class Scene:
    """One stop of the tour: its title, its caption, its keys, then time to look."""

    title: str
    caption: Caption
    actions: tuple[Action, ...]
    dwell: float = 5.0  # seconds to read the result once the keys are done


def live(host: ExplorerHost, operation: str) -> str:
    """``N cr live``: what ``operation`` costs on the service (the client's price table)."""
    return f"{credits_text(price_of(host, operation))} live"


# --- what must be on screen ------------------------------------------------------


def feed_shown(app: App[Any]) -> bool:
    """Events is on screen with a feed searched."""
    from creditscope.tui.screens.events import EventsScreen

    screen = app.screen
    return isinstance(screen, EventsScreen) and screen.search_request is not None


def results_shown(app: App[Any]) -> bool:
    """The restaurant search is on screen with results, the cursor in them."""
    from creditscope.tui.screens.restaurants.results_table import RestaurantResults
    from creditscope.tui.screens.restaurants.search_screen import RestaurantsScreen

    return (isinstance(app.screen, RestaurantsScreen)
            and isinstance(app.focused, RestaurantResults) and app.focused.row_count > 0)


def restaurant_open(app: App[Any]) -> bool:
    """A restaurant (overview, menu, reviews) is on screen."""
    from creditscope.tui.screens.restaurants.restaurant_screen import RestaurantScreen

    return isinstance(app.screen, RestaurantScreen)


def part_decided(pane_id: str) -> Check:
    """The tab ``pane_id`` either came from the cache or offers its priced button."""

    def check(app: App[Any]) -> bool:
        from creditscope.tui.screens.restaurants.restaurant_screen import RestaurantScreen

        screen = app.screen
        return isinstance(screen, RestaurantScreen) and (screen.part(pane_id).requested
                                                         or offered(app))

    return check


def offered(app: App[Any]) -> bool:
    """A priced button has the cursor: Enter would buy what it says."""
    from creditscope.tui.widgets.price_button import PriceButton

    return isinstance(app.focused, PriceButton)


def in_text_box(app: App[Any]) -> bool:
    """The cursor is in a text box (``/`` put it there)."""
    from creditscope.tui.key_costs import is_text_box

    return is_text_box(app.focused)


# --- the scenes ------------------------------------------------------------------

SEARCH_EVENTS: tuple[Action, ...] = (
    Go("events"), Press(("slash",)), Settle(in_text_box), Type("Lisbon"), Press(("enter",)),
    Settle(),
)
SEARCH_RESTAURANTS: tuple[Action, ...] = (
    Go("restaurants"), Press(("slash",)), Settle(in_text_box), Type("Lisbon"),
    Press(("enter",)), Settle(results_shown),
)
OPEN_RESTAURANT: tuple[Action, ...] = (
    Needs(results_shown, SEARCH_RESTAURANTS), Press(("down",)), Press(("enter",)),
    Settle(restaurant_open),
)


def _tab(pane_id: str, binding_id: str, key: str) -> tuple[Action, ...]:
    """A restaurant's tab: its letter (free), then Enter on its priced button if offered."""
    return (
        Needs(restaurant_open, OPEN_RESTAURANT),
        Bound(binding_id, key, pace=2.5), Settle(part_decided(pane_id)),
        When(offered, (Press(("enter",)), Settle())),
    )


def _activity_caption(host: ExplorerHost) -> str:
    records = host.client.ledger.session_records if host.client is not None else []
    spent = sum(record.credits_charged for record in records)
    calls = len(records)
    return (f"Every call of this session: price, cache, headers, raw answer. So far {calls} "
            f"call{'s' if calls != 1 else ''}, {credits_text(spent)}: {SANDBOX_CREDITS}.")


def in_dialog(app: App[Any]) -> bool:
    """A dialog (Import request, the provider form) is open over the area."""
    from textual.screen import ModalScreen

    return isinstance(app.screen, ModalScreen)


def endpoint_open(app: App[Any]) -> bool:
    """An endpoint of the catalog is on screen."""
    from creditscope.tui.screens.endpoint import EndpointScreen

    return isinstance(app.screen, EndpointScreen)


# What the header's credits are on the sandbox: counted as live ones would be, never billed.
SANDBOX_CREDITS = "sandbox credits, not billed"

# Captions fit two rows of an 80-column terminal (tests/tui/test_demo_tour.py holds them).
SCENES: tuple[Scene, ...] = (
    Scene(
        "Events",
        lambda host: ("Type a city, press Enter: its events on the map and in the feed. "
                      f"A search is {live(host, 'ticketing/discovery')}; here, "
                      f"{SANDBOX_CREDITS}."),
        SEARCH_EVENTS,
    ),
    Scene(
        "The feed",
        lambda host: ("↓ walks the feed; the map and the details follow, free. Ctrl+L "
                      f"loads the next page: {live(host, 'ticketing/discovery')}."),
        (Needs(feed_shown, SEARCH_EVENTS), Bound("events.feed", "f"),
         Press(("down",) * 4, pace=1.0), Bound("events.more", "ctrl+l"), Settle(),
         Press(("down",) * 2, pace=1.0)),
    ),
    Scene(
        "Company lookup",
        lambda host: ("A name and website give the company's page: graded matches, and "
                      f"why. A lookup is {live(host, 'professional_network/find_company')}."),
        (Go("company"), Press(("slash",)), Settle(in_text_box), Type("Microsoft"),
         Press(("tab",), pace=0.4), Type("microsoft.com"), Press(("enter",)), Settle(),
         Press(("down", "down"), pace=1.5)),
    ),
    Scene(
        "Restaurants",
        lambda host: (f"Restaurants near Lisbon, nearest first: "
                      f"{live(host, 'restaurants/search')}. The same search again is free, "
                      "from the cache."),
        SEARCH_RESTAURANTS,
    ),
    Scene(
        "One restaurant",
        lambda host: ("Enter opens the highlighted restaurant: "
                      f"{live(host, 'restaurants/details')}. Each tab says its price before "
                      "you open it."),
        OPEN_RESTAURANT,
    ),
    Scene(
        "The menu",
        lambda host: ("M opens the Menu tab. Letters never spend: a tab not fetched yet "
                      f"offers a priced button; Enter buys it: {live(host, 'restaurants/menu')}."),
        _tab("menu", "restaurants.menu", "m"),
    ),
    Scene(
        "Reviews",
        lambda host: ("R opens the reviews the same way: "
                      f"{live(host, 'restaurants/reviews')}, then free from the cache."),
        _tab("reviews", "restaurants.reviews", "r"),
    ),
    Scene(
        "Catalog",
        lambda host: ("Every provider and endpoint with its price, from the service's "
                      f"public catalog ({credits_text(price_of(host, 'catalog'))} to read)."),
        (Go("catalog"), Settle(), Press(("down",) * 3, pace=1.0)),
    ),
    Scene(
        "Try it",
        lambda host: ("Enter shows an endpoint's parameters and an example; T (Try it) fills "
                      "its form, unsent. Here: asking for a new site, free."),
        (Go("catalog"), Press(("slash",)), Settle(in_text_box), Type("provider-requests"),
         Press(("escape", "enter")), Settle(endpoint_open), Bound("endpoint.try", "t"),
         Settle(in_dialog), Type("Trailforks"), Press(("tab",), pace=0.4),
         Type("https://www.trailforks.com")),
    ),
    Scene(
        "Import request",
        lambda host: ("I imports what a customer sent (curl, URL, JSON, HAR file): it opens "
                      "in its area, filled in and priced, unsent."),
        # The catalog's filter, left at "provider-requests" by Try it, is emptied first.
        (Go("catalog"), Press(("slash", "ctrl+u", "escape"), pace=0.3),
         Bound("screen.import_request", "i"), Settle(in_dialog),
         Type("curl '/restaurants/search?location=Porto'", pace=0.05)),
    ),
    Scene(
        "Activity",
        _activity_caption,
        (Go("activity"), Settle(), Press(("down",) * 3, pace=1.5)),
        dwell=6.0,
    ),
    Scene(
        "Usage",
        lambda host: (f"Credits per endpoint, this session and before ({SANDBOX_CREDITS}). "
                      "D switches per hour / per day."),
        (Go("usage"), Settle(), Bound("usage.toggle_period", "d", pace=2.0)),
    ),
    Scene(
        "Your turn",
        lambda host: ("That was the tour. Press any key to take over: all of it spends "
                      f"{SANDBOX_CREDITS}. F2 plays the tour again."),
        (),
        dwell=6.0,
    ),
)
