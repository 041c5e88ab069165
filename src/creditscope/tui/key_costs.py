"""What pressing a key costs, for the footer and the help: ``^r Re-check · N cr``.

A screen (or any widget with bindings) names the keys that spend in
``binding_cost(binding_id)``, which returns the same words object a button
shows (:class:`~creditscope.client.price_state.PriceWords`);
:class:`~creditscope.tui.screens.base.AreaScreen` answers from its
``SPENDING_KEYS``, which map a binding id either to an operation
(``"professional_network/find_company"``: always charged, the price from the
client's price table) or to the ``#id`` of the
:class:`~creditscope.tui.widgets.price_button.PriceButton` the key presses (the
key then says what the button says, "cached · free" included).

The footer also leaves out keys that the focused text box would type instead
(``/`` while the cursor is in a name field types a slash).
"""

from __future__ import annotations

from typing import Any, Protocol, cast

from textual.keys import REPLACED_KEYS, key_to_character
from textual.widget import Widget
from textual.widgets import Input


class Priced(Protocol):
    """What a key or button costs, in the two wordings of
    :class:`~creditscope.client.price_state.PriceWords` (or a ``Blocked`` reason)."""

    @property
    def long(self) -> str: ...

    @property
    def short(self) -> str: ...


def cost_of_binding(node: Any, binding_id: str | None) -> Priced | None:
    """What the binding ``binding_id`` of ``node`` costs, or None when it spends nothing."""
    hook = getattr(node, "binding_cost", None)
    if binding_id is None or not callable(hook):
        return None
    cost = hook(binding_id)
    return cast("Priced | None", cost)


def with_cost(description: str, cost: Priced | None, *, tight: bool = False) -> str:
    """``Re-check · N cr`` (the description alone when the key is free of charge).

    ``tight`` is for an 80-column footer: ``Re-check·N cr``, ``Search·free``,
    ``Search·offline``, so the free keys after the priced ones still fit."""
    if cost is None:
        return description
    if tight:
        return f"{description}·{cost.short}"
    return f"{description} · {cost.long}"


def types_a_character(key: str) -> bool:
    """True for a key that a text box would type (``slash``, ``c``, ``N``), not a shortcut."""
    # Textual renames some keys ("solidus" -> "slash") and does not map them back.
    character = key_to_character(REPLACED_KEYS.get(key, key))
    return character is not None and len(character) == 1 and character.isprintable()


def is_text_box(widget: Widget | None) -> bool:
    """True when ``widget`` takes typed characters (an Input or a TextArea)."""
    if widget is None:
        return False
    if isinstance(widget, Input):
        return True
    # Asked by class name: importing TextArea just to ask would add its document
    # modules (~30 ms) to the first frame, where no TextArea exists yet.
    return any(cls.__name__ == "TextArea" for cls in type(widget).__mro__)
