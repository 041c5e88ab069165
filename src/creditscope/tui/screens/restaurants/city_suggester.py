"""Place-name completion for the location box, from the shipped gazetteer."""

from __future__ import annotations

import asyncio

from textual.suggester import Suggester

from creditscope.gazetteer import Gazetteer, fold, load_gazetteer


class CitySuggester(Suggester):
    """Completes a prefix to the most populous matching city: ``"lis"`` -> ``"Lisbon, PT"``."""

    def __init__(self) -> None:
        super().__init__(use_cache=True, case_sensitive=False)
        self._gazetteer: Gazetteer | None = None

    async def gazetteer(self) -> Gazetteer:
        """The gazetteer, read off the event loop on first use (it takes a moment)."""
        if self._gazetteer is None:
            self._gazetteer = await asyncio.to_thread(load_gazetteer)
        return self._gazetteer

    async def get_suggestion(self, value: str) -> str | None:
        """The best city for ``value``; None once the user has typed past a name (", PT")."""
        if len(value.strip()) < 2 or "," in value:
            return None
        gazetteer = await self.gazetteer()
        typed = fold(value)
        for city in gazetteer.suggest(value, limit=8):
            # The input shows the suggestion's tail after what was typed, so it must
            # start with the typed text letter for letter (accents aside).
            for name in (city.name, city.ascii_name):
                if fold(name[: len(value)]) == typed and len(name) >= len(value):
                    return f"{name}, {city.country_code}"
        return None
