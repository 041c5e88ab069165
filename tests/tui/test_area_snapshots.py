"""Every area at the classic 80x24, at a large 200x55, and in the light theme (120x36),
beside the 120x36 dark snapshots of the other snapshot files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from creditscope.tui.app import CreditscopeApp

from .areas import AREAS, DARK_THEME, LIGHT_THEME, SIZES
from .test_snapshots import SHOWN_CONFIG

MakeApp = Callable[..., CreditscopeApp]

VARIANTS: dict[str, tuple[tuple[int, int], str]] = {
    "80x24": (SIZES["80x24"], DARK_THEME),
    "200x55": (SIZES["200x55"], DARK_THEME),
    "light": (SIZES["120x36"], LIGHT_THEME),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("area", list(AREAS))
def test_area(snap_compare: Any, make_app: MakeApp, area: str, variant: str) -> None:
    size, theme = VARIANTS[variant]
    # Settings shows where it saves: a fixed path, not this test's temp dir.
    fixed = {"config_file": SHOWN_CONFIG} if area == "settings" else {}
    app = make_app(theme=theme, **fixed)
    assert snap_compare(app, terminal_size=size, run_before=AREAS[area])
