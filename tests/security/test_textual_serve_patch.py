"""The textual-serve fence (creditscope.commands.textual_serve_patch): checked against
the pinned textual-serve, and refusing, saying why, on any other."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from creditscope.cli import main
from creditscope.commands import textual_serve_patch, web


def test_checked_against_the_installed_textual_serve() -> None:
    # Fails on a textual-serve upgrade: re-read AppService._build_environment,
    # _open_app_process (and what reads _process and _stdin), Server._make_app and
    # templates/app_index.html, then move CHECKED_TEXTUAL_SERVE and pyproject's pin.
    assert textual_serve_patch.applies(), (
        "textual_serve_patch was checked against textual-serve "
        f"{textual_serve_patch.CHECKED_TEXTUAL_SERVE} only")


def test_the_overridden_internals_are_still_there() -> None:
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    for owner, name in ((AppService, "_build_environment"), (AppService, "_open_app_process"),
                        (Server, "_make_app")):
        assert callable(getattr(owner, name, None)), f"{owner.__name__}.{name} is gone"


@pytest.fixture
def another_textual_serve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(textual_serve_patch, "applies", lambda: False)


@pytest.mark.usefixtures("another_textual_serve")
async def test_on_another_textual_serve_no_app_is_built() -> None:
    server = web.build_server("127.0.0.1", 0, command="true")
    with pytest.raises(RuntimeError, match="checked against textual-serve"):
        await server._make_app()


@pytest.mark.usefixtures("another_textual_serve")
def test_on_another_textual_serve_web_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[Any] = []
    monkeypatch.setattr(web.DemoServer, "serve", lambda self, debug=False: started.append(self))
    result = CliRunner().invoke(main, ["web"])
    assert result.exit_code == 1
    assert "checked against textual-serve" in result.output
    assert started == []


def test_a_textual_serve_without_its_internals_refuses_web_saying_why() -> None:
    """A textual-serve release that moves ``app_service``: importing the patch still works
    (the explorer and the other commands never notice), and ``web`` refuses by name."""
    import subprocess
    import sys

    script = (
        "import sys; sys.modules['textual_serve.app_service'] = None\n"
        "from creditscope.commands import textual_serve_patch as patch\n"
        "try:\n    patch.require()\nexcept RuntimeError as refusal:\n    print(refusal)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "textual_serve.app_service" in done.stdout and "reinstall" in done.stdout
