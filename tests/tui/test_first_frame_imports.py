"""The first frame stays light: what it imports leaves out pydantic, FastAPI, httpx and
the sandbox's modules (they load in the client worker, after the screen is up), and
click (a bare ``creditscope`` opens the explorer before building the command group)."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("pydantic", "fastapi", "starlette", "httpx", "diskcache", "creditscope.client.cache",
         "creditscope.sandbox.", "creditscope.models", "creditscope.operations",
         "textual.widgets._text_area",
         # Not heavy, but each costs the first frame 5-30 ms: the command group (click), the
         # version check's importlib.metadata, TOML without a config file, the Events
         # area's feed and detail panel (mounted after the first frame), the gazetteer
         # (imported on the first suggestion or check).
         "click", "importlib.metadata", "tomllib",
         "textual.widgets._data_table", "creditscope.tui.screens.events.feed_table",
         "creditscope.tui.screens.events.event_detail", "creditscope.gazetteer",
         # The events' time zones (zoneinfo brings sysconfig): read once a feed is shown.
         "zoneinfo")

PROBE = """
import json, sys
from creditscope.tui.navigation import ordered_entries
# What a bare `creditscope` runs up to its first frame (creditscope.entry).
modules = ["creditscope.entry", "creditscope.commands.explorer", "creditscope.tui.app",
           ordered_entries()[0].screen.partition(":")[0]]
for name in modules:
    __import__(name)
from creditscope.settings_preview import read_settings_preview
read_settings_preview()
print(json.dumps(sorted(sys.modules)))
"""


def test_the_first_frame_imports_nothing_heavy() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          timeout=60, check=True)
    loaded = json.loads(done.stdout)
    heavy = [name for name in loaded if name.startswith(HEAVY)]
    assert heavy == [], f"the first frame imports {heavy[:8]}"


GAZETTEER_PROBE = PROBE.replace(
    'print(json.dumps(sorted(sys.modules)))',
    'gazetteer = sys.modules.get("creditscope.gazetteer")\n'
    'print(json.dumps(gazetteer is not None and gazetteer.load_gazetteer.cache_info().currsize))',
)


def test_the_first_frame_does_not_read_the_gazetteer() -> None:
    """34,000 places take a fifth of a second to read: the location boxes read them on
    the first suggestion, in a thread, never for the first frame."""
    done = subprocess.run([sys.executable, "-c", GAZETTEER_PROBE], capture_output=True,
                          text=True, timeout=60, check=True)
    assert json.loads(done.stdout) in (False, 0)
