"""The frame of every main area: header with the credit meter, nav bar, body, footer.

A data screen subclasses :class:`AreaScreen` and implements ``compose_body``;
it can add command-palette entries with ``palette_commands``::

    class RestaurantsScreen(AreaScreen):
        BINDINGS = [Binding("ctrl+r", "refresh", "Refresh", id="restaurants.refresh")]

        def compose_body(self) -> ComposeResult:
            with ResultArea(id="results"):
                yield DataTable()

        def palette_commands(self) -> Iterable[PaletteCommand]:
            yield PaletteCommand("Refresh results", "Fetch again", self.action_refresh)

Detail screens pushed inside an area (``self.app.push_screen(...)``) can
subclass it too; ``escape`` pops back to the area's base screen.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches, WrongType
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from creditscope.outside_text import markup_escaped
from creditscope.tui.area_toasts import leave_other_areas
from creditscope.tui.host import host_of
from creditscope.tui.key_costs import Priced, is_text_box
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.prices import always_charged
from creditscope.tui.textual_patch import StyledOnMount
from creditscope.tui.widgets.app_header import AppHeader
from creditscope.tui.widgets.footer import Footer  # Textual's, without its key leak
from creditscope.tui.widgets.nav_bar import NavBar
from creditscope.tui.widgets.price_button import PriceButton
from creditscope.tui.widgets.text_input import TextInput, focus_now

KEY_RULE = (
    "Letters never spend: a key that can spend is Enter (on a box, a row or a priced"
    " button) or a Ctrl key, and its price is beside it in the footer. Letters typed where"
    " no box has the cursor go into the area's search box; / puts the cursor there on every"
    " screen. A held key or a double click is one press; a paid refresh of an answer"
    " fetched moments ago asks for a second press."
)


class AreaScreen(StyledOnMount):
    """Header, nav bar and footer around a body the subclass composes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", show=False, id="screen.back"),
        Binding("i", "import_request", "Import request", show=False, id="screen.import_request"),
        Binding("slash", "focus_main", "Search box", show=False, id="screen.focus_main"),
        Binding("ctrl+o", "other_place", "Other place", id="screen.other_place"),
    ]
    SPENDING_KEYS: ClassVar[dict[str, str]] = {}
    """Binding id -> the operation it always pays for, or the ``#id`` of the PriceButton it
    presses; the footer and the help show the cost next to the key. Such keys are never
    letters (Enter or Ctrl+key): see :data:`KEY_RULE`."""
    PLACE_BOX: ClassVar[bool] = False
    """The search box holds a place: ``Ctrl+O`` steps through its namesakes."""
    MAIN_FIELD: ClassVar[str | None] = None
    """The selector of the area's search box: ``/`` puts the cursor there, and letters
    typed where no box has the cursor are typed into it."""
    FILTERED_LIST: ClassVar[str | None] = None
    """The list the search box filters: Escape from the box lands there, so the arrow keys
    walk what was found (number keys still switch areas)."""

    def binding_cost(self, binding_id: str) -> Priced | None:
        """What the key ``binding_id`` costs ("N cr", "cached · free"), or None if nothing."""
        target = self.SPENDING_KEYS.get(binding_id)
        if target is None:
            return None
        if target.startswith("#"):
            for button in self.query(target).results(PriceButton):  # none while composing
                return button.words
            return None
        return always_charged(host_of(self), target)

    def compose(self) -> ComposeResult:
        """The shared frame; the subclass fills ``compose_body``."""
        yield AppHeader()
        yield NavBar()
        with Vertical(classes="area-body"):
            yield from self.compose_body()
        yield Footer()

    def compose_body(self) -> ComposeResult:
        """The area's own widgets. Override this."""
        yield from ()

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """This screen's main actions for the command palette. Override to add some."""
        return ()

    def on_screen_resume(self) -> None:
        """Highlight this area in the nav bar (the mode is known by now), and take off the
        screen what another area's keys said ("Copied": not about this area)."""
        area = host_of(self).current_mode
        self.query_one(NavBar).highlight(area)
        leave_other_areas(self.app, area)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Hand a failed worker of this screen to the app's one handler (worker messages
        do not bubble), which tells the user and logs it."""
        if event.state == WorkerState.ERROR:
            self.app.post_message(Worker.StateChanged(event.worker, event.state))

    def main_field(self) -> Input | None:
        """The area's search box, if it has one (and it is on this screen)."""
        if self.MAIN_FIELD is None:
            return None
        try:  # query_one keeps what it found: the footer asks on every rebuild, per key
            return self.query_one(self.MAIN_FIELD, Input)
        except (NoMatches, WrongType):
            return None

    def binds_here(self, action: str) -> bool:
        """False for a key of every area that this area never uses (help leaves it out)."""
        return action != "other_place" or self.PLACE_BOX

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``Ctrl+O`` is offered only while the search box names a place with namesakes."""
        if action == "other_place":
            field = self.main_field()
            if not self.PLACE_BOX or field is None or not field.value.strip():
                return False
            from creditscope.tui.place_choices import choices_of

            return len(choices_of(host_of(self)).namesakes(field.value)) > 1
        return True

    def action_other_place(self) -> None:
        """The next place of the same name, largest first, remembered from now on."""
        from creditscope.tui.place_choices import choices_of

        field = self.main_field()
        if field is None:
            return
        chosen = choices_of(host_of(self)).next_place(field.value)
        if chosen is not None:
            field.value = chosen.full_label  # with its state: one place, not the largest
            field.cursor_position = len(field.value)
            self.notify(f"“{chosen.name}” now means {chosen.full_label} (remembered).",
                        title="Other place", timeout=4)

    def action_focus_main(self) -> None:
        """``/``: put the cursor in the area's search box, chosen: a number typed there
        is text."""
        self._focus_main(unasked=False)

    def offer_main_field(self) -> None:
        """The cursor into the search box unasked (a cold start): until something is
        typed there, number keys still switch areas (``TextInput.cursor_unasked``)."""
        self._focus_main(unasked=True)

    def _focus_main(self, *, unasked: bool) -> None:
        field = self.main_field()
        if field is not None:
            focus_now(field)
            if isinstance(field, TextInput):
                field.cursor_unasked = unasked

    def on_key(self, event: events.Key) -> None:
        """A letter typed where no text box has the cursor is typed at the end of the area's
        search box, unless it is one of this screen's keys (which never spend)."""
        character = event.character
        if (not event.is_printable or not character or not character.strip()
                or is_text_box(self.focused) or event.key in self.active_bindings):
            return
        field = self.main_field()
        if field is None or field.disabled:
            return
        event.stop()
        event.prevent_default()
        focus_now(field)
        # Queued behind the focus, which selects the box's text: the cursor goes to its
        # end first, so the letter is added to what the box holds and never erases it.
        field.call_later(field.action_end)
        field.post_message(events.Key(event.key, character))

    def action_import_request(self, text: str = "") -> None:
        """Open Import request: a pasted curl command, URL or JSON body."""
        from creditscope.tui.screens.import_request import open_import

        open_import(self.app, text)

    def on_paste(self, event: events.Paste) -> None:
        """A paste outside any text field (they stop it) opens Import request with it."""
        if event.text.strip():
            event.stop()
            self.action_import_request(event.text)

    def action_back(self) -> None:
        """Leave a text field (so number keys navigate again), else pop a detail screen."""
        # Imported here: TextArea (and its document modules) are not in the first frame.
        from textual.widgets import TextArea

        if isinstance(self.focused, Input | TextArea):
            listed = (next(iter(self.query(self.FILTERED_LIST)), None)
                      if self.FILTERED_LIST else None)
            if self.focused is self.main_field() and listed is not None and listed.display:
                # At once, not after the queued messages: a key typed right after Escape
                # (a number key) must find the list focused, not the box it would type in.
                focus_now(listed)
            else:
                self.set_focus(None)
        elif len(self.app.screen_stack) > 1:
            self.app.pop_screen()


class UnavailableAreaScreen(AreaScreen):
    """Stands in for an area whose screen could not be loaded, saying why."""

    def __init__(self, title: str, error: BaseException) -> None:
        super().__init__()
        self.area_title = title
        self.error = error

    def compose_body(self) -> ComposeResult:
        """The error, in place of the area."""
        yield Static(
            f"[b]{self.area_title} is unavailable[/b]\n\n{type(self.error).__name__}: "
            f"{markup_escaped(str(self.error))}",
            classes="empty",
        )
