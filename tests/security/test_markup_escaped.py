"""Outside text placed inside Textual markup (``outside_text.markup_escaped``) is read
back exactly as sent, whatever brackets, backslashes and escape sequences it holds:
Rich's ``escape`` (which Textual re-exports) left ``"\\x1b[8m [link=…]"`` as markup
Textual could not parse, and the summary that quoted it raised ``MarkupError``."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from textual.content import Content

from creditscope.client.records import CallRecord
from creditscope.models import EventFeed
from creditscope.outside_text import markup_escaped
from creditscope.tui.screens.activity_inspector import inspect_record
from creditscope.tui.screens.events.feed_summary import feed_summary
from creditscope.tui.textual_patch import strip_hidden_when_drawn
from security.hostile_corpus import BRACKET_MARKUP, HOSTILE_TEXT, MARKUP, TERMINAL_CONTROLS

CORPUS = BRACKET_MARKUP + MARKUP + HOSTILE_TEXT + TERMINAL_CONTROLS
# Text made mostly of what markup and terminals read: brackets, backslashes, ESC.
PIECES = ("[", "]", "\\", "/", "\x1b", "=", "@", "b", "8", "m", " ", "$", ":", "link",
          "javascript:", "(", ")", '"', "\u202e", "\n")
TRICKY = st.lists(st.sampled_from(CORPUS + PIECES), max_size=12).map("".join)


@pytest.fixture(autouse=True, scope="module")
def hidden_characters_stripped_as_in_the_explorer() -> None:
    """Textual then strips every hidden character from markup before reading it (patch
    12), as the explorer always does: a guard that is stripped guards nothing."""
    assert strip_hidden_when_drawn()


def drawn(markup: str) -> str:
    """The plain text Textual makes of ``markup`` (the combining grapheme joiner it is
    given after a trailing backslash is zero cells wide)."""
    return Content.from_markup(markup).plain.replace("\u034f", "")


def as_sent(text: str) -> str:
    """``text`` as Textual draws plain text: without the controls it always strips."""
    return Content(text).plain.replace("\u034f", "")


@given(TRICKY, TRICKY)
def test_outside_text_between_tags_reads_back_as_sent(first: str, second: str) -> None:
    markup = f"[b]{markup_escaped(first)}[/b] near [$text-muted]{markup_escaped(second)}[/]"
    assert drawn(markup) == as_sent(f"{first} near {second}")


@given(TRICKY)
def test_the_events_summary_quotes_any_nearest_city_as_sent(city: str) -> None:
    feed = EventFeed.model_validate({"location": {"lat": 38.7, "lng": -9.1,
                                                  "nearest_city": city}, "events": []})
    record = CallRecord(operation="ticketing/discovery", method="GET",
                        url="http://127.0.0.1:19600/ticketing/discovery", params={})
    text = drawn(feed_summary(feed, record, shown=0, pages=1, last_page=True))
    assert f"nearest city {as_sent(city) if city else '—'} · " in text


@given(TRICKY, TRICKY)
def test_the_activity_inspector_quotes_any_call_as_sent(value: str, message: str) -> None:
    record = CallRecord(operation="restaurants/search", method="GET",
                        url=f"http://127.0.0.1:19600/restaurants/search?q={value}",
                        params={"location": value}, error_message=message)
    inspected = inspect_record(record)
    assert f"location = {as_sent(value)}" in drawn(inspected.request)
    assert as_sent(message) in drawn(inspected.response)


@pytest.mark.parametrize("text", ["a\\", "a\\\x1b", "C:\\dir\\\u202e", "\\[x"])
def test_a_value_ending_in_a_backslash_leaves_the_next_tag_working(text: str) -> None:
    """A backslash left last (once the hidden characters are stripped) would escape the
    ``[/b]`` after it, and the rest of the line would be drawn bold or as raw markup."""
    assert drawn(f"[b]{markup_escaped(text)}[/b] after") == as_sent(f"{text} after")
    assert Content.from_markup(f"[b]{markup_escaped(text)}[/b]").spans, "the tag was lost"


@pytest.mark.parametrize("text", ["", "plain", "\\a", "a\\b", "\x1b", "a\\\n", "a\\\t", "[b]x"])
def test_a_value_not_ending_in_a_backslash_gains_no_hidden_character(text: str) -> None:
    """Only a trailing backslash needs the guard: anywhere else it would be one more
    (invisible) character in what the user selects and copies."""
    assert Content.from_markup(markup_escaped(text)).plain == Content(text).plain
    assert "\u034f" not in markup_escaped(text)
