"""Request-a-provider: a modal form, validated inline before anything is sent."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from creditscope import operations
from creditscope.client.errors import InvalidRequest
from creditscope.outside_text import markup_escaped
from creditscope.tui.calls import CallRequest, ResultArea
from creditscope.tui.host import host_of
from creditscope.tui.prices import credits_text, price_of
from creditscope.tui.widgets.field_label import labelled
from creditscope.tui.widgets.text_input import TextInput

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("name", "App or site name (required)", "e.g. Trailforks"),
    ("url", "Its web address (optional)", "https://…"),
    ("email", "Your e-mail, to hear when it ships (optional)", "you@example.com"),
)
FIELD_BOXES = {name: f"#provider-{name}" for name, _, _ in FIELDS}  # request field -> its box


def field_errors(values: dict[str, str]) -> dict[str, str]:
    """Field name -> message for every problem with ``values``; empty when it can be sent."""
    from pydantic import ValidationError

    from creditscope.models import ProviderRequest

    try:
        ProviderRequest(**request_body(values))
    except ValidationError as error:
        problems: dict[str, str] = {}
        for item in error.errors():
            field = str(item["loc"][0]) if item["loc"] else "name"
            problems.setdefault(field, _plain(item["msg"]))
        return problems
    return {}


def request_body(values: dict[str, str]) -> dict[str, str]:
    """The JSON body: the name always, the optional fields only when filled in."""
    body = {"name": values.get("name", "")}
    for name in ("url", "email"):
        if values.get(name, "").strip():
            body[name] = values[name].strip()
    return body


def _plain(message: str) -> str:
    # pydantic prefixes custom messages with "Value error, ".
    message = message.removeprefix("Value error, ")
    if message.startswith("String should have at least 1"):
        return "name is required"
    return message


class ProviderRequestForm(ModalScreen[str | None]):
    """Name, URL and e-mail; Send shows the ``preq_`` id. Dismisses with that id (or None)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="provider_form.close"),
    ]
    sent_values: dict[str, str] | None = None
    """The fields as last sent, until one is edited: Enter or Send then sends nothing."""
    _sending: dict[str, str] | None = None  # the fields of the request on its way

    def compose(self) -> ComposeResult:
        """Title; a scrolling body of labelled inputs, each with its error line; Send / Close.

        The buttons are docked to the dialog's bottom edge and the body scrolls, so however
        many errors show, the dialog stays on screen and Send stays clickable.
        """
        with Vertical(classes="dialog provider-form"):
            yield Label("Request a provider", classes="dialog-title")
            with VerticalScroll(classes="dialog-body", can_focus=False):
                yield Static(
                    "Ask for coverage of an app or site we do not support yet. Free.",
                    classes="dialog-text",
                )
                for name, label, placeholder in FIELDS:
                    # Not on blur: clicking Send blurs the field and would wipe the mark Send
                    # just set.
                    yield labelled(TextInput(placeholder=placeholder, id=f"provider-{name}",
                                             validate_on=["changed", "submitted"]), label)
                    yield Label("", id=f"provider-{name}-error", classes="field-error")
                with ResultArea(id="provider-result", fields=FIELD_BOXES, focus_invalid=False):
                    yield Label("", id="provider-created", classes="success")
            with Horizontal(classes="dialog-buttons"):
                yield Button(self._send_label(), variant="primary", id="provider-send")
                yield Button("Close", id="provider-close")

    def _send_label(self) -> str:
        return f"Send request · {credits_text(price_of(host_of(self), 'provider-requests'))}"

    def on_mount(self) -> None:
        """Start in the name field."""
        self.query_one("#provider-name", Input).focus()

    def values(self) -> dict[str, str]:
        """What the user has typed, by field."""
        return {name: self.query_one(f"#provider-{name}", Input).value for name, _, _ in FIELDS}

    def show_errors(self, problems: dict[str, str]) -> None:
        """Put each message under its field (and clear the others)."""
        for name, _, _ in FIELDS:
            self.query_one(f"#provider-{name}-error", Label).update(problems.get(name, ""))
            self.query_one(f"#provider-{name}", Input).set_class(name in problems, "-invalid")

    @on(Input.Submitted)
    @on(Button.Pressed, "#provider-send")
    def send(self) -> None:
        """Validate locally; send only when every field is fine, and a request once: the
        form as sent is not sent again until it is edited."""
        values = self.values()
        if values == self.sent_values:
            return
        problems = field_errors(values)
        self.show_errors(problems)
        if problems:
            first = next(name for name, _, _ in FIELDS if name in problems)
            self.query_one(f"#provider-{first}", Input).focus()
            return
        self.query_one("#provider-created", Label).update("")
        self._sending = values
        request = CallRequest(operations.PROVIDER_REQUESTS, request_body(values),
                              label="your request")
        self.query_one("#provider-result", ResultArea).run(request)

    @on(ResultArea.Succeeded, "#provider-result")
    def _created(self, event: ResultArea.Succeeded) -> None:
        created = event.answer(operations.PROVIDER_REQUESTS).data
        self.created_id: str = created.id
        self.sent_values = self._sending
        send = self.query_one("#provider-send", Button)
        send.label, send.disabled = "Sent · edit to send another", True
        self.query_one("#provider-created", Label).update(
            f"✔ Request sent. Its id is [b]{markup_escaped(created.id)}[/b]."
        )

    @on(Input.Changed)
    def _edited(self) -> None:
        """An edit after a send makes a new request: Send is offered again."""
        if self.sent_values is not None and self.values() != self.sent_values:
            self.sent_values = None
            send = self.query_one("#provider-send", Button)
            send.label, send.disabled = self._send_label(), False

    @on(ResultArea.Failed, "#provider-result")
    def _refused(self, event: ResultArea.Failed) -> None:
        # The area outlined the refused box; its message goes under it.
        error = event.error
        if isinstance(error, InvalidRequest) and error.field in FIELD_BOXES:
            for name in FIELD_BOXES:
                message = error.message if name == error.field else ""
                self.query_one(f"#provider-{name}-error", Label).update(message)

    @on(Button.Pressed, "#provider-close")
    def action_close(self) -> None:
        """Close the form (the id, if one was created, is the result)."""
        self.dismiss(getattr(self, "created_id", None))
