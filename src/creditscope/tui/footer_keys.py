"""Which keys the footer offers, and what each says: read from a screen's active bindings.

- Only keys that act here: the screen's active bindings that are shown (Textual's
  ``Binding.show``), one per action (the first, as Textual's footer shows it), and the
  command palette's key last.
- A key that spends says so: ``^r Re-check · N cr`` (see :mod:`creditscope.tui.key_costs`).
  Keys that spend come first, so a narrow terminal drops free keys, never a price.
- While a text box has focus, a key it would type (``/``, ``c``) is not offered.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from creditscope.tui.key_costs import (
    Priced,
    cost_of_binding,
    is_text_box,
    types_a_character,
    with_cost,
)

if TYPE_CHECKING:
    from textual.screen import Screen


@dataclass(frozen=True)
class OfferedKey:
    """One key in the footer: what it shows, and what a click on it presses."""

    key: str  # the binding's key ("ctrl+r"): a click runs what this key is bound to
    display: str  # as the terminal user knows it: "^r"
    description: str  # with its price when it spends: "Re-check · N cr"
    action: str
    enabled: bool = True  # False: shown dimmed, a click rings the bell
    tooltip: str = ""
    palette: bool = False  # the command palette's key, at the right edge


def offered_keys(screen: Screen[Any], *, tight: bool) -> list[OfferedKey]:
    """The keys the footer of ``screen`` offers, most important first; ``tight`` prices
    them in the 80-column wording (``Re-check·N cr``)."""
    app = screen.app
    active = screen.active_bindings
    typing = is_text_box(screen.focused)
    costs: dict[str, Priced] = {}
    for node, binding, _enabled, _tooltip in active.values():
        cost = cost_of_binding(node, binding.id)
        if cost:
            costs[binding.action] = cost
    priced: list[OfferedKey] = []
    free: list[OfferedKey] = []
    seen_actions: set[str] = set()
    for _node, binding, enabled, tooltip in active.values():
        if not binding.show or binding.action in seen_actions:
            continue
        seen_actions.add(binding.action)
        if typing and types_a_character(binding.key):
            continue
        cost = costs.get(binding.action) if binding.description else None
        offered = OfferedKey(binding.key, app.get_key_display(binding),
                             with_cost(binding.description, cost, tight=tight),
                             binding.action, enabled, tooltip)
        (priced if cost else free).append(offered)
    keys = [*priced, *free]
    palette = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
    if palette is not None:
        _node, binding, enabled, _tooltip = palette
        keys.append(OfferedKey(binding.key, app.get_key_display(binding), binding.description,
                               binding.action, enabled,
                               binding.tooltip or binding.description, palette=True))
    return keys
