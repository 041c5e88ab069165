"""Suite-wide isolation: no test reads or writes the developer's own config,
cache or data, and none reaches the network."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    dirs = {name: tmp_path / name for name in ("config", "cache", "data", "home")}
    for path in dirs.values():
        path.mkdir()
    monkeypatch.setenv("HOME", str(dirs["home"]))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(dirs["config"]))
    monkeypatch.setenv("XDG_CACHE_HOME", str(dirs["cache"]))
    monkeypatch.setenv("XDG_DATA_HOME", str(dirs["data"]))
    for name in list(__import__("os").environ):
        if name.startswith("CREDITSCOPE_"):
            monkeypatch.delenv(name, raising=False)
    return dirs


@pytest.fixture(autouse=True)
def steady_credit_meter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The meter's spend highlight fades on a timer; snapshots must not race it."""
    from creditscope.tui.widgets import credit_meter

    monkeypatch.setattr(credit_meter, "SPEND_HIGHLIGHT_SECONDS", 0.0)
