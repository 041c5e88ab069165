"""Contrast of what is on screen, measured from the rendered segments' styles.

Every visible widget of the top screen is rendered the way the compositor
renders it (``render_lines``, with the app's line filters, so ANSI colours are
already the theme's true colours); the topmost widget wins each cell. A cell's
text colour is checked against its background with the WCAG 2 formula. Dim
text is blended halfway towards its background first, as terminals draw it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.errors import NoWidget
from textual.filter import DimFilter
from textual.geometry import Region
from textual.widget import Widget

TEXT_MINIMUM = 4.5  # WCAG AA, for every character: a terminal's bold text is not "large"
DISABLED_MINIMUM = 3.0  # a control the user cannot use now must still be seen (WCAG 1.4.11)


@dataclass(frozen=True)
class Run:
    """Adjacent cells of one line drawn in one style by one widget."""

    text: str
    x: int
    y: int
    ratio: float
    minimum: float
    widget: str

    def __str__(self) -> str:
        where = f"({self.x},{self.y}) in {self.widget}"
        return f"{self.ratio:.2f} < {self.minimum} at {where}: {self.text!r}"


def _luminance(color: RichColor) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    red, green, blue = color.get_truecolor()
    return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)


def contrast_ratio(foreground: RichColor, background: RichColor) -> float:
    """WCAG 2 contrast ratio of two colours, from 1 to 21."""
    lighter, darker = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _is_graphic(char: str) -> bool:
    # Borders, bars, blocks and Braille map dots are drawing, not text.
    code = ord(char)
    return 0x2500 <= code <= 0x259F or 0x2800 <= code <= 0x28FF or char.isspace()


Cell = tuple[str, Style, Widget, tuple[Any, ...]]


def screen_cells(app: Any) -> dict[tuple[int, int], Cell]:
    """(x, y) -> (character, final style, widget, z-order) for the whole top screen."""
    screen = app.screen
    background = Color.parse(app.theme_variables["background"])
    dim = DimFilter()
    cells: dict[tuple[int, int], Cell] = {}
    for widget in screen.walk_children(with_self=True):
        if not widget.display or not widget.visible:
            continue
        try:
            geometry = screen.find_widget(widget)
        except NoWidget:
            continue
        region, clip, order = geometry.region, geometry.clip, geometry.order
        if not region:
            continue
        lines = widget.render_lines(Region(0, 0, region.width, region.height))
        for dy, strip in enumerate(lines):
            y = region.y + dy
            x = region.x
            segments = dim.apply(list(strip), background)
            for segment in Segment.split_and_crop_lines(segments, region.width, pad=False):
                for piece in segment:
                    style = piece.style or Style.null()
                    for char in piece.text:
                        if clip.contains(x, y):
                            current = cells.get((x, y))
                            if current is None or current[3] <= order:
                                cells[(x, y)] = (char, style, widget, order)
                        x += 1
    return cells


def low_contrast_runs(app: Any) -> list[Run]:
    """Every run of text on the top screen whose contrast is under its minimum."""
    default_fg = RichColor.parse(app.theme_variables["foreground"])
    default_bg = RichColor.parse(app.theme_variables["background"])
    cells = screen_cells(app)
    failures: dict[tuple[int, int, int], Run] = {}
    width = max((x for x, _ in cells), default=0) + 1
    for (x, y), (char, style, widget, _) in sorted(cells.items(), key=lambda item: item[0][::-1]):
        if _is_graphic(char) or widget is app.screen:
            # Drawing; or the screen itself, whose only text is the dimmed screen under a modal.
            continue
        foreground = style.color if style.color and not style.color.is_default else default_fg
        background = (
            style.bgcolor if style.bgcolor and not style.bgcolor.is_default else default_bg
        )
        if style.reverse:
            foreground, background = background, foreground
        ratio = contrast_ratio(foreground, background)
        minimum = DISABLED_MINIMUM if widget.is_disabled else TEXT_MINIMUM
        if ratio >= minimum:
            continue
        key = (y, id(widget), hash((style, minimum)))
        # Merge with the run just before on the same line, in the same style.
        previous = failures.get(key)
        if previous is not None and previous.x + len(previous.text) >= x - 1:
            gap = " " * (x - previous.x - len(previous.text))
            failures[key] = Run(previous.text + gap + char, previous.x, y, previous.ratio,
                                minimum, previous.widget)
        elif previous is None:
            failures[key] = Run(char, x, y, ratio, minimum, _describe(widget))
        else:
            failures[(y, id(widget), hash((style, minimum, x % width)))] = Run(
                char, x, y, ratio, minimum, _describe(widget))
    return sorted(failures.values(), key=lambda run: (run.y, run.x))


def _describe(widget: Widget) -> str:
    name = type(widget).__name__
    return f"{name}#{widget.id}" if widget.id else name
