"""Pretty, highlighted JSON with in-place search (``/``, then ``n`` / ``N``)."""

from __future__ import annotations

from typing import ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Input, Label, Static

from creditscope import json_limits
from creditscope.outside_text import json_text
from creditscope.tui.widgets.text_input import TextInput, focus_now
from creditscope.wording import counted


def pretty_json(raw: str | None) -> str:
    """Indented JSON, with escape sequences, bidi overrides and invisible characters
    written as JSON escapes (``\\u202e``: the same data, seen); text that is not JSON
    is returned as it is."""
    if not raw:
        return ""
    try:
        return json_text(json_limits.loads(raw), indent=2)
    except ValueError:
        return raw


MAX_SHOWN_CHARS = 256 * 1024
"""Characters of a document drawn and highlighted: a real answer pretty-printed is tens
of kilobytes; highlighting a 4 MB answer (the client's cap) froze the explorer ~7 s."""


def shown_part(document: str) -> str:
    """``document``, cut past :data:`MAX_SHOWN_CHARS` with a note of its full length."""
    if len(document) <= MAX_SHOWN_CHARS:
        return document
    whole = counted(len(document), "character", grouped=True)
    return (f"{document[:MAX_SHOWN_CHARS]}\n… (cut: {whole} in all;"
            " copy or save the response for the whole of it)")


class JsonView(Vertical, can_focus=True):
    """A scrollable JSON document; ``/`` opens a search box, ``n``/``N`` move between matches."""

    BINDING_GROUP_TITLE = "a JSON pane"  # help says where its keys work
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Search JSON", id="json.search"),
        Binding("n", "next_match", "Next match", id="json.next"),
        Binding("N", "previous_match", "Prev match", id="json.previous"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.document = ""
        self.matches: list[int] = []  # character offsets of each match
        self.current = -1
        self._needle = ""

    def compose(self) -> ComposeResult:
        """The document, then a search row hidden until ``/``."""
        with VerticalScroll(classes="json-scroll"):
            yield Static("", classes="json-body")
        with Vertical(classes="json-search"):
            yield TextInput(placeholder="Search in the response…", classes="json-search-input")
            yield Label("", classes="json-search-count")

    def on_mount(self) -> None:
        """Search row starts hidden."""
        self.query_one(".json-search").display = False

    def show(self, raw: str | None) -> None:
        """Display ``raw`` (a JSON body) pretty-printed; keeps an active search."""
        self.document = shown_part(pretty_json(raw))
        self._find(self._needle)

    def action_search(self) -> None:
        """Open the search box."""
        self.query_one(".json-search").display = True
        focus_now(self.query_one(".json-search-input", Input))

    def action_next_match(self) -> None:
        """Jump to the next match."""
        self._step(1)

    def action_previous_match(self) -> None:
        """Jump to the previous match."""
        self._step(-1)

    @on(Input.Changed, ".json-search-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self._find(event.value)

    @on(Input.Submitted, ".json-search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._step(1)

    def key_escape(self) -> None:
        """Close the search box, back to the document."""
        if self.query_one(".json-search").display:
            self.query_one(".json-search").display = False
            self.focus()

    def _find(self, needle: str) -> None:
        self._needle = needle
        self.matches = []
        if needle:
            lowered, target = self.document.lower(), needle.lower()
            start = lowered.find(target)
            while start != -1:
                self.matches.append(start)
                start = lowered.find(target, start + len(target))
        self.current = 0 if self.matches else -1
        self._refresh_body()

    def _step(self, direction: int) -> None:
        if not self.matches:
            return
        self.current = (self.current + direction) % len(self.matches)
        self._refresh_body()

    def _refresh_body(self) -> None:
        body = self._highlighted()
        self.query_one(".json-body", Static).update(body)
        count = self.query_one(".json-search-count", Label)
        if self._needle:
            where = f"{self.current + 1} of {len(self.matches)}" if self.matches else "no match"
            count.update(where)
        else:
            count.update("")
        if self.current >= 0:
            line = self.document.count("\n", 0, self.matches[self.current])
            scroll = self.query_one(".json-scroll", VerticalScroll)
            scroll.scroll_to(y=max(0, line - 3), animate=False)

    def _highlighted(self) -> Text:
        if not self.document:
            return Text("(no body)", style="bright_black")
        syntax = Syntax(self.document, "json", theme="ansi_dark", word_wrap=True)
        text = syntax.highlight(self.document)
        text.rstrip()
        size = len(self._needle)
        for index, start in enumerate(self.matches):
            style = "bold black on yellow" if index == self.current else "black on #806000"
            text.stylize(style, start, start + size)
        return text
