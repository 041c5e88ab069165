"""The Events area: search a place, see its events on a world map and in a feed, read one.

Data flow: location text -> :func:`parse_location` (free, local) -> a
``ticketing/discovery`` call through the shared :class:`ResultArea` -> the feed
table, the map's markers and the summary line. A click (or Enter) on the map
picks a point for the form; the Search button then says what searching costs.
Start-up: this screen is the first the explorer shows, so its first frame holds only
what is seen at once: the form, the hint, the map's and the detail panel's frames
(placeholders) and the empty feed's text. The map, the detail panel and the feed
(hidden until a search) are imported and mounted right after that frame
(``_mount_the_rest``), and look the same once they are.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Input, Static

from creditscope.client.records import CallRecord
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.place_choices import complete_to_choices, namesake_hint, resolved_text
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.screens.events.feed_summary import (
    describe_point,
    feed_summary,
    venue_markers,
)
from creditscope.tui.screens.events.formatting import point_text, viewer_zone
from creditscope.tui.screens.events.hints import (
    DETAIL_PLACEHOLDER,
    EMPTY_FEED,
    INVALID_FIELDS,
    SAMPLE_PLACE,
    START_HINT,
)
from creditscope.tui.screens.events.location_input import (
    LocationError,
    LocationInput,
    SearchPoint,
    parse_limit,
    parse_location,
)
from creditscope.tui.screens.events.offers import (
    OPERATION,
    event_commands,
    events_operation,
    export_feed,
    first_visit,
    follow_first_visit,
    start_text,
)
from creditscope.tui.textual_patch import after_first_frame
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    # EventFeed: annotations only, so pydantic stays out of the first frame; the map,
    # the detail panel and the feed: imported once the first frame is up (_mount_the_rest).
    from creditscope.models import EventFeed
    from creditscope.tui.screens.events.event_detail import EventDetail
    from creditscope.tui.screens.events.feed_table import EventFeedTable
    from creditscope.tui.widgets.event_map import EventMap

DEFAULT_LIMIT = 20


class EventsScreen(AreaScreen):
    """Events near a point: a location form, the map, the feed and the selected event."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_main", "Location", id="events.location"),
        # Keys that spend are never letters (see AreaScreen): Enter searches the typed place.
        Binding("ctrl+l", "load_more", "Load more", id="events.more"),
        Binding("ctrl+r", "refresh", "Refresh", id="events.refresh"),
        # Moving the cursor (Tab does too): in help, not in the crowded footer.
        Binding("m", "focus_map", "Map", show=False, id="events.map"),
        Binding("f", "focus_feed", "Feed", show=False, id="events.feed"),
        Binding("o", "open_page", "Open page", id="events.open"),
        Binding("c", "copy_url", "Copy URL", id="events.copy"),
        Binding("e", "export", "Export", id="events.export"),
    ]
    SPENDING_KEYS: ClassVar[dict[str, str]] = {  # each key says what its button says
        "events.more": "#events-more", "events.refresh": "#events-refresh",
    }
    MAIN_FIELD = "#events-location"
    PLACE_BOX = True

    # Nothing is focused until the map is mounted (number keys switch areas meanwhile);
    # later, a screen left with nothing focused comes back on the map, not in a text box.
    AUTO_FOCUS = "EventMap"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.point: SearchPoint | None = None  # the point of the feed on screen
        self.search_request: CallRequest[EventFeed] | None = None  # its first page, for Refresh
        self.next_request: CallRequest[EventFeed] | None = None  # the following page, for Load more
        self.pages = 0
        self._has_feed = False  # a search answered: Refresh has something to refresh

    def compose_body(self) -> ComposeResult:
        """Form, hint, map beside the detail panel, then the feed."""
        with Horizontal(id="events-form", classes="compact-form"):
            yield labelled(LocationInput(id="events-location"), "Location")
            yield labelled(TextInput(str(DEFAULT_LIMIT), id="events-limit", type="integer",
                                     max_length=2, tooltip="Events per page: 1 to 50"),
                           "Per page (1-50)")
            # A one-line box has no title: there the number says what it counts.
            yield Static("per page", id="events-limit-unit", classes="field-unit")
            yield PriceButton("Search", operation=OPERATION, id="events-search", variant="primary")
            # Shown once there is a feed to refresh (as the footer's ^r): before a search
            # it only offered a price for nothing.
            refresh = PriceButton("Refresh", operation=OPERATION, refresh=True,
                                  id="events-refresh")
            refresh.display = False
            yield refresh
        yield Static(START_HINT, id="events-hint")
        with Horizontal(id="events-top"):
            # The map's frame, empty, and the detail panel's frame and text: the same ids,
            # so the same look; _mount_the_rest swaps the real ones in after frame 1.
            yield Static(id="events-map")
            yield Static(DETAIL_PLACEHOLDER, id="events-detail")
        # The feed and its summary line join after frame 1 (hidden until a search).
        yield ResultArea(
            empty=start_text(self),
            id="events-results",
            fields=INVALID_FIELDS,
            focus_invalid=False,  # the hint says what to fix; the map keeps the cursor
        )

    def on_mount(self) -> None:
        """Paint the first frame without the map, then mount it (see the module docstring)."""
        # Nothing has focus yet, so nothing would tell the Footer to show its keys:
        # ask now, so they are in the first frame rather than after the map.
        self.refresh_bindings()
        complete_to_choices(self.location_input, host_of(self))
        after_first_frame(self, self._mount_the_rest)
        follow_first_visit(self)
        signals = host_of(self).signals
        signals.connection_changed.subscribe(self, lambda _: self._offer_refresh())
        signals.client_ready.subscribe(self, lambda _: self._offer_refresh())

    def _offer_refresh(self) -> None:
        """Refresh once there is a feed to refresh, and never offline: there it could only
        say "offline", and its long label squeezed the location box out of sight."""
        self.query_one("#events-refresh", PriceButton).display = self._refresh_offered()
        self.refresh_bindings()  # ^r follows the button

    def _refresh_offered(self) -> bool:
        """A feed on screen to refresh, and a service to refresh it from."""
        client = host_of(self).client
        return self._has_feed and not (client is not None and client.offline)

    def on_unmount(self) -> None:
        """Stop following the app (it would keep this screen alive)."""
        host_of(self).signals.unsubscribe(self)

    async def _mount_the_rest(self) -> None:
        """The map, the detail panel and the feed, after the first frame (deferred_parts)."""
        from creditscope.tui.screens.events.deferred_parts import mount_the_rest

        await mount_the_rest(self)

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Search, load more, refresh (with their prices) and export."""
        return event_commands(self)

    # --- the form ------------------------------------------------------------------

    @property
    def location_input(self) -> LocationInput:
        """The location box."""
        return self.query_one("#events-location", LocationInput)

    @property
    def results(self) -> ResultArea:
        """The area that runs the calls and shows their states."""
        return self.query_one("#events-results", ResultArea)

    @property
    def feed_table(self) -> EventFeedTable:
        """The feed table (mounted right after the first frame)."""
        from creditscope.tui.screens.events.feed_table import EventFeedTable

        return self.query_one("#events-feed", EventFeedTable)

    @property
    def detail(self) -> EventDetail:
        """The selected event's panel (mounted right after the first frame)."""
        from creditscope.tui.screens.events.event_detail import EventDetail

        return self.query_one("#events-detail", EventDetail)

    @property
    def event_map(self) -> EventMap:
        """The map (mounted right after the first frame)."""
        from creditscope.tui.widgets.event_map import EventMap

        return self.query_one("#events-map", EventMap)

    def _hint(self, text: str, *, error: bool = False) -> None:
        hint = self.query_one("#events-hint", Static)
        hint.update(text)
        hint.set_class(error, "-error")

    def _form(self) -> tuple[SearchPoint, int]:
        """The typed point and limit, or LocationError naming the box to fix."""
        limit_text = self.query_one("#events-limit", Input).value or str(DEFAULT_LIMIT)
        typed = resolved_text(host_of(self), self.location_input.value)
        return parse_location(typed), parse_limit(limit_text)

    @on(Input.Changed, "#events-location")
    @on(Input.Changed, "#events-limit")
    def _typed(self) -> None:
        """Preview where the search goes and whether it is cached; errors wait for Enter."""
        self.results.mark_field(None)
        try:
            point, limit = self._form()
        except LocationError as error:
            typed = self.location_input.value.strip()
            self._hint("Keep typing: a city name, or 'lat, lng'." if typed else START_HINT)
            # The button must not keep the last good place's price (or "cached · free").
            self.query_one("#events-search", PriceButton).blocked = (
                ("unknown place" if error.field == "location" else "check the limit")
                if typed else "type a place")
            return
        zone = f" · {point.city.timezone}" if point.city else ""
        also = namesake_hint(host_of(self), self.location_input.value)
        self._hint(f"→ {point.label} · {point_text(point.lat, point.lng)}{zone}"
                   + (f" · {also}" if also else ""))
        self.refresh_bindings()  # ^o Other place, when the name has namesakes
        search = self.query_one("#events-search", PriceButton)
        search.params = self._params(point, limit)
        search.blocked = None

    @on(Input.Submitted, "#events-location")
    def _location_submitted(self) -> None:
        if first_visit(self) and not self.location_input.value.strip():
            self.location_input.value = SAMPLE_PLACE  # the offer on screen: its price is there
        self.action_search()

    @on(Input.Submitted, "#events-limit")
    def _submitted(self) -> None:
        self.action_search()

    @on(Button.Pressed, "#events-search")
    def _search_pressed(self) -> None:
        self.action_search()

    @on(Button.Pressed, "#events-refresh")
    def _refresh_pressed(self) -> None:
        self.action_refresh()

    @on(Button.Pressed, "#events-more")
    def _more_pressed(self) -> None:
        self.action_load_more()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Refresh once there is a feed, Load more while it has another page."""
        offered = {"refresh": self.search_request if self._refresh_offered() else None,
                   "load_more": self.next_request}
        if action in offered:
            return offered[action] is not None
        return super().check_action(action, parameters)

    @staticmethod
    def _params(point: SearchPoint, limit: int) -> dict[str, Any]:
        return {"lat": round(point.lat, 4), "lng": round(point.lng, 4), "limit": limit}

    # --- actions -------------------------------------------------------------------

    def action_search(self, *, refresh: bool = False) -> None:
        """Search the typed place; a local mistake is explained and nothing is sent."""
        try:
            point, limit = self._form()
        except LocationError as error:
            self._hint(f"✖ {error}", error=True)
            self.results.mark_field(error.field)  # the same outline as a refusal's
            return
        request = CallRequest(
            events_operation(),
            self._params(point, limit),
            refresh=refresh,
            label=f"events near {point.label}",
        )
        if not self.results.run(request):  # not sent (its notice says why): nothing moves
            self._hint(f"Not sent: Enter to search near {describe_point(point)}.")
            return
        self._hint(f"Searching near {describe_point(point)}…")
        self.point = point
        self.event_map.search_point = (point.lat, point.lng)
        self.search_request = request

    def action_refresh(self) -> None:
        """Fetch the current feed's first page again, past the cache (costs credits)."""
        if self.search_request is None:
            self.action_search(refresh=True)
            return
        self.results.run(self.search_request.refreshed())

    def action_load_more(self) -> None:
        """Fetch the next page of the feed (follows the cursor)."""
        if self.next_request is None:
            if self.search_request is not None:
                self.notify("This is the last page of the feed.", title="No more events")
            return
        self.query_one("#events-more", PriceButton).disabled = True
        self.results.run(self.next_request)

    def fill_request(self, operation: str, params: dict[str, Any]) -> bool:
        """Fill the form from an imported request (a point and a page size); sends nothing."""
        if operation != OPERATION or "cursor" in params:
            return False
        self.location_input.value = f"{params.get('lat', '')}, {params.get('lng', '')}"
        self.query_one("#events-limit", Input).value = str(params.get("limit") or DEFAULT_LIMIT)
        self.query_one("#events-search", PriceButton).focus()
        return True

    def action_focus_map(self) -> None:
        """Focus the map (arrows pan, +/- zoom, Enter picks its centre for the form)."""
        self.event_map.focus()

    def action_focus_feed(self) -> None:
        """Focus the feed table."""
        self.feed_table.focus()

    def action_open_page(self) -> None:
        """Open the selected event's page in the browser (or copy it if there is none)."""
        self.detail.open_page()

    def action_copy_url(self) -> None:
        """Copy the selected event's URL."""
        self.detail.copy_url()

    def action_export(self) -> None:
        """Write every event of the feed, as shown, to CSV or JSON (free)."""
        export_feed(self)

    # --- results -------------------------------------------------------------------

    @on(ResultArea.Succeeded, "#events-results")
    def _feed_arrived(self, message: ResultArea.Succeeded) -> None:
        answer = message.answer(events_operation())
        feed = answer.data
        appending = "cursor" in message.request.params
        table = self.feed_table
        if appending:
            table.add_events(feed.events)
            self.pages += 1
        else:
            self.pages = 1
            table.show_events(feed.events)
            self.detail.clear()
            self._has_feed = True
            self._offer_refresh()
        cursor = feed.next_cursor
        params = dict(message.request.params)
        self.next_request = (
            CallRequest(events_operation(), {**params, "cursor": cursor},
                        label="the next page of events")
            if cursor
            else None
        )
        more = self.query_one("#events-more", PriceButton)
        more.params = self.next_request.params if self.next_request else params
        more.blocked = None if self.next_request else "no more pages"
        more.disabled = self.next_request is None
        self.refresh_bindings()  # Refresh and Load more are offered now (or no longer)
        self._show_on_map(fit=not appending)
        self._summarise(feed, answer.record)
        where = describe_point(self.point) if self.point else "the point"
        if not table.events:
            self.results.show_empty(EMPTY_FEED)
            self._hint(f"No events near {where}.")
            return
        if not appending:
            self._hint(
                f"Events near {where}: select a row or marker; click the map to pick a new point."
            )
            table.focus()

    @on(ResultArea.Failed, "#events-results")
    def _failed(self, message: ResultArea.Failed) -> None:
        # The typed location stays as it was; the area outlined the field to fix.
        what = "Loading more" if "cursor" in message.request.params else "The search"
        self._hint(f"✖ {what} failed (details below); your location is kept.", error=True)
        if "cursor" in message.request.params:
            self.query_one("#events-more", PriceButton).disabled = False

    @on(ResultArea.Cancelled, "#events-results")
    def _cancelled(self) -> None:
        # Declined over the budget: the feed stays; the hint says what was not done.
        self._hint("Not sent: over the session budget. Nothing was spent; the feed is as it was.")
        self.query_one("#events-more", PriceButton).disabled = self.next_request is None

    def _summarise(self, feed: EventFeed, record: CallRecord) -> None:
        self.query_one("#events-summary", Static).update(feed_summary(
            feed, record, shown=len(self.feed_table.events), pages=self.pages,
            last_page=self.next_request is None))

    def _show_on_map(self, *, fit: bool) -> None:
        table = self.feed_table
        self.event_map.show_markers(venue_markers(table.events), table.highlighted_number, fit=fit)

    # --- selection: table <-> map <-> detail -------------------------------------------

    # Named handlers rather than @on(EventMap...): the map's and the feed's modules are
    # not imported when this class is made.
    def on_event_feed_table_event_highlighted(
        self, message: EventFeedTable.EventHighlighted
    ) -> None:
        """A feed row is highlighted: select its marker and describe the event."""
        self.event_map.selected = message.number
        now = host_of(self).clock()
        self.detail.show_event(message.event, message.number, now, viewer_zone(now))

    def on_event_map_marker_selected(self, message: EventMap.MarkerSelected) -> None:
        """A marker was clicked: select its feed row."""
        self.feed_table.select_number(message.number)

    def on_event_map_point_picked(self, message: EventMap.PointPicked) -> None:
        """A click (or Enter) on the map picks the point: the form takes it and the
        Search button, focused, says what searching there costs. Nothing is sent."""
        self.location_input.value = point_text(message.lat, message.lng)
        self.query_one("#events-search", PriceButton).focus()
