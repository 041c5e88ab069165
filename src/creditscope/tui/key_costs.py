"""What pressing a key costs, for the footer and the help: ``r Re-check · 10 cr``.

A screen (or any widget with bindings) names the keys that spend in
``binding_cost(binding_id)``; :class:`~creditscope.tui.screens.base.AreaScreen`
answers from its ``SPENDING_KEYS``, which map a binding id either to an
operation (``"professional_network/find_company"``: always charged, the price
from the client's price table) or to the ``#id`` of the
:class:`~creditscope.tui.widgets.price_button.PriceButton` the key presses (the
key then says what the button says, "cached · free" included).

The footer also leaves out keys that the focused text box would type instead
(``/`` while the cursor is in a name field types a slash).
"""

from __future__ import annotations

from typing import Any

from textual.keys import REPLACED_KEYS, key_to_character
from textual.widget import Widget
from textual.widgets import Input


def button_cost(label: str) -> str | None:
    """The price part of a price button's label: ``Search · cached · free`` -> ``cached · free``."""
    _, separator, cost = label.partition(" · ")
    return cost if separator else None


def cost_of_binding(node: Any, binding_id: str | None) -> str | None:
    """What the binding ``binding_id`` of ``node`` costs, or None when it spends nothing."""
    hook = getattr(node, "binding_cost", None)
    if binding_id is None or not callable(hook):
        return None
    cost = hook(binding_id)
    return str(cost) if cost else None


def with_cost(description: str, cost: str | None, *, tight: bool = False) -> str:
    """``Re-check · 10 cr`` (the description alone when the key is free of charge).

    ``tight`` is for an 80-column footer: ``Re-check·10 cr``, ``Search·free``, so the
    free keys after the priced ones still fit."""
    if not cost:
        return description
    if tight:
        return f"{description}·{short_cost(cost)}"
    return f"{description} · {cost}"


def short_cost(cost: str) -> str:
    """``cached · free`` -> ``free``; a price in credits stays as it is."""
    return "free" if cost.endswith("free") else cost


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
