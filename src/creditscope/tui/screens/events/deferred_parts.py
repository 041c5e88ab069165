"""What the Events screen mounts once the first frame is on the terminal: the map, the
detail panel, the feed and its summary row. The explorer opens on Events, so its first
frame holds placeholders with the same ids and look (see the screen's docstring), and
these modules are imported only now."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.widget import MountError
from textual.widgets import Static

from creditscope.tui.screens.events.offers import OPERATION
from creditscope.tui.widgets.price_button import PriceButton

if TYPE_CHECKING:
    from creditscope.tui.screens.events.screen import EventsScreen


async def mount_the_rest(screen: EventsScreen) -> None:
    """Swap the placeholders for the map and the detail panel, add the feed, and start
    on the map (number keys still switch areas)."""
    from creditscope.tui.screens.events.event_detail import EventDetail
    from creditscope.tui.screens.events.feed_table import EventFeedTable
    from creditscope.tui.widgets.event_map import EventMap

    top = screen.query_one("#events-top", Horizontal)
    if isinstance(top.children[0], EventMap):
        return
    # One batch: no frame shows the row half swapped (the panels would jump).
    with screen.app.batch_update():
        try:
            await top.remove_children()
            await top.mount(EventMap(id="events-map"), EventDetail(id="events-detail"))
            await screen.results.mount_content(
                Horizontal(Static("", id="events-summary"),
                           PriceButton("Load more", operation=OPERATION, id="events-more",
                                       compact=True, disabled=True),
                           id="events-summary-row"),
                EventFeedTable(id="events-feed"),
            )
        except MountError:
            if screen.is_attached and top.is_attached:
                raise
            return  # the explorer closed meanwhile (e.g. an unusable setting)
    if screen.focused is None:  # unless the user already moved on (e.g. pressed /)
        screen.event_map.focus()
