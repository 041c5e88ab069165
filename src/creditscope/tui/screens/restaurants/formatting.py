"""How restaurant data reads on screen: stars, price levels, money, opening hours, histograms.

Pure functions only (no Textual), so every rule here is unit-tested on its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, time, timedelta

WEEKDAYS: tuple[str, ...] = (
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
)
_HOURS = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*[-–]\s*(\d{1,2}):(\d{2})\s*$")

# Symbol, decimals, and whether the symbol follows the amount ("45.00 kr").
_CURRENCIES: dict[str, tuple[str, int, bool]] = {
    "EUR": ("€", 2, False),
    "USD": ("$", 2, False),
    "GBP": ("£", 2, False),
    "JPY": ("¥", 0, False),
    "CNY": ("¥", 2, False),
    "KRW": ("₩", 0, False),
    "INR": ("₹", 2, False),
    "CAD": ("CA$", 2, False),
    "AUD": ("A$", 2, False),
    "NZD": ("NZ$", 2, False),
    "CHF": ("CHF ", 2, False),
    "SEK": (" kr", 2, True),
    "NOK": (" kr", 2, True),
    "DKK": (" kr", 2, True),
    "PLN": (" zł", 2, True),
    "CZK": (" Kč", 2, True),
    "HUF": (" Ft", 0, True),
    "BRL": ("R$", 2, False),
    "MXN": ("MX$", 2, False),
    "TRY": ("₺", 2, False),
    "ZAR": ("R", 2, False),
    "SGD": ("S$", 2, False),
    "HKD": ("HK$", 2, False),
    "TWD": ("NT$", 0, False),
    "THB": ("฿", 2, False),
    "VND": ("₫", 0, False),
    "IDR": ("Rp", 0, False),
    "PHP": ("₱", 2, False),
    "ILS": ("₪", 2, False),
    "RUB": ("₽", 2, False),
    "UAH": ("₴", 2, False),
}
# One-character symbols for price levels ("€€€"); multi-letter symbols read badly repeated.
_LEVEL_SYMBOLS: dict[str, str] = {
    code: symbol.strip() for code, (symbol, _, _) in _CURRENCIES.items() if len(symbol.strip()) == 1
}


# --- ratings ------------------------------------------------------------------


def stars(rating: float | None, out_of: int = 5) -> str:
    """``4.3`` -> ``"★★★★☆"``: the nearest whole star (the number beside it gives the rest)."""
    if rating is None:
        return "☆" * out_of
    # Round half up (4.5 -> 5), not to even as round() would.
    full = int(max(0.0, min(float(out_of), rating)) + 0.5)
    return "★" * full + "☆" * (out_of - full)


def rating_label(rating: float | None) -> str:
    """``4.3`` -> ``"★★★★☆ 4.3"``; a missing rating reads ``"no rating"``."""
    if rating is None:
        return "no rating"
    return f"{stars(rating)} {rating:.1f}"


def rating_histogram(ratings: Iterable[int | None], out_of: int = 5) -> dict[int, int]:
    """How many ratings of each star, highest first (every star present, even at 0)."""
    counts = {star: 0 for star in range(out_of, 0, -1)}
    for rating in ratings:
        if rating is not None and 1 <= rating <= out_of:
            counts[rating] += 1
    return counts


def histogram_bar(count: int, largest: int, width: int = 20) -> str:
    """A bar of ``█`` proportional to ``count / largest``; any non-zero count shows at least one."""
    if count <= 0 or largest <= 0:
        return ""
    return "█" * max(1, round(width * count / largest))


# --- money ----------------------------------------------------------------------


def currency_symbol(code: str | None) -> str:
    """A single-character symbol for price levels: ``"EUR"`` -> ``"€"``; otherwise ``"$"``."""
    return _LEVEL_SYMBOLS.get((code or "").upper(), "$")


def price_level(level: int | None, symbol: str = "$", scale: int = 4) -> tuple[str, str]:
    """(filled, remainder) symbols: level 2 in euros -> ``("€€", "€€")``.

    The remainder lets a screen dim the unreached part of the scale. Levels
    above ``scale`` are shown in full with no remainder.
    """
    if level is None or level <= 0:
        return "", ""
    return symbol * level, symbol * max(0, scale - level)


def format_money(amount: float | None, currency: str | None) -> str:
    """``12.5, "EUR"`` -> ``"€12.50"``; ``1200, "JPY"`` -> ``"¥1,200"``; unknown code after."""
    if amount is None:
        return "—"
    code = (currency or "").upper()
    known = _CURRENCIES.get(code)
    if known is None:
        text = f"{amount:,.2f}"
        return f"{text} {code}" if code else text
    symbol, decimals, after = known
    text = f"{amount:,.{decimals}f}"
    return f"{text}{symbol}" if after else f"{symbol}{text}"


def format_distance(km: float | None) -> str:
    """``0.42`` -> ``"0.4 km"``; missing -> ``"—"``."""
    return "—" if km is None else f"{km:.1f} km"


# --- opening hours ----------------------------------------------------------------


def weekday_index(key: str) -> int | None:
    """``"monday"``, ``"Mon"``, ``"mo"`` -> 0; an unknown key -> None."""
    folded = key.strip().lower()
    if len(folded) < 2:
        return None
    for index, name in enumerate(WEEKDAYS):
        if name.lower().startswith(folded):
            return index
    return None


def parse_span(text: str) -> tuple[time, time] | None:
    """``"09:00-22:30"`` -> (09:00, 22:30); ``24:00`` is end of day (23:59:59); bad text -> None."""
    match = _HOURS.match(text)
    if match is None:
        return None
    h1, m1, h2, m2 = (int(group) for group in match.groups())
    if h1 > 24 or h2 > 24 or m1 > 59 or m2 > 59:
        return None
    opens = time(0, 0) if h1 == 24 else time(h1, m1)
    closes = time(23, 59, 59) if h2 == 24 else time(h2, m2)
    return opens, closes


def _open_on(span: tuple[time, time], moment: time, *, day_before: bool) -> bool:
    opens, closes = span
    overnight = closes <= opens  # "18:00-02:00" runs past midnight
    if day_before:
        return overnight and moment < closes
    if overnight:
        return moment >= opens
    return opens <= moment < closes


@dataclass(frozen=True)
class HoursRow:
    """One line of the opening-hours table."""

    day: str  # "Monday", or the key as given when it is not a weekday
    hours: str  # "09:00–22:30", "closed", or the raw value
    is_today: bool


def hours_by_weekday(hours: Mapping[str, str]) -> dict[int, str]:
    """The hours keyed by weekday index (0 = Monday); keys that are not weekdays are dropped."""
    found: dict[int, str] = {}
    for key, value in hours.items():
        index = weekday_index(key)
        if index is not None:
            found[index] = value
    return found


def hours_rows(hours: Mapping[str, str], now: datetime) -> list[HoursRow]:
    """Monday to Sunday, then any other keys; a weekday missing from ``hours`` is closed."""
    by_day = hours_by_weekday(hours)
    rows: list[HoursRow] = []
    if by_day:
        for index, name in enumerate(WEEKDAYS):
            value = by_day.get(index)
            rows.append(HoursRow(name, _hours_text(value), index == now.weekday()))
    for key, value in hours.items():
        if weekday_index(key) is None:
            rows.append(HoursRow(key, _hours_text(value), False))
    return rows


def _hours_text(value: str | None) -> str:
    if value is None or not value.strip() or value.strip().lower() == "closed":
        return "closed"
    span = parse_span(value)
    if span is None:
        return value
    return f"{span[0]:%H:%M}–{'24:00' if span[1] == time(23, 59, 59) else f'{span[1]:%H:%M}'}"


def is_open(hours: Mapping[str, str], now: datetime) -> bool | None:
    """Whether the place is open at ``now`` (local time); None when the hours say nothing usable."""
    by_day = hours_by_weekday(hours)
    if not by_day:
        return None
    today = now.weekday()
    yesterday = (now - timedelta(days=1)).weekday()
    moment = now.time()
    today_span = parse_span(by_day.get(today, ""))
    yesterday_span = parse_span(by_day.get(yesterday, ""))
    if today_span is not None and _open_on(today_span, moment, day_before=False):
        return True
    return yesterday_span is not None and _open_on(yesterday_span, moment, day_before=True)


def open_label(open_now: bool | None) -> str:
    """``True`` -> ``"open"``, ``False`` -> ``"closed"``, None -> ``"—"``."""
    if open_now is None:
        return "—"
    return "open" if open_now else "closed"


# --- text -------------------------------------------------------------------------------


def title_case(word: str | None) -> str:
    """``"gluten-free"`` -> ``"Gluten-free"``; None -> ``""``."""
    if not word:
        return ""
    return word[:1].upper() + word[1:].replace("_", " ")
