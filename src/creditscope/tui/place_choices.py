"""Which of several same-name places the user means, remembered between runs.

"Valencia" is a city in Venezuela (the largest), Spain, the United States and
Ecuador. The location boxes of Events and Restaurants complete a plain name to
the remembered choice (else the largest), and ``Ctrl+O`` ("other place") steps
through the namesakes, largest first, writing "Valencia, ES" in the box and
remembering it. Choices live in ``<data dir>/place-choices.json`` (0600): the
folded name -> the gazetteer key ("valencia" -> "valencia_es").
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from creditscope.private_files import write_private
from creditscope.text_folding import fold
from creditscope.web_demo import web_demo_active

if TYPE_CHECKING:
    from textual.widgets import Input

    from creditscope.gazetteer import City, Gazetteer
    from creditscope.tui.host import ExplorerHost

FILE_NAME = "place-choices.json"


class PlaceChoices:
    """The user's choices among namesakes; read once, written on each choice."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._keys: dict[str, str] = {}
        if path is not None and path.exists():
            try:
                loaded = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                loaded = {}  # unreadable: start afresh, the next choice rewrites it
            if isinstance(loaded, dict):
                self._keys = {str(k): str(v) for k, v in loaded.items()}

    def preferred(self, text: str, gazetteer: Gazetteer | None = None) -> City | None:
        """The remembered place for a plain name (``"valencia"``), if any."""
        key = self._keys.get(_plain(text))
        return None if key is None else _places(gazetteer).by_key(key)

    def remember(self, text: str, city: City, gazetteer: Gazetteer | None = None) -> None:
        """From now on, the plain name ``text`` means ``city``."""
        self._keys[_plain(text)] = _places(gazetteer).key(city)
        if self.path is not None:
            # Unwritable: remembered for this run; the file is a convenience.
            with contextlib.suppress(OSError):
                write_private(self.path, json.dumps(self._keys, indent=1, sort_keys=True))

    def namesakes(self, text: str, gazetteer: Gazetteer | None = None) -> list[City]:
        """Every place answering to the plain name in ``text``, largest first."""
        return _places(gazetteer).alternatives(_plain_name(text))

    def next_place(self, text: str, gazetteer: Gazetteer | None = None) -> City | None:
        """The namesake after the one ``text`` names now (wrapping), remembered; None
        when the name has no namesakes."""
        places = _places(gazetteer)
        options = self.namesakes(text, places)
        if len(options) < 2:
            return None
        current = places.resolve(text)
        index = options.index(current) if current in options else -1
        chosen = options[(index + 1) % len(options)]
        self.remember(text, chosen, places)
        return chosen


def _places(gazetteer: Gazetteer | None) -> Gazetteer:
    """``gazetteer``, else the shared one (imported on use: the first frame does without)."""
    from creditscope.gazetteer import load_gazetteer

    return gazetteer or load_gazetteer()


def _plain_name(text: str) -> str:
    """``"Valencia, ES"`` -> ``"Valencia"``."""
    return text.split(",")[0].strip()


def _plain(text: str) -> str:
    return fold(_plain_name(text))


def choices_for(data_dir: Path | None) -> PlaceChoices:
    """The choices file in ``data_dir`` (None: remembered for this run only)."""
    return PlaceChoices(None if data_dir is None else data_dir / FILE_NAME)


_BY_APP: WeakKeyDictionary[object, PlaceChoices] = WeakKeyDictionary()


def choices_of(host: ExplorerHost) -> PlaceChoices:
    """The explorer's choices (made on first use, in the settings' data directory; for
    this run only in a ``creditscope web`` tab, whose visitor writes no file of the
    presenter's and reads none of their choices)."""
    found = _BY_APP.get(host)
    if found is None:
        try:
            data_dir: Path | None = None if web_demo_active() else host.settings.data_dir
        except Exception:  # settings not loaded yet: remember for this run only
            data_dir = None
        found = _BY_APP[host] = choices_for(data_dir)
    return found


def resolved_text(host: ExplorerHost, text: str) -> str:
    """What a location box means: a plain name with a remembered choice becomes that
    place's label ("Valencia" -> "Valencia, ES", "Springfield" -> "Springfield, Illinois, US");
    anything else stays as typed."""
    if "," in text or not text.strip():
        return text
    chosen = choices_of(host).preferred(text)
    return chosen.full_label if chosen is not None else text


def namesake_hint(host: ExplorerHost, text: str) -> str:
    """``"also Springfield, Massachusetts, US, Springfield, Illinois, US, … (^o: another)"``,
    or ""."""
    from creditscope.place_check import check_place

    checked = check_place(resolved_text(host, text))
    if checked.city is None:
        return ""
    others = [c for c in choices_of(host).namesakes(text) if c != checked.city]
    if not others:
        return ""
    # With their states: "Springfield, US" three times would tell them nothing.
    labels = [c.full_label for c in others[:3]] + (["…"] if len(others) > 3 else [])
    return f"also {', '.join(labels)} (^o: another)"


def complete_to_choices(box: Input, host: ExplorerHost) -> None:
    """Let ``box``'s city completion offer the remembered namesake ("Valencia, ES")."""
    from creditscope.tui.city_suggester import CitySuggester

    if isinstance(box.suggester, CitySuggester):
        box.suggester.remembered = lambda text: resolved_text(host, text)
