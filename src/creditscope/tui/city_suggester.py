"""Place-name completion for the location boxes of Events and Restaurants."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.suggester import Suggester

from creditscope.geo import parse_point
from creditscope.text_folding import fold

if TYPE_CHECKING:  # the gazetteer is read on the first suggestion, in a thread
    from creditscope.gazetteer import Gazetteer

EXACT_NAME_ODDS = 20  # an exact name loses only to a prefix match 20 times its size


class CitySuggester(Suggester):
    """Completes a city name, most populous first: ``lis`` -> ``Lisbon, PT``.

    Taking the completion writes the city's own spelling; a city typed in full stays
    itself: ``Porto`` -> ``Porto, PT``, not the larger Porto Alegre."""

    def __init__(self, gazetteer: Gazetteer | None = None) -> None:
        super().__init__(use_cache=False, case_sensitive=False)  # a choice changes answers
        self._gazetteer = gazetteer
        self.remembered: Callable[[str], str] | None = None
        """Set by the screen: a plain name -> the remembered namesake's label."""

    async def gazetteer(self) -> Gazetteer:
        """The gazetteer, read off the event loop on first use (it takes a moment)."""
        if self._gazetteer is None:
            from creditscope.gazetteer import load_gazetteer

            self._gazetteer = await asyncio.to_thread(load_gazetteer)
        return self._gazetteer

    async def get_suggestion(self, value: str) -> str | None:
        """``value`` completed to ``Name, CC``; None for a point, a country already
        typed (", PT") or no match."""
        if len(value.strip()) < 2 or "," in value or parse_point(value) is not None:
            return None
        gazetteer = await self.gazetteer()
        typed = fold(value)
        if self.remembered is not None:
            chosen = self.remembered(value)
            if chosen != value and fold(chosen.split(",")[0]) == typed:
                return chosen
        exact = gazetteer.resolve(value)
        if exact is not None and fold(exact.name) == typed:
            prefixed = gazetteer.suggest(value, limit=1)
            if not prefixed or exact.population * EXACT_NAME_ODDS >= prefixed[0].population:
                return exact.label
        for city in gazetteer.suggest(value, limit=8):
            for name in (city.name, city.ascii_name):
                if len(name) >= len(value) and fold(name[: len(value)]) == typed:
                    return f"{name}, {city.country_code}"
        return None
