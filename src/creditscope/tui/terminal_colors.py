"""The true colours the explorer gives the 16 terminal colours, one palette per kind of theme.

Screens colour text with the terminal's colour names ("green" for open, "yellow"
for a charge, "bright_black" for secondary text) and Textual turns them into true
colours with the app's ``ansi_theme_dark`` / ``ansi_theme_light``. Textual's own
palettes are made for bright terminals' looks, not for reading: its light one
draws yellow text at 2:1 on white. These keep every colour at 4.5:1 or more
against the theme backgrounds (``tests/tui/test_contrast.py`` measures it).

Theme variables get the same care: :func:`readable_variables` darkens (or lightens)
the text colours a theme defines until they read on its backgrounds.
"""

from __future__ import annotations

from rich.terminal_theme import TerminalTheme
from textual.color import Color, ColorParseError

# (background, foreground, the 8 normal colours, the 8 bright ones)
READABLE_ON_DARK = TerminalTheme(
    (12, 12, 12),
    (224, 224, 224),
    [
        (26, 26, 26),     # black
        (255, 110, 120),  # red
        (152, 224, 36),   # green
        (253, 166, 60),   # yellow: an amber that reads on near-black
        (150, 150, 255),  # blue
        (255, 120, 190),  # magenta
        (88, 209, 235),   # cyan
        (200, 200, 190),  # white
    ],
    [
        (165, 165, 165),  # bright black: secondary text
        (255, 130, 140),
        (176, 240, 80),
        (235, 215, 100),
        (170, 160, 255),
        (255, 140, 200),
        (120, 220, 240),
        (246, 246, 239),
    ],
)

READABLE_ON_LIGHT = TerminalTheme(
    (247, 247, 247),
    (0, 0, 0),
    [
        (0, 0, 0),
        (170, 30, 30),    # red
        (20, 95, 15),     # green
        (110, 74, 0),     # yellow: a dark ochre; true yellow cannot be read on white
        (40, 80, 175),    # blue
        (125, 50, 150),   # magenta
        (0, 105, 140),    # cyan
        (80, 80, 80),     # white: drawn dark, as light terminals do
    ],
    [
        (88, 88, 88),     # bright black: secondary text
        (170, 30, 30),
        (20, 95, 15),
        (110, 74, 0),
        (40, 80, 175),
        (125, 50, 150),
        (0, 105, 140),
        (60, 60, 60),
    ],
)


# Theme variables used for text, and what they are read against.
TEXT_VARIABLES = (
    "text-accent", "text-primary", "text-warning", "text-success", "text-error",
    "footer-key-foreground",
)
TEXT_BACKGROUNDS = ("background", "surface", "panel", "footer-background")
# Colours Textual fills controls with (buttons, the table's cursor row, the highlighted
# option) and writes "$text" (auto 87%) on: the fill is what moves, the text follows it.
FILL_VARIABLES = (
    "primary", "secondary", "success", "warning", "error", "accent",
    "block-cursor-background",
)
AUTO_TEXT_ALPHA = 0.87  # Textual's $text and $button-color-foreground: "auto 87%"
MINIMUM_CONTRAST = 4.7  # WCAG's 4.5, with a margin for the tints of zebra rows and hovers


def _luminance(color: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.r) + 0.7152 * channel(color.g) + 0.0722 * channel(color.b)


def contrast(first: Color, second: Color) -> float:
    """WCAG 2 contrast ratio of two opaque colours."""
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def readable_variables(variables: dict[str, str]) -> dict[str, str]:
    """``variables`` with each text colour moved towards black or white (whichever the
    backgrounds contrast with) until it reads at ``MINIMUM_CONTRAST`` on every background.

    Textual's light theme draws $text-accent at 2.8:1 and the footer's key letters at
    2.9:1 on its panels; dark themes are mostly fine already and are left as they are.
    """
    try:
        backgrounds = [Color.parse(variables[name]) for name in TEXT_BACKGROUNDS]
    except (KeyError, ColorParseError):
        return variables
    darkest = min(backgrounds, key=_luminance)
    towards = darkest.get_contrast_text(1.0)  # white on dark themes, black on light ones
    adjusted = dict(variables)
    for name in TEXT_VARIABLES:
        try:
            color = Color.parse(variables[name])
        except (KeyError, ColorParseError):
            continue
        for step in range(21):  # at most all the way to black or white
            candidate = color.blend(towards, step / 20).with_alpha(1.0)
            if all(contrast(candidate, bg) >= MINIMUM_CONTRAST for bg in backgrounds):
                break
        if candidate != color:
            adjusted[name] = candidate.hex
    for name in FILL_VARIABLES:
        try:
            fill = Color.parse(variables[name])
        except (KeyError, ColorParseError):
            continue
        if fill.a < 1:
            continue
        readable = readable_fill(fill)
        if readable != fill:
            adjusted[name] = readable.hex
    return adjusted


def text_on(fill: Color) -> Color:
    """The colour Textual draws ``auto 87%`` text in on ``fill``."""
    return fill + fill.get_contrast_text(AUTO_TEXT_ALPHA)


def readable_fill(fill: Color) -> Color:
    """``fill`` moved away from the text drawn on it until that text reads at
    ``MINIMUM_CONTRAST``: textual-dark's primary #0178D4 carries its white text at 3.78:1
    (buttons, the selected row), its error at 4.47:1."""
    away = fill.get_contrast_text(1.0).inverse  # darker under white text, lighter under black
    candidate = fill
    for step in range(41):
        candidate = fill.blend(away, step / 40).with_alpha(1.0)
        if contrast(text_on(candidate), candidate) >= MINIMUM_CONTRAST:
            break
    return candidate
