"""Why the service graded a match as it did, in words support staff can repeat.

Pure functions over the lookup's fields: the dropped legal suffix, the
confidence badge, the website-match cell, the name-similarity bar and the
"why" line. Nothing here imports Textual widgets or the client.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from rich.text import Text

from creditscope.models import Match

# Confidence values the spec names or implies; anything else is shown as sent.
KNOWN_CONFIDENCES = ("high", "medium", "low")

# Badge styles: high green, medium amber, low red, anything else neutral.
BADGE_STYLES: dict[str, str] = {
    "high": "bold #0b2e13 on #3fb950",
    "medium": "bold #2e2100 on #d29922",
    "low": "bold #ffffff on #c93c37",
}
NEUTRAL_BADGE_STYLE = "bold on #6e7681"

BAR_WIDTH = 10
_BAR_FULL = "█"
_BAR_EMPTY = "░"


def domain_of(website: str | None) -> str:
    """``"HTTPS://www.Northwind.com/about"`` -> ``"northwind.com"``; "" when there is none."""
    text = (website or "").strip()
    if not text:
        return ""
    if "://" not in text:
        text = "http://" + text
    try:
        host = (urlsplit(text).hostname or "").lower().rstrip(".")
    except ValueError:  # a malformed address is still shown, as typed
        return (website or "").strip().lower()
    return host.removeprefix("www.")


def dropped_suffix(typed_name: str, query: str) -> str:
    """What the service dropped from the typed name to get ``query`` ("" when nothing).

    ``("Northwind Labs Ltd.", "Northwind Labs")`` -> ``"Ltd."``. Spacing and case
    are compared loosely, because the service tidies both.
    """
    typed = " ".join(typed_name.split())
    wanted = " ".join(query.split())
    if not wanted or typed.casefold() == wanted.casefold():
        return ""
    if typed.casefold().startswith(wanted.casefold()):
        return typed[len(wanted):].strip(" ,")
    return ""


def normalised_query(typed_name: str, query: str) -> str:
    """The query as the service normalised it, with the dropped part shown.

    ``"Northwind Labs (dropped “Ltd”)"``; just the query when nothing was dropped
    (or what was typed, when the service sent no query).
    """
    shown = query or typed_name
    dropped = dropped_suffix(typed_name, query)
    return f"{shown} (dropped “{dropped}”)" if dropped else shown


def confidence_badge(confidence: str | None) -> Text:
    """The coloured badge for a confidence value; unknown values keep their raw text."""
    raw = (confidence or "").strip()
    key = raw.lower()
    label = raw if raw else "none"
    style = BADGE_STYLES.get(key, NEUTRAL_BADGE_STYLE)
    return Text(f" {label:<6} ", style=style)


def website_match_text(match: Match, website_given: bool) -> str:
    """``yes`` / ``no`` / ``not checked`` (no website was passed, or the answer lacks it)."""
    if not website_given or match.website_match is None:
        return "not checked"
    return "yes" if match.website_match else "no"


def similarity_bar(similarity: float | None, width: int = BAR_WIDTH) -> Text:
    """``"█████████░ 0.93"``: the name similarity as a bar and a number (``width`` 0:
    the number alone)."""
    if similarity is None:
        return Text("—", style="bright_black")
    value = min(max(similarity, 0.0), 1.0)
    filled = round(value * width)
    bar = Text(_BAR_FULL * filled, style="#58a6ff")
    bar.append(_BAR_EMPTY * (width - filled), style="#484f58")
    # The theme's text colour, not the bar's.
    bar.append(f" {value:.2f}" if width else f"{value:.2f}", style="default")
    return bar


def _similar(similarity: float | None) -> str:
    if similarity is None:
        return "name similarity not given"
    return f"name {min(max(similarity, 0.0), 1.0):.2f} similar"


def why(match: Match, website: str | None, *, brief: bool = False) -> str:
    """One line saying why the match was graded as it was, from its own fields.

    Examples: "the page lists exactly example.com", "name 0.93 similar; no
    website given", "page lists northwind.io, not northwind.com". ``brief``: the
    same ground in a word or two ("same site", "name only"), for a narrow table.
    """
    similar = _similar(match.name_similarity)
    wanted = domain_of(website)
    listed = domain_of(match.company.website) if match.company is not None else None
    if not wanted:
        short, reason = "name only", f"{similar}; no website given"
    elif match.company is None:
        short = "page down"
        reason = f"page momentarily unavailable, so its website was not compared; {similar}"
    elif match.website_match:
        short, reason = "same site", f"the page lists exactly {listed or wanted}"
    elif not listed:
        short, reason = "no site", f"the page lists no website; {similar}"
    elif listed == wanted:
        # The service said no although the domains agree: say so rather than guess.
        short = "disputed"
        reason = f"page lists {wanted} too, yet the service reports no website match"
    else:
        short, reason = "other site", f"page lists {listed}, not {wanted}"
    if (match.confidence or "").lower() not in (*KNOWN_CONFIDENCES, ""):
        short += " ?"
        reason += f"; graded “{match.confidence}” by the service"
    return short if brief else reason


def short_url(url: str | None) -> str:
    """An address without its scheme, to save table width: ``network.example/company/x``."""
    return re.sub(r"^https?://", "", url or "")
