"""Is a location one the service can search? Asked before anything is sent.

Events, Restaurants and ``creditscope batch`` all ask here, so an unknown place
is refused the same way everywhere: free, with the closest names the gazetteer
knows. The sandbox resolves locations with the same gazetteer, so a place it
cannot find would only have bought "nothing found"; a live service may know
more, so callers offer to send anyway after saying why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from creditscope.text_folding import fold

if TYPE_CHECKING:  # the gazetteer is imported on use: the explorer's first frame does without
    from creditscope.gazetteer import City, Gazetteer

SHOWN_MAX = 40  # characters of the typed text a refusal repeats
EXAMPLE = "a city such as 'Lisbon' or coordinates such as '38.72, -9.14'"


@dataclass(frozen=True)
class PlaceCheck:
    """What the gazetteer makes of a typed location."""

    text: str
    city: City | None  # None: not a place the gazetteer knows
    suggestions: tuple[City, ...] = ()
    # Other places of the same name, most populous first ("Valencia" -> Valencia, ES;
    # Valencia, US; Valencia, EC besides the chosen Valencia, VE). A UI offers them;
    # choosing one means sending its ``label`` ("Valencia, ES"), and remembering the
    # choice means keeping its ``Gazetteer.key`` ("valencia_es"), which ``check_place``
    # and ``Gazetteer.resolve`` take back as exactly that place.
    alternatives: tuple[City, ...] = ()

    @property
    def ambiguous(self) -> bool:
        """True when other places answer to the same name."""
        return bool(self.alternatives)

    @property
    def alternatives_note(self) -> str:
        """"Valencia, VE; also Valencia, ES, Valencia, US or Valencia, EC." ("" when
        the name is not ambiguous)."""
        if self.city is None or not self.alternatives:
            return ""
        return f"{self.city.label}; also {_names(self.alternatives)}."

    @property
    def known(self) -> bool:
        """True when the location resolves to a place (or is a point)."""
        return self.city is not None

    @property
    def message(self) -> str:
        """Why nothing was sent, and what to type instead ("" for a known place)."""
        if self.known:
            return ""
        shown = self.text.strip()
        if not shown:
            return f"Type a place first: {EXAMPLE}."
        if len(shown) > SHOWN_MAX:  # a pasted page is not repeated back
            shown = shown[:SHOWN_MAX] + "…"
        hint = f"Did you mean {_names(self.suggestions)}? " if self.suggestions else ""
        return (f"No place called '{shown}' is known, so nothing was sent or charged. "
                f"{hint}Try {EXAMPLE}.")


def _names(cities: tuple[City, ...]) -> str:
    labels = [city.full_label for city in cities]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


def _places(gazetteer: Gazetteer | None) -> Gazetteer:
    from creditscope.gazetteer import load_gazetteer

    return gazetteer or load_gazetteer()


def is_known_place(text: str, gazetteer: Gazetteer | None = None) -> bool:
    """True when ``text`` names a place (cheap: for a label updated on every key)."""
    return bool(text.strip()) and _places(gazetteer).resolve(text) is not None


def place_named(text: str, gazetteer: Gazetteer | None = None) -> City | None:
    """The place ``text`` names, or None (as cheap as :func:`is_known_place`)."""
    return _places(gazetteer).resolve(text) if text.strip() else None


def check_place(text: str, gazetteer: Gazetteer | None = None, *, limit: int = 3) -> PlaceCheck:
    """The place ``text`` names, or the closest names when there is none."""
    places = _places(gazetteer)
    city = places.resolve(text) if text.strip() else None
    if city is not None:
        others = tuple(c for c in places.alternatives(text) if c != city)
        return PlaceCheck(text, city, alternatives=others)
    return PlaceCheck(text, None, tuple(closest_places(text, places, limit=limit)))


def closest_places(text: str, gazetteer: Gazetteer, *, limit: int = 3) -> list[City]:
    """Up to ``limit`` cities whose names look most like ``text`` (typos, missing accents)."""
    from rapidfuzz import fuzz, process  # imported on use: not needed for a known place

    head = fold(text.split(",")[0])
    if not head:
        return []
    names = gazetteer.names()
    matches = process.extract(head, names, scorer=fuzz.ratio, limit=limit * 4,
                              score_cutoff=75)
    found: list[City] = []
    for name, _score, _index in matches:
        for city in gazetteer.named(name)[:1]:  # the most populous of the namesakes
            if city not in found:
                found.append(city)
    return found[:limit]


# Operations whose ``location`` the sandbox resolves with this gazetteer.
PLACE_OPERATIONS = frozenset({"restaurants/search"})
ALLOW_UNKNOWN_PLACE = "--allow-unknown-place"


def place_refusal(operation: str, params: Mapping[str, Any]) -> str | None:
    """Why a request for a place the gazetteer does not know is not sent (it would be
    charged for "nothing found"), or None to send it. The text names the opt-in."""
    location = params.get("location") if operation in PLACE_OPERATIONS else None
    if not isinstance(location, str):
        return None
    message = _unknown_place_message(location)
    if message is None:
        return None
    return (f"{message} A live service may know places this list does not:"
            f" {ALLOW_UNKNOWN_PLACE} sends it anyway.")


@lru_cache(maxsize=1024)
def _unknown_place_message(location: str) -> str | None:
    """The check's message for an unknown place, None for a known one (cached: a batch
    asks for the same places again and again)."""
    check = check_place(location)
    return None if check.known else check.message
