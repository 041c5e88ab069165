"""The events map reads in the dark and the light theme alike, measured on the drawn
screen: the land's dots stand out from the sea at 3:1 or more (a graphic a reader needs,
WCAG 1.4.11), and the selected event's marker stands apart from the other markers."""

from __future__ import annotations

import statistics
from collections.abc import Callable

import pytest

from creditscope.tui.app import CreditscopeApp
from creditscope.tui.widgets.event_map import EventMap

from .areas import DARK_THEME, LIGHT_THEME, SIZES, events
from .contrast import contrast_ratio, screen_cells

MakeApp = Callable[..., CreditscopeApp]
GRAPHIC_MINIMUM = 3.0


def _is_dots(char: str) -> bool:
    return 0x2800 < ord(char) <= 0x28FF  # Braille: the land


@pytest.mark.parametrize("theme", [DARK_THEME, LIGHT_THEME])
async def test_the_land_and_the_selected_marker_stand_out(make_app: MakeApp, theme: str) -> None:
    app = make_app(theme=theme)
    async with app.run_test(size=SIZES["80x24"]) as pilot:
        await events(pilot)  # Lisbon, the third event selected
        the_map = app.screen.query_one(EventMap)
        drawn = [(char, style) for char, style, widget, _ in screen_cells(app).values()
                 if widget is the_map]
        land = [contrast_ratio(style.color, style.bgcolor) for char, style in drawn
                if _is_dots(char) and style.color and style.bgcolor]
        selected = the_map.get_component_rich_style("event-map--selected").bgcolor
        marker = the_map.get_component_rich_style("event-map--marker").bgcolor
        # The selected label is drawn: "3" in the selected fill.
        assert any(char == "3" and style.bgcolor == selected for char, style in drawn)
    assert land, "no land drawn"
    assert statistics.median(land) >= GRAPHIC_MINIMUM, f"land dots at {min(land):.2f}:1"
    assert selected is not None and marker is not None
    apart = contrast_ratio(selected, marker)
    assert apart >= GRAPHIC_MINIMUM, f"selected marker {apart:.2f}:1 from the others"
