"""The help screen: every key of the current screen and the global ones, in words.

Generated from the active bindings (after the user's keymap), never written by hand,
then the key grammar (the same keys in every area, :mod:`creditscope.tui.key_grammar`);
a key that spends shows its price as the footer does ("Re-check · N cr").

One list that scrolls as a whole: each section is drawn as plain text (a Rich grid), not
as a table with its own scrollbars, so at 80x24 there is one scrollbar and at 200x55
every section shows all its rows. The area's own keys come first, then the keys of the
box or list with the cursor, then the keys that work everywhere. Binding ids (what the
config's ``[keys]`` table names) appear once, in a last section for remapping, never in
the rows people read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.keys import key_to_character
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Label, Static

from creditscope.tui.key_costs import cost_of_binding, with_cost
from creditscope.tui.key_grammar import GRAMMAR
from creditscope.tui.navigation import NAV_ENTRIES
from creditscope.tui.screens.base import KEY_RULE

# Textual's own plumbing keys that a user does not need listed (Tab is in the grammar).
_HIDDEN_ACTIONS = frozenset(
    {"app.focus_next", "app.focus_previous", "focus_next", "focus_previous"}
)


def _key_display(app: App[object], key: str) -> str:
    return app.get_key_display(Binding(key, ""))


class KeyRow(NamedTuple):
    """One line of help: the keys, what they do in words, and when, if not now."""

    keys: str  # as the footer shows them: "^r", "+ / ="
    words: str  # "Re-check" and its price, as the footer shows it
    binding_ids: tuple[str, ...]  # for the remap section; () for Textual's plumbing
    when: str = ""  # "on the map", "when no box has the cursor: Esc first"

    @property
    def shown(self) -> str:
        """The words with when, as a help row reads."""
        return f"{self.words} ({self.when})" if self.when else self.words


@dataclass(frozen=True)
class HelpSection:
    """One heading and its rows of ``(keys, words)``."""

    title: str
    rows: tuple[tuple[str, str], ...]
    note: str = ""  # prose under the heading, before the rows


def binding_rows(screen: Screen[object]) -> tuple[list[KeyRow], list[KeyRow]]:
    """(screen rows, global rows).

    The keys that work now (the active bindings), then every other key the area binds,
    on the screen or on one of its widgets, with when it works ("on the map", "when no
    box has the cursor"): help lists every key, not only those of the focused widget.
    Rows with a binding id (the area's own keys) come before the focused widget's
    plumbing (cursor moves, which Textual gives no id)."""
    app = screen.app
    # (global?, words, when) -> (keys, binding ids), in the order first met
    grouped: dict[tuple[bool, str, str], tuple[list[str], list[str]]] = {}

    def add(is_global: bool, words: str, when: str, key: str, binding_id: str | None) -> None:
        keys, ids = grouped.setdefault((is_global, words, when), ([], []))
        shown = _key_display(app, key)
        if shown not in keys:
            keys.append(shown)
        if binding_id and binding_id not in ids:
            ids.append(binding_id)

    for key, bound in screen.active_bindings.items():
        binding = bound.binding
        if binding.action not in _HIDDEN_ACTIONS:
            words = with_cost(_in_words(binding), cost_of_binding(bound.node, binding.id))
            add(bound.node is app, words, "", key, binding.id)
    working = {binding_id for _, ids in grouped.values() for binding_id in ids}
    for node, key, binding in _bindings_elsewhere(screen):
        if binding.id not in working:
            add(False, _in_words(binding), _when(screen, node, key), key, binding.id)
    local: list[KeyRow] = []
    global_: list[KeyRow] = []
    for (is_global, words, when), (keys, ids) in grouped.items():
        (global_ if is_global else local).append(KeyRow(" / ".join(keys), words, tuple(ids), when))
    local.sort(key=lambda row: not row.binding_ids)
    return local, global_


def _bindings_elsewhere(screen: Screen[object]) -> list[tuple[Widget, str, Binding]]:
    """Every named binding of the screen and its widgets (named: the area's own keys)
    that the area uses at all (``binds_here``: Ctrl+O only where a box holds a place)."""
    found: list[tuple[Widget, str, Binding]] = []
    for node in (screen, *screen.walk_children(Widget)):
        binds_here = getattr(node, "binds_here", None)
        found.extend(
            (node, key, binding) for key, binding in node._bindings
            if binding.id and (binds_here is None or binds_here(binding.action)))
    return found


def _when(screen: Screen[object], node: Widget, key: str) -> str:
    """When a key that does not work this moment does: where to put the cursor, or later."""
    if node is not screen:
        return f"on {getattr(node, 'BINDING_GROUP_TITLE', None) or 'its widget'}"
    focused = screen.focused
    if focused is not None and focused.check_consume_key(key, key_to_character(key)):
        return "when no box has the cursor: Esc first"
    return "not now: once there is something to act on"


def _in_words(binding: Binding) -> str:
    """What the key does: its tooltip (the longer words, "Open the command palette"), its
    description, or else its action read as words ("scroll_up" -> "Scroll up")."""
    words = binding.tooltip or binding.description
    if not words:
        words = binding.action.rpartition(".")[2].partition("(")[0].replace("_", " ")
    return words[:1].upper() + words[1:]


def area_title(screen: Screen[object]) -> str:
    """The area's name as the nav bar shows it ("Events"), for the first heading."""
    mode = getattr(screen.app, "current_mode", "")
    return next((entry.title for entry in NAV_ENTRIES if entry.mode == mode), "this screen")


def help_sections(screen: Screen[object]) -> list[HelpSection]:
    """Everything help lists for ``screen``, in the order it is shown."""
    local, global_ = binding_rows(screen)
    own = tuple((row.keys, row.shown) for row in local if row.binding_ids)
    focused = tuple((row.keys, row.shown) for row in local if not row.binding_ids)
    sections = [
        HelpSection(f"In {area_title(screen)}", own),
        HelpSection("Everywhere", tuple((row.keys, row.shown) for row in global_), KEY_RULE),
        HelpSection("The same keys in every area",
                    tuple((rule.shown, rule.meaning) for rule in GRAMMAR)),
    ]
    if focused:
        sections.append(HelpSection("In the box or list with the cursor", focused))
    remap = tuple((binding_id, row.words) for row in local + global_
                  for binding_id in row.binding_ids)
    sections.append(HelpSection("To remap a key: its name in the config's [keys] table", remap))
    return sections


def _grid(rows: tuple[tuple[str, str], ...]) -> Table:
    """Keys in one column, words wrapping in the other: drawn whole, never scrolled."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(ratio=1)
    for keys, words in rows:
        grid.add_row(Text(keys), Text(words))  # Text: a description is never markup
    return grid


class HelpScreen(ModalScreen[None]):
    """Lists the keys of the screen it was opened from, then the global keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1", "close", "Close", id="help.close"),
    ]

    def __init__(self, screen: Screen[object]) -> None:
        super().__init__()
        self.for_screen = screen
        self.sections = help_sections(screen)

    def compose(self) -> ComposeResult:
        """One scrolling list: a heading and a grid of keys per section."""
        with Vertical(classes="dialog help-dialog"):
            yield Label("Keys", classes="dialog-title")
            with VerticalScroll(id="help-list"):
                for section in self.sections:
                    yield Static(Text(section.title), classes="help-section")
                    if section.note:
                        yield Static(Text(section.note), classes="help-rule")
                    yield Static(_grid(section.rows), classes="help-rows")
            yield Static(
                "[$text-muted]Up/down or the wheel scroll; escape closes.[/$text-muted]",
                classes="dialog-text",
            )

    def on_mount(self) -> None:
        # The list, not a row, has the focus: arrows and Page keys scroll it.
        self.query_one("#help-list").focus()

    def action_close(self) -> None:
        """Back to the screen."""
        self.dismiss(None)
