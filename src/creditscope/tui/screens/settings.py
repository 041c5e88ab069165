"""Settings: service and key, spending, cache lifetimes, theme; saved to the 0600 config file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, VerticalScroll
from textual.theme import Theme
from textual.widgets import Button, Input, Label, Select, Static, Switch

from creditscope.shown_url import shown_url
from creditscope.tui.host import Connection, host_of
from creditscope.tui.palette import PaletteCommand
from creditscope.tui.screens.base import AreaScreen
from creditscope.tui.web_tab import READ_ONLY_NOTE, in_web_tab
from creditscope.tui.widgets.text_input import TextInput

if TYPE_CHECKING:
    from creditscope.settings import Settings

class SettingsError(ValueError):
    """A value on the form cannot be used; ``field`` says which."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def _whole_number(text: str, field: str, *, allow_blank: bool) -> int | None:
    text = text.strip().replace(" ", "").replace("_", "")
    if not text and allow_blank:
        return None
    if not text.isdigit():
        raise SettingsError(field, "Enter a whole number of 0 or more.")
    return int(text)


def _seconds(text: str) -> float:
    from creditscope.settings import MAX_TIMEOUT_S

    try:
        value = float(text.strip())
    except ValueError:
        value = -1.0
    if not 0 < value <= MAX_TIMEOUT_S:  # also refuses nan and inf
        raise SettingsError("timeout", f"Enter seconds above 0, at most {MAX_TIMEOUT_S:g}.")
    return value


def _history_days(text: str) -> int:
    # Past calls older than this lose their parameters and label at the next start
    # (their credits stay in the totals).
    days = _whole_number(text, "history-days", allow_blank=False)
    if days is None or not 1 <= days <= 36_500:
        raise SettingsError("history-days", "Enter the days to keep past calls: 1 to 36500.")
    return days


class SettingsScreen(AreaScreen):
    """Edit the settings; Save writes the config file (mode 0600) and rebuilds the client."""

    AUTO_FOCUS = None  # number keys keep switching areas until a field is clicked

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "Save", id="settings.save"),
    ]

    def compose_body(self) -> ComposeResult:
        """Sections of labelled fields, then the actions."""
        settings = host_of(self).settings
        saved_key = settings.api_key.get_secret_value() if settings.api_key else ""
        with VerticalScroll(id="settings-form"):
            yield Label("Service", classes="section-title")
            with Grid(classes="form-grid"):
                yield Label("Base URL", classes="field-label")
                yield TextInput(shown_url(settings.base_url or ""),
                                placeholder="empty = the built-in sandbox",
                            id="base-url")
                yield Label("API key", classes="field-label")
                yield TextInput("", password=True, id="api-key",
                            placeholder=(f"saved: {_mask(saved_key)} (type to replace)"
                                         if saved_key else "no key saved"))
            yield Label("Spending", classes="section-title")
            with Grid(classes="form-grid"):
                yield Label("Session budget (cr)", classes="field-label")
                yield TextInput("" if settings.budget is None else str(settings.budget),
                            placeholder="no limit", id="budget")
                yield Label("Request timeout (s)", classes="field-label")
                yield TextInput(f"{settings.timeout:g}", id="timeout")
                yield Label("Offline (cache only)", classes="field-label")
                yield Switch(settings.offline, id="offline")
                yield Label("History kept (days)", classes="field-label")
                yield TextInput(str(settings.history_days), id="history-days")
            yield Label("Cache lifetimes (seconds)", classes="section-title")
            with Grid(classes="form-grid"):
                for operation, field in settings.ttl.fields():
                    yield Label(operation, classes="field-label")
                    yield TextInput(str(getattr(settings.ttl, field)), id=f"ttl-{field}")
            yield Label("Look", classes="section-title")
            with Grid(classes="form-grid"):
                yield Label("Theme", classes="field-label")
                yield Select([(name, name) for name in sorted(self.app.available_themes)],
                             value=self.app.theme, allow_blank=False, id="theme")
            yield Static("", id="settings-message", classes="field-error")
            with Horizontal(classes="form-buttons"):
                yield Button("Save", variant="primary", id="save")
                yield Button("Use the built-in sandbox", id="use-sandbox")
                yield Button("Clear cache", variant="warning", id="clear-cache")
            # Says where Save writes, not that it has: nothing is written before Save.
            yield Static(f"Save writes {settings.config_file} (mode 0600). Keys are remapped "
                         "there under [b]\\[keys][/b] by binding id (see ?).",
                         id="settings-where", classes="hint")

    def on_mount(self) -> None:
        """Follow the app's connection and theme; in a web tab, every field but the theme
        is shown disabled, with why."""
        host_of(self).signals.connection_changed.subscribe(self, self._show_connection)
        self.app.theme_changed_signal.subscribe(self, self._show_theme)
        if in_web_tab(self.app):
            for widget in self.query("#settings-form Input, #settings-form Switch, "
                                     "#settings-form Button"):
                widget.disabled = True
            self.query_one("#settings-where", Static).update(READ_ONLY_NOTE)
            form = self.query_one("#settings-form")
            form.mount(Static(READ_ONLY_NOTE, id="settings-read-only", classes="hint"), before=0)

    def on_unmount(self) -> None:
        """Stop following the app."""
        host_of(self).signals.unsubscribe(self)
        self.app.theme_changed_signal.unsubscribe(self)

    def _show_connection(self, connection: Connection) -> None:
        # Offline switched elsewhere (an error's "Go online", a save): the form says so too.
        self.query_one("#offline", Switch).value = connection.offline

    def _show_theme(self, theme: Theme) -> None:
        select: Select[str] = self.query_one("#theme", Select)
        if select.value != theme.name:
            with select.prevent(Select.Changed):
                select.value = theme.name

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No Save key in the footer of a web tab (the action would be refused); the
        area's other rules too (no Ctrl+O: Settings has no place box)."""
        if action == "save" and in_web_tab(self.app):
            return False
        return super().check_action(action, parameters)

    def _read_only(self) -> bool:
        # Keys and the command palette reach the actions even with the buttons disabled.
        if in_web_tab(self.app):
            self._message(READ_ONLY_NOTE, error=True)
            self.notify(READ_ONLY_NOTE, title="Not saved", severity="warning")
            return True
        return False

    def form_settings(self) -> Settings:
        """New settings from the form; raises :class:`SettingsError` naming the bad field."""
        from pydantic import SecretStr

        from creditscope.settings import TTLSettings

        current = host_of(self).settings
        base_url = self.query_one("#base-url", Input).value.strip() or None
        if base_url and current.base_url and base_url == shown_url(current.base_url):
            base_url = current.base_url  # left as shown: keep its user name and password
        if base_url and not base_url.startswith(("http://", "https://")):
            raise SettingsError("base-url", "The base URL must start with http:// or https://.")
        typed_key = self.query_one("#api-key", Input).value.strip()
        ttl: dict[str, int | None] = {
            field: _whole_number(self.query_one(f"#ttl-{field}", Input).value, f"ttl-{field}",
                                 allow_blank=False)
            for _, field in current.ttl.fields()
        }
        return current.model_copy(update={
            "base_url": base_url,
            "api_key": SecretStr(typed_key) if typed_key else current.api_key,
            "budget": _whole_number(self.query_one("#budget", Input).value, "budget",
                                    allow_blank=True),
            "timeout": _seconds(self.query_one("#timeout", Input).value),
            "offline": self.query_one("#offline", Switch).value,
            "history_days": _history_days(self.query_one("#history-days", Input).value),
            "ttl": TTLSettings.model_validate(ttl),
            "theme": self.app.theme,  # the Select sets it; the palette may have since
        })

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Check the form, write the config file, and reconnect with the new settings."""
        if self._read_only():
            return
        try:
            settings = self.form_settings()
        except SettingsError as error:
            self._message(str(error), error=True)
            self.query_one(f"#{error.field}").focus()
            return
        self._save(settings, "Settings saved")

    @on(Button.Pressed, "#use-sandbox")
    def action_use_sandbox(self) -> None:
        """Switch to the built-in sandbox in one step, with its demo key (and save that)."""
        if self._read_only():
            return
        self.query_one("#base-url", Input).value = ""
        self.query_one("#offline", Switch).value = False
        self._save(host_of(self).settings.using_sandbox(), "Using the built-in sandbox")

    @on(Select.Changed, "#theme")
    def _theme_picked(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            self.app.theme = event.value  # the app remembers it in the config file

    @work(thread=True, exclusive=True, group="settings-save", description="Save settings",
          exit_on_error=False)
    def _save(self, settings: Settings, done: str) -> None:
        from creditscope.settings import SettingsError as NotSaved
        from creditscope.settings import save_settings

        try:
            path = save_settings(settings)
        except (OSError, NotSaved) as error:
            self.app.call_from_thread(self._message, f"Could not save: {error}", error=True)
            return
        text = f"{done}: {path} (mode 0600)."
        overrides = settings.env_overrides()
        if overrides:  # saved, but the environment wins again at the next start
            text += f" At the next start {', '.join(overrides)} in the environment wins again."
        self.app.call_from_thread(self._saved, settings, text)

    def _saved(self, settings: Settings, text: str) -> None:
        host_of(self).rebuild_client(settings)
        self.query_one("#api-key", Input).value = ""
        key = settings.api_key.get_secret_value() if settings.api_key else ""
        self.query_one("#api-key", Input).placeholder = (
            f"saved: {_mask(key)} (type to replace)" if key else "no key saved")
        self._message(text)
        self.notify(text, title="Settings")

    @on(Button.Pressed, "#clear-cache")
    def _clear_pressed(self) -> None:
        self.action_clear_cache()

    @work(exclusive=True, group="settings-cache", description="Clear the cache",
          exit_on_error=False)
    async def action_clear_cache(self) -> None:
        """Remove every cached response; says how many went."""
        if self._read_only():
            return
        client = await host_of(self).wait_for_client()
        if client.cache is None:
            self._message("There is no cache to clear.")
            return
        count = await client.store.clear_cache()
        self._message(f"Cleared {count} cached responses.")
        self.notify(f"Cleared {count} cached responses.", title="Cache")

    def _message(self, text: str, *, error: bool = False) -> None:
        message = self.query_one("#settings-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    def palette_commands(self) -> Iterable[PaletteCommand]:
        """Settings actions for the command palette."""
        yield PaletteCommand("Save settings", "Write the config file", self.action_save)
        yield PaletteCommand("Use the built-in sandbox", "No key, no network",
                             self.action_use_sandbox)
        yield PaletteCommand("Clear cache", "Remove every cached response",
                             self.action_clear_cache)


def _mask(key: str) -> str:
    from creditscope.client.curl import mask_key

    return mask_key(key)
