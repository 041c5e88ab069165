"""Two lookups of one company side by side: what the website (or a corrected one) changed.

``compare_lookups`` pairs the candidate pages of two answers by their URL and
says, per page, how its grade moved: confidence, website match and rank. Pages
that only one lookup found are marked as such. Pure: no Textual, no client.
"""

from __future__ import annotations

from dataclasses import dataclass

from creditscope.models import CompanyLookup, Match
from creditscope.wording import counted

_CONFIDENCE_ORDER = {"high": 3, "medium": 2, "low": 1}


@dataclass(frozen=True)
class Grade:
    """One page's grade in one lookup."""

    rank: int
    confidence: str
    website_match: str  # "yes", "no" or "not checked"
    similarity: float | None

    @property
    def text(self) -> str:
        """``#1 high · site yes``."""
        return f"#{self.rank} {self.confidence} · site {self.website_match}"


@dataclass(frozen=True)
class RowChange:
    """One candidate page across both lookups, and what changed in its grade."""

    url: str
    name: str
    left: Grade | None
    right: Grade | None

    @property
    def change(self) -> str:
        """``high → low (down)``, ``site no → yes``, ``rank 2 → 1``, ``unchanged``, or that
        only one lookup found the page."""
        if self.left is None:
            return "found only by the new lookup"
        if self.right is None:
            return "not found by the new lookup"
        parts: list[str] = []
        if self.left.confidence != self.right.confidence:
            direction = _direction(self.left.confidence, self.right.confidence)
            parts.append(f"{self.left.confidence} → {self.right.confidence}{direction}")
        # "not checked" on one side only says that side had no website: the heading shows it.
        checked = "not checked" not in (self.left.website_match, self.right.website_match)
        if checked and self.left.website_match != self.right.website_match:
            parts.append(f"site {self.left.website_match} → {self.right.website_match}")
        if self.left.rank != self.right.rank:
            parts.append(f"rank {self.left.rank} → {self.right.rank}")
        return "; ".join(parts) if parts else "unchanged"


def _direction(before: str, after: str) -> str:
    low, high = _CONFIDENCE_ORDER.get(before.lower()), _CONFIDENCE_ORDER.get(after.lower())
    if low is None or high is None or low == high:
        return ""
    return " (up)" if high > low else " (down)"


def _grade(rank: int, match: Match, website_given: bool) -> Grade:
    if not website_given or match.website_match is None:
        site = "not checked"
    else:
        site = "yes" if match.website_match else "no"
    return Grade(rank, match.confidence or "none", site, match.name_similarity)


def _name(match: Match) -> str:
    if match.company is not None and match.company.name:
        return match.company.name
    return match.serp_title or match.company_url


def compare_lookups(
    left: CompanyLookup, left_website: str | None,
    right: CompanyLookup, right_website: str | None,
) -> list[RowChange]:
    """Every page of either lookup, in the left lookup's order, then pages only on the right."""
    right_by_url = {m.company_url: (rank, m) for rank, m in enumerate(right.matches, start=1)}
    rows: list[RowChange] = []
    seen: set[str] = set()
    for rank, match in enumerate(left.matches, start=1):
        if match.company_url in seen:
            continue
        seen.add(match.company_url)
        other = right_by_url.get(match.company_url)
        rows.append(RowChange(
            match.company_url, _name(match), _grade(rank, match, bool(left_website)),
            _grade(other[0], other[1], bool(right_website)) if other else None,
        ))
    for url, (rank, match) in right_by_url.items():
        if url not in seen:
            seen.add(url)
            rows.append(RowChange(url, _name(match), None,
                                  _grade(rank, match, bool(right_website))))
    return rows


def website_label(website: str | None) -> str:
    """Column heading for one side: ``with northwind.com`` or ``without a website``."""
    return f"with {website}" if website else "without a website"


def comparison_summary(rows: list[RowChange]) -> str:
    """One line: how many pages changed grade, appeared or disappeared."""
    changed = sum(1 for r in rows if r.left and r.right and r.change != "unchanged")
    new = sum(1 for r in rows if r.left is None)
    gone = sum(1 for r in rows if r.right is None)
    pages = counted(len(rows), "page")
    return (f"{pages}: {changed} changed grade, {new} found only by the new lookup, "
            f"{gone} no longer found")
