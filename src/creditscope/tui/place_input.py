"""``PlaceInput``: the location box of Events and Restaurants.

It completes city names (Tab or Enter takes the completion on show), and Enter sends
a completed name at once only when it means the place whose price is on screen: "Lisbon"
and "Lisbon, PT" are one place, so Enter searches; "Lisb" names none and "Pari" names
Pari, BR rather than the "Paris, FR" on show, so that Enter only completes, the button
prices the place, and the next Enter searches it.
"""

from __future__ import annotations

from typing import Any

from creditscope.place_check import place_named
from creditscope.tui.city_suggester import CitySuggester
from creditscope.tui.host import host_of
from creditscope.tui.place_choices import resolved_text
from creditscope.tui.widgets.text_input import TextInput


class PlaceInput(TextInput):
    """A text box for a place, completed from the gazetteer."""

    def __init__(self, value: str = "", **kwargs: Any) -> None:
        super().__init__(
            value, suggester=CitySuggester(), accept_suggestion_on_submit=True, **kwargs
        )

    def meaning(self, text: str) -> object | None:
        """The place ``text`` names, a remembered namesake first (as the screens price it)."""
        return place_named(resolved_text(host_of(self), text))
