"""Release hygiene: one version, and a changelog entry for it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import creditscope

REPO = Path(__file__).resolve().parents[2]


def test_the_version_lives_in_one_place() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "creditscope.__version__"
    }
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:[ab]|rc|\.dev)?\d*", creditscope.__version__)


def test_the_changelog_has_the_current_version_and_an_unreleased_section() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in text
    version = re.escape(creditscope.__version__)
    assert re.search(rf"^## \[{version}\] - \d{{4}}-\d{{2}}-\d{{2}}$", text, re.MULTILINE)
