"""Command-palette commands that follow the current screen.

Navigation to every area is always offered; on top of that the screen the
palette was opened from contributes its main actions by defining
``palette_commands()`` (see :class:`creditscope.tui.screens.base.AreaScreen`)::

    def palette_commands(self) -> Iterable[PaletteCommand]:
        yield PaletteCommand("Look up company", "Run the lookup", self.action_lookup)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, runtime_checkable

from textual.app import App
from textual.command import DiscoveryHit, Hit, Hits, Provider

from creditscope.tui.host import host_of
from creditscope.tui.navigation import ordered_entries


@runtime_checkable
class ContributesCommands(Protocol):
    """A screen with palette entries of its own (every AreaScreen)."""

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """This screen's main actions for the command palette."""
        ...


@dataclass(frozen=True)
class PaletteCommand:
    """One entry of the palette: what it says, a line of help, what it runs."""

    title: str
    help: str
    run: Callable[[], Any]


class ScreenCommands(Provider):
    """Navigation everywhere, plus the main actions of the screen underneath."""

    def _commands(self) -> Iterator[PaletteCommand]:
        host = host_of(self.app)
        for entry in ordered_entries():
            yield PaletteCommand(
                f"Go to {entry.title}", f"Switch to {entry.title} ({entry.key})",
                partial(host.action_go, entry.mode),
            )
        yield PaletteCommand("Help", "Every key of this screen", host.action_help)
        yield PaletteCommand(
            "Import request", "Paste a curl command, URL or JSON body (i); sends nothing",
            partial(_open_import, self.app),
        )
        if isinstance(self.screen, ContributesCommands):
            yield from self.screen.palette_commands()

    async def discover(self) -> Hits:
        """All commands, shown when the palette opens empty."""
        for command in self._commands():
            yield DiscoveryHit(command.title, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        """Commands whose title fuzzily matches what was typed."""
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.title)
            if score > 0:
                yield Hit(score, matcher.highlight(command.title), command.run, help=command.help)


def _open_import(app: App[object]) -> None:
    # Imported on use: the palette is built for the first frame.
    from creditscope.tui.screens.import_request import open_import

    open_import(app)
