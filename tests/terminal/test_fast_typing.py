"""The flows people type fastest, at a terminal's speed, against the installed command.

Each test types as a terminal sends keys (bursts 0-10 ms apart, escape sequences,
bracketed paste), then reads the emulated screen for what landed in which field, the
header's meter and the ledger (``creditscope history``) for what was charged, and checks
that every charge had its price on screen first. Pilot, which hands over one key at a
time, passes all of these on builds that fail them here.
"""

from __future__ import annotations

import re
import time

import pytest

from terminal_harness import ENTER, TAB, Terminal

# One worker runs them one after another: each starts the explorer and its sandbox.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("terminal")]

BOX = "▊"  # a text box's left edge, as drawn


def field(term: Terminal, placeholder_or_value: str) -> str:
    """The text in the box whose row holds ``placeholder_or_value`` (first box on the row)."""
    row = term.row(re.escape(BOX) + r"\s+" + re.escape(placeholder_or_value))
    assert row, f"no box shows {placeholder_or_value!r}:\n{term.text()}"
    return row.split(BOX)[1].split("▎")[0].strip()


def boxes(term: Terminal, pattern: str) -> list[str]:
    """Every box's text on the row matching ``pattern``, left to right."""
    row = term.row(pattern)
    return [part.split("▎")[0].strip() for part in row.split(BOX)[1:]]


def hold_enter(term: Terminal, repeats: int) -> None:
    """Enter held down: the terminal repeats it every 35 ms."""
    for _ in range(repeats):
        term.send(ENTER)
        time.sleep(0.035)
        term.pump()


def go_to(term: Terminal, key: str, drawn: str) -> None:
    """Leave the box a cold start puts the cursor in, then switch area with ``key``."""
    term.press_escape()
    term.send(key.encode())
    term.wait_for(drawn)
    term.settle()


@pytest.mark.parametrize(
    ("area", "price"),
    [(None, "Search · 3 cr"), (("3", r"City, e\.g\. Lisbon"), "Search · 2 cr")],
    ids=["events", "restaurants"],
)
def test_a_partly_typed_place_then_enter_is_completed_and_priced_before_it_spends(
    terminal: Terminal, area: tuple[str, str] | None, price: str
) -> None:
    if area is not None:
        go_to(terminal, *area)
        terminal.burst(["/"])
    terminal.burst(["Lisb"])
    # All four letters in the box (the first one alone already reads "unknown place").
    terminal.wait_for(r"▊\s+Lisb")
    terminal.wait_for(r"Search · unknown place")  # no price: Enter must not spend
    terminal.send(ENTER)
    # The price on the button, or a spend ("0 cr spent" is on screen from the start).
    terminal.wait_for(re.escape(price) + r"|[1-9]\d* cr spent")
    terminal.settle()
    assert terminal.spent() == 0, "Enter on 'Lisb' spent while the button read 'unknown place'"
    assert boxes(terminal, "Search ·")[0] == "Lisbon, PT", terminal.text()
    terminal.send(ENTER)  # the second Enter sends, at the price on the button
    cost = int(price.split("· ")[1].split()[0])
    terminal.wait_for(rf"\b{cost} cr spent")
    terminal.quit()
    charges = terminal.charges()
    assert [c["credits_charged"] for c in charges] == [cost]


def test_name_tab_website_enter_typed_at_once_looks_up_that_company_once(
    terminal: Terminal,
) -> None:
    go_to(terminal, "2", r"Company name")
    terminal.wait_for(r"Look up · 10 cr")  # the price, on screen before any key
    terminal.send(b"/Contoso" + TAB + b"contoso.com" + ENTER)  # one burst, as typed ahead
    terminal.wait_for(r"10 cr spent")
    terminal.settle()
    assert boxes(terminal, r"Look up")[:2] == ["Contoso", "contoso.com"], terminal.text()
    assert terminal.row(r"Query Contoso\b"), terminal.text()
    terminal.quit()
    charges = terminal.charges()
    assert [(c["params"]["name"], c["params"]["website"], c["credits_charged"])
            for c in charges] == [("Contoso", "contoso.com", 10)]


def test_tab_takes_the_completion_on_show(terminal: Terminal) -> None:
    terminal.burst(["Pari"])
    terminal.wait_for(r"Paris, FR")  # the completion, drawn after the typed text
    terminal.settle()
    terminal.send(TAB)
    terminal.wait_for(r"→ Paris, FR")  # the hint names the completed place
    terminal.settle()
    assert field(terminal, "Paris") == "Paris, FR"
    assert terminal.row(r"Search · 3 cr"), terminal.text()
    terminal.send(ENTER)  # the box holds the whole name now: Enter searches it
    terminal.wait_for(r"Events near Paris, FR")
    assert terminal.spent() == 3


def test_escape_then_a_number_key_switches_area_and_keeps_the_field(
    terminal: Terminal,
) -> None:
    go_to(terminal, "2", r"Company name")
    terminal.burst(["/", "Northwind Labs"])
    terminal.wait_for(re.escape(BOX) + r"\s+Northwind Labs\s")
    terminal.burst([b"\x1b", "3"])  # as fast as a person can: one read, "ESC 3"
    terminal.wait_for(r"City, e\.g\. Lisbon")  # Restaurants
    terminal.press_escape()
    terminal.send(b"2")
    terminal.wait_for(r"Company name|Northwind")
    terminal.settle()
    assert field(terminal, "Northwind") == "Northwind Labs", terminal.text()


def test_a_letter_typed_at_no_field_adds_to_the_search_box(terminal: Terminal) -> None:
    terminal.burst(["Lisb"])
    terminal.wait_for(re.escape(BOX) + r"\s+Lisb(on, PT)?\s")  # typed (and its completion)
    terminal.press_escape()
    terminal.wait_for(r"/ Location")  # the box is left: the footer offers the area's keys
    terminal.burst(["x"])  # no key of the area: a letter for the search box
    terminal.wait_for(re.escape(BOX) + r"\s+(Lisbx|x)\s")
    terminal.settle()
    assert boxes(terminal, "Search ·")[0] == "Lisbx", terminal.text()


def test_a_pasted_curl_then_a_held_enter_opens_the_form_and_spends_nothing(
    terminal: Terminal,
) -> None:
    go_to(terminal, "2", r"Company name")
    curl = ("curl -X POST https://api.example.com/professional_network/find_company "
            "-H 'X-API-Key: sk_live_abcdef1234567890' "
            "-d '{\"name\": \"Fabrikam\", \"website\": \"fabrikam.com\"}'")
    terminal.send(b"i")
    terminal.paste(curl)  # at once after the key that opens the dialog
    terminal.wait_for(r"Price: 10 cr.*Open in Company")
    terminal.settle()
    screen = terminal.text()
    assert "X-API-Key: •••" in screen and "sk_live" not in screen
    assert re.search(r"name: Fabrikam\s.*website: fabrikam\.com", screen, re.DOTALL), screen
    terminal.send(TAB)  # from the paste box to "Open in Company"
    terminal.settle()
    hold_enter(terminal, 8)  # opens the form, whose focused button then reads the price
    terminal.wait_for(re.escape(BOX) + r"\s+Fabrikam")
    terminal.settle()
    assert boxes(terminal, r"Look up")[:2] == ["Fabrikam", "fabrikam.com"], terminal.text()
    assert terminal.row(r"Look up · 10 cr") and terminal.spent() == 0
    terminal.quit()
    assert terminal.charges() == []


def test_a_held_enter_on_the_map_is_one_press_that_spends_nothing(
    terminal: Terminal,
) -> None:
    terminal.press_escape()
    terminal.send(b"m")  # the map
    terminal.wait_for(r"Pick point")
    terminal.settle()
    hold_enter(terminal, 12)
    terminal.wait_for(r"Search · 3 cr|\d cr spent")
    terminal.settle(0.8)
    assert terminal.row(r"Search · 3 cr"), terminal.text()  # the pick, priced
    assert terminal.spent() == 0
    terminal.quit()
    assert terminal.charges() == []


def test_enter_m_enter_typed_quickly_opens_a_restaurant_and_buys_its_menu(
    terminal: Terminal,
) -> None:
    """Three quick presses, not a held Enter: a key between two Enters means each was
    pressed (a held key repeats with nothing between), so the menu is bought, priced."""
    go_to(terminal, "3", r"City, e\.g\. Lisbon")
    terminal.fill_place("Lisbon", "Search · 2 cr")
    terminal.send(ENTER)
    terminal.wait_for(r"\b2 cr spent.*restaurants near Lisbon")  # the meter, the results
    terminal.settle()
    terminal.burst([ENTER, b"m", ENTER], gap_ms=(120, 160))  # well inside a repeat window
    terminal.wait_for(r"\d+ dishes", timeout=15)
    terminal.settle()
    assert terminal.row(r"Menu · cached · free"), terminal.text()
    terminal.quit()
    charged = [(call["operation"], call["credits_charged"]) for call in terminal.charges()]
    assert [operation.rsplit("/", 1)[-1] for operation, _ in charged][-2:] == [
        "details", "menu"], charged
