"""A Textual release that moves a private module turns off the patch that reads it, and
nothing else: the explorer still starts, and ``doctor`` names the patch that is off.

Each test runs a fresh interpreter in which one private module of Textual's cannot be
imported any more (``sys.modules[name] = None``, as after a release that moved it),
after Textual itself has loaded what it needs, then starts the explorer headless, as
``creditscope`` builds it, and asks doctor's patch check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

PRIVATE_MODULES = {
    # module -> the patch that must be off without it (None: no patch needs it at run time)
    "textual._context": "widget-errors",
    "textual._styles_cache": "styles-cache",
    "textual.widgets._footer": None,  # the footer draws its own keys
    "textual._ansi_sequences": "escape-then-key",
    "textual.widgets._data_table": "plain-cells",
    "textual._types": None,
}

SCRIPT = r'''
import asyncio, importlib, json, sys
import textual.app, textual.widgets, textual._xterm_parser  # what Textual itself loads
import textual.widgets.data_table  # Textual's public face of textual.widgets._data_table
for name in textual.widgets.__all__:  # Textual's own lazy widgets, loaded while it can
    getattr(textual.widgets, name)
importlib.import_module(BLOCKED)
sys.modules[BLOCKED] = None  # from here on, `import BLOCKED` fails

from creditscope.doctor.patches_check import check_patches
from creditscope.settings import Settings
from creditscope.tui.app import CreditscopeApp

async def start() -> str:
    app = CreditscopeApp(Settings())
    async with app.run_test(size=(120, 36)) as pilot:
        await app.wait_for_client()
        for _ in range(50):
            await pilot.pause(0.05)
            if app.screen.query("#location"):
                break
        await pilot.press("escape")  # out of the location box, where a digit is typed
        await pilot.pause(0.1)
        await pilot.press("2")
        await pilot.pause(0.2)
        return type(app.screen).__name__

finding = check_patches()
print(json.dumps({"screen": asyncio.run(start()), "status": finding.status,
                  "summary": finding.summary, "details": finding.details}))
'''


@pytest.mark.parametrize("module", sorted(PRIVATE_MODULES))
def test_the_explorer_starts_and_doctor_names_the_patch_off_without(
    module: str, tmp_path: Path
) -> None:
    env = {**os.environ, "CREDITSCOPE_DATA_DIR": str(tmp_path / "data"),
           "CREDITSCOPE_CACHE_DIR": str(tmp_path / "cache"),
           "CREDITSCOPE_CONFIG_FILE": str(tmp_path / "config.toml")}
    done = subprocess.run([sys.executable, "-c", f"BLOCKED = {module!r}\n{SCRIPT}"],
                          env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["screen"] == "CompanyScreen"  # started, and a key switched areas
    off = PRIVATE_MODULES[module]
    if off is None:
        assert seen["status"] == "ok", seen
        return
    assert seen["status"] == "note"
    assert seen["details"][off].startswith(f"off: {module} is unavailable"), seen
    assert off in seen["summary"]
    others = {name: state for name, state in seen["details"].items() if name != off}
    assert set(others.values()) == {"on"}, others
