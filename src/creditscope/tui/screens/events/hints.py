"""What the Events area says before and instead of results, and which box a refused
field is marked on."""

from __future__ import annotations

START_HINT = "Type a city or 'lat, lng', then Enter; or pick a point on the map."
EMPTY_START = (
    "No search yet. Events near your point appear here, numbered like the markers on the map."
)
EMPTY_FEED = "No events here: try a city, or pick a point closer to one on the map."
# A refused field -> the box that holds it.
INVALID_FIELDS = {
    "location": "#events-location", "lat": "#events-location", "lng": "#events-location",
    "limit": "#events-limit",
}
