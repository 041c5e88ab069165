"""What the Events area says before and instead of results, and which box a refused
field is marked on."""

from __future__ import annotations

START_HINT = "Type a city or 'lat, lng', then Enter; or pick a point on the map."
EMPTY_START = (
    "No search yet. Events near your point appear here, numbered like the markers on the map."
)
DETAIL_PLACEHOLDER = (
    "Select an event in the feed (or its marker on the map) to see its details."
)
SAMPLE_PLACE = "Lisbon"  # Enter in the empty box of a first visit on the sandbox searches it
EMPTY_FEED = "No events here: try a city, or pick a point closer to one on the map."
# A refused field -> the box that holds it.
INVALID_FIELDS = {
    "location": "#events-location", "lat": "#events-location", "lng": "#events-location",
    "limit": "#events-limit",
}


def first_visit_offer(price: str | None) -> str:
    """The empty feed of a first visit on the sandbox: the guided tour, or a sample search
    at its live price (``price``: "N cr"; None while the client starts)."""
    # The header counts sandbox credits as it would live ones: "free" read as a contradiction.
    cost = f"{price} live; sandbox credits, not billed" if price else "sandbox credits, not billed"
    return (f"New here? Press F2 for a guided tour, or Enter to search {SAMPLE_PLACE} "
            f"({cost}).\n{EMPTY_START}")
