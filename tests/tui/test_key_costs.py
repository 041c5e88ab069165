"""Which focused widgets would type a key instead of running its binding."""

from __future__ import annotations

from textual.widgets import Button, DataTable, Input, TextArea

from creditscope.tui.key_costs import is_text_box, types_a_character
from creditscope.tui.widgets.text_input import TextInput


def test_text_boxes_are_inputs_and_text_areas_of_any_subclass() -> None:
    assert is_text_box(Input())
    assert is_text_box(TextInput())
    assert is_text_box(TextArea())
    assert not is_text_box(Button("Search"))
    assert not is_text_box(DataTable())
    assert not is_text_box(None)


def test_printable_keys_type_and_shortcuts_do_not() -> None:
    assert types_a_character("slash") and types_a_character("c") and types_a_character("N")
    assert not types_a_character("ctrl+r") and not types_a_character("f1")
    assert not types_a_character("escape")
