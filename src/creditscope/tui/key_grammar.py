"""The key grammar: what each key means, the same in every area.

One table, read by the help screen (shown as is) and by the test that holds every
binding of the explorer to it (``tests/tui/test_key_grammar.py``): a key bound anywhere
must be in a row here, and only to the binding ids that row names, so one letter never
means two things in two areas. The README's table says the same in prose.

``q`` is in no row on purpose: letters typed where no box has the cursor go into the
area's search box, and a quit on one letter would end a session on a typo. Ctrl+Q quits.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyRule:
    """``keys`` (Textual key names) mean ``meaning``; ``binding_ids`` are its bindings."""

    shown: str
    meaning: str
    keys: tuple[str, ...]
    binding_ids: frozenset[str]


def _rule(shown: str, meaning: str, keys: str, ids: str) -> KeyRule:
    return KeyRule(shown, meaning, tuple(keys.split()), frozenset(ids.split()))


GRAMMAR: tuple[KeyRule, ...] = (
    _rule("/", "search or filter (the area's box; in a JSON pane, the JSON)", "slash",
          "screen.focus_main events.location company.focus_name restaurants.focus_search"
          " activity.filter catalog.filter json.search"),
    _rule("? F1", "help (? types in a box that holds text)", "question_mark f1",
          "app.help help.close"),
    _rule("Esc", "back: leave the box, close the dialog, back to the list", "escape",
          "screen.back compare.back endpoint.back restaurants.back label.cancel"
          " save_file.cancel confirm.cancel har_import.close import_request.close"
          " provider_form.close help.close"),
    _rule("Enter", "open the row, press the button (its price beside it)", "enter",
          "restaurants.open catalog.open_endpoint company.show_match map.pick"
          " price_button.press"),
    _rule("1-7", "switch area", "1 2 3 4 5 6 7",
          "nav.events nav.company nav.restaurants nav.catalog nav.activity nav.settings"
          " nav.usage"),
    _rule("e", "export what is listed (CSV, JSON, HAR)", "e",
          "events.export company.export restaurants.export restaurants.export_tab"
          " activity.export_har"),
    _rule("c", "copy the link or the command (URL, curl)", "c",
          "events.copy company.copy_url activity.copy_curl"),
    _rule("y", "copy the answer itself (the JSON body, the lookup report)", "y",
          "activity.copy_json company.copy_report"),
    _rule("p j", "copy the call as Python / JavaScript", "p j",
          "activity.copy_python activity.copy_js"),
    _rule("s", "sort by the next column (or click a header)", "s",
          "events.sort restaurants.sort"),
    _rule("o", "open the page in the browser", "o", "events.open"),
    _rule("i", "import a request (curl, URL, JSON, HAR file)", "i",
          "screen.import_request"),
    _rule("t", "try the endpoint (Catalog)", "t", "endpoint.try"),
    _rule("f m v r", "go to the part the letter names: feed, map; overview, menu, reviews",
          "f m v r",
          "events.feed events.map restaurants.overview restaurants.menu restaurants.reviews"),
    _rule("d", "per hour / per day (Usage)", "d", "usage.toggle_period"),
    _rule("h", "recent lookups (Company)", "h", "company.recent"),
    _rule("w", "compare two lookups (Company)", "w", "company.compare"),
    _rule("l", "label a call for a ticket (Activity)", "l", "activity.label"),
    _rule("z", "zoom the focused pane (Activity)", "z", "activity.zoom"),
    _rule("n N", "next / previous match of the JSON search", "n N",
          "json.next json.previous"),
    _rule("+ - 0 arrows", "map: zoom in, out, whole world; pan",
          "plus equals_sign minus 0 home left right up down",
          "map.zoom_in map.zoom_out map.reset map.pan_left map.pan_right map.pan_up"
          " map.pan_down"),
    _rule("Tab", "take the completion on show (else the next box)", "tab", "input.complete"),
    _rule("^z ^y", "undo / redo in a text box", "ctrl+z super+z ctrl+y super+y",
          "input.undo input.redo"),
    _rule("^r", "refresh, re-check, replay (priced: spends)", "ctrl+r",
          "events.refresh restaurants.refresh catalog.refresh company.recheck"
          " activity.replay"),
    _rule("^s", "save (Settings; a response's JSON to a file)", "ctrl+s",
          "settings.save activity.save_json"),
    _rule("^l", "load more (priced: spends)", "ctrl+l", "events.more"),
    _rule("^n", "request a new provider (Catalog)", "ctrl+n", "catalog.request_provider"),
    _rule("^o", "the other place of the same name", "ctrl+o", "screen.other_place"),
    _rule("F2", "the guided tour", "f2", "app.tour"),
    _rule("^q", "quit (q alone is a letter like any other)", "ctrl+q", "app.quit"),
)

RENAMED_BINDINGS: dict[str, str] = {
    # Old id -> the binding that now does its job: a user's remap by the old id still
    # moves that key.
    "events.sort_date": "events.sort",
    "events.sort_price": "events.sort",
}


def rule_for(key: str) -> KeyRule | None:
    """The grammar's row for the Textual key name ``key``."""
    return next((rule for rule in GRAMMAR if key in rule.keys), None)


def current_keymap(keys: dict[str, str]) -> dict[str, str]:
    """A user's ``[keys]`` table with renamed binding ids read as their new ids."""
    current: dict[str, str] = {}
    for binding_id, key in keys.items():
        new_id = RENAMED_BINDINGS.get(binding_id, binding_id)
        current[new_id] = ",".join(filter(None, (current.get(new_id), key)))
    return current
