"""One key grammar: every key the explorer binds means what the grammar says, in every area.

The bindings are collected from the code (the app, every area screen, dialog and widget
of the package), not from a list kept beside it, so a new binding that reuses a letter
for something else fails here.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widgets import Input

import creditscope.tui
from creditscope.tui.app import CreditscopeApp
from creditscope.tui.key_grammar import GRAMMAR, current_keymap, rule_for
from creditscope.tui.screens.help import HelpScreen
from pilot_support import settle

README = Path(__file__).parents[2] / "README.md"


def _explorer_classes() -> list[type[DOMNode]]:
    for module in pkgutil.walk_packages(creditscope.tui.__path__, "creditscope.tui."):
        importlib.import_module(module.name)
    found: list[type[DOMNode]] = []
    pending: list[type[DOMNode]] = [DOMNode]
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("creditscope.") and "BINDINGS" in cls.__dict__:
            found.append(cls)
    return found


def explorer_bindings() -> list[tuple[str, str, str]]:
    """(class, key, binding id) for every key every class of the explorer binds itself."""
    rows: list[tuple[str, str, str]] = []
    for cls in _explorer_classes():
        for binding in cls.__dict__["BINDINGS"]:
            assert isinstance(binding, Binding), f"{cls.__name__}: bind with Binding(..., id=)"
            for key in binding.key.split(","):
                rows.append((cls.__qualname__, key.strip(), binding.id or ""))
    return rows


def test_the_collection_sees_every_area() -> None:
    owners = {owner for owner, _, _ in explorer_bindings()}
    assert {"CreditscopeApp", "EventsScreen", "EventFeedTable", "CompanyScreen",
            "RestaurantResults", "CatalogScreen", "ActivityScreen", "UsageScreen",
            "EndpointScreen", "EventMap"} <= owners, owners


@pytest.mark.parametrize(("owner", "key", "binding_id"), explorer_bindings())
def test_every_binding_means_what_the_grammar_says_for_its_key(
    owner: str, key: str, binding_id: str
) -> None:
    rule = rule_for(key)
    assert rule is not None, f"{owner} binds {key!r} ({binding_id}), a key the grammar lacks"
    assert binding_id in rule.binding_ids, (
        f"{owner} binds {key!r} to {binding_id!r}; the grammar says {key!r} is "
        f"{rule.meaning!r} ({', '.join(sorted(rule.binding_ids))})"
    )


def test_no_key_is_in_two_rows_and_every_named_binding_exists() -> None:
    keys = [key for rule in GRAMMAR for key in rule.keys]
    assert len(keys) == len(set(keys)), "a key in two rows of the grammar"
    bound = {binding_id for _, _, binding_id in explorer_bindings()}
    named = {binding_id for rule in GRAMMAR for binding_id in rule.binding_ids}
    assert named <= bound, f"the grammar names bindings that do not exist: {named - bound}"


def test_q_alone_does_nothing_but_type() -> None:
    assert rule_for("q") is None
    assert all(key != "q" for _, key, _ in explorer_bindings())


def test_the_readme_table_shows_every_row_of_the_grammar() -> None:
    text = README.read_text(encoding="utf-8")
    section = text.split("### One key grammar", 1)[1].split("\n## ", 1)[0]
    for rule in GRAMMAR:
        assert f"| `{rule.shown}` |" in section, f"README lacks the row for {rule.shown}"


def test_a_remap_by_a_renamed_id_still_moves_its_key() -> None:
    assert current_keymap({"events.sort_date": "D", "nav.catalog": "c"}) == {
        "events.sort": "D", "nav.catalog": "c"}


async def test_question_mark_on_the_first_screen_opens_help_showing_the_grammar(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        box = app.focused
        assert isinstance(box, Input) and box.value == ""  # a cold start: the cursor in a box
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen), "? typed into the empty box"
        assert box.value == ""
        grammar = next(section for section in app.screen.sections
                       if section.title == "The same keys in every area")
        assert [rule.shown for rule in GRAMMAR] == [keys for keys, _ in grammar.rows]


async def test_question_mark_in_a_box_that_holds_text_is_typed(
    make_app: Callable[..., CreditscopeApp],
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot)
        await pilot.press("L", "i", "s", "question_mark")
        await settle(pilot)
        assert not isinstance(app.screen, HelpScreen)
        assert isinstance(app.focused, Input) and app.focused.value == "Lis?"
