"""What ``creditscope doctor`` found: one :class:`Finding` per check, in a :class:`Report`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Status = Literal["ok", "note", "problem"]
"""``ok``: as it should be; ``note``: worth knowing, works; ``problem``: something fails."""


@dataclass(frozen=True)
class Finding:
    """The result of one check: a one-line summary, the fix for a problem, and the details."""

    name: str
    status: Status
    summary: str
    fix: str | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """A JSON-ready dict (paths as strings)."""
        return {
            "name": self.name,
            "status": self.status,
            "summary": self.summary,
            "fix": self.fix,
            "details": _jsonable(self.details),
        }


def guarded(name: str, check: Callable[[], list[Finding]]) -> list[Finding]:
    """Run ``check``; an unexpected failure becomes a problem finding, never a traceback."""
    try:
        return check()
    except Exception as error:  # doctor reports what broke; it must not break itself
        return [
            Finding(
                name,
                "problem",
                f"could not be checked: {type(error).__name__}: {error}",
                fix="Report this with the output of `creditscope doctor --json`.",
            )
        ]


@dataclass
class Report:
    """Every finding, in the order checked, plus the versions this installation runs."""

    versions: dict[str, str]
    findings: list[Finding] = field(default_factory=list)

    @property
    def problems(self) -> list[Finding]:
        """The findings that are problems, first found first."""
        return [finding for finding in self.findings if finding.status == "problem"]

    @property
    def ok(self) -> bool:
        """True when nothing is a problem (notes are fine)."""
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        """The whole report as a JSON-ready dict."""
        first = self.problems[0] if self.problems else None
        return {
            "ok": self.ok,
            "versions": self.versions,
            "problems": len(self.problems),
            "first_problem": None if first is None else {
                "name": first.name, "summary": first.summary, "fix": first.fix,
            },
            "checks": [finding.as_json() for finding in self.findings],
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(key): _jsonable(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(inner) for inner in value]
    if isinstance(value, Path):
        return str(value)
    return value
