"""Undoing what chat apps and word processors do to a pasted command, with a note saying so.

Slack, Teams, Outlook and macOS "smart punctuation" turn ``'`` and ``"`` into
curly quotes and ``--`` into an en or em dash, and add non-breaking or zero-width
spaces. A shell would refuse such a command; the customer's intent is plain, so
quotes in a quoting position (next to a space, ``=``, a bracket or the line's end)
and dashes starting an option are put back, and ``SMART_PUNCTUATION`` tells the user.
Curly quotes are the customer's data (``O’Brien``, ``“Le Zinc”``) when the command
quotes with plain ones: then they stay, unless the command cannot be read as it is.
"""

from __future__ import annotations

import re

SMART_PUNCTUATION = "Curly quotes and long dashes (a chat app's) were read as plain ones."
_SINGLE = "\u2018\u2019\u201a\u201b\u2032"  # ‘ ’ ‚ ‛ ′
_DOUBLE = "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"  # “ ” „ ‟ ″ « »
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"  # hyphens, en/em dashes, minus
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))  # zero-width
_SPACES = dict.fromkeys(map(ord, "\u00a0\u2007\u202f"), " ")  # non-breaking spaces
# A curly quote where a shell quote would be: at a word's edge or next to JSON's punctuation.
_QUOTING_POSITION = re.compile(
    rf"(?:^|(?<=[\s=:,{{\[(]))[{_SINGLE}{_DOUBLE}]|[{_SINGLE}{_DOUBLE}](?=[\s,:}}\]);]|$)"
)
# A long dash starting a word: an option (—data, –H) whose hyphens were "corrected".
_OPTION_DASH = re.compile(rf"(?:^|(?<=\s))[{_DASHES}]+(?=[A-Za-z])")
_PROMPT = re.compile(r"^\s*(?:(?:\$|%|>|PS [^>\n]*>|[\w.-]+@[\w.-]+[:~][^$#\n]*[$#])[ \t]+"
                     # cmd's "C:\Users\me>", only before a command ("C:\curl.exe … > f")
                     r"|[A-Za-z]:\\[^>\n]*>[ \t]*(?=(?:curl|wget|https?)(?:\.exe)?\s))")
# What a console writes at the start of each line it continues, copied with the command:
# PowerShell's ">> ", bash's "> " (zsh's "quote> ", "dquote> "), cmd.exe's "More? ".
_CONTINUATION_PROMPT = re.compile(r"(\n)[ \t]*(?:>>|(?:d?quote)?>|More\?)(?:[ \t]|(?=\r?\n|$))",
                                  re.MULTILINE)


def strip_prompt(text: str) -> str:
    """``text`` without a console's prompts: the first line's (``$ ``, ``PS C:\\> ``,
    ``C:\\Users\\me>``, ``user@host:~$ ``) and the continuation prompts before each line
    the command goes on (``>> ``, ``> ``, ``More? ``), which a shell would read as a
    redirect."""
    return _CONTINUATION_PROMPT.sub(r"\1", _PROMPT.sub("", text, count=1))


def drop_comment_lines(text: str) -> str:
    """``text`` without whole-line ``#`` comments, such as the preface of our own export."""
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith("#")).strip()


def has_curly_quotes(text: str) -> bool:
    """True when ``text`` holds a curly quote where a shell quote would be."""
    return _QUOTING_POSITION.search(text) is not None


def clean_punctuation(text: str, *, quotes: bool | None = None) -> tuple[str, bool]:
    """``text`` with option dashes (and curly quotes) made plain; True when any was changed.

    ``quotes``: True to replace curly quotes, None to replace them only when the text
    has no plain quote at all (a chat app replaced every one).
    """
    plain = text.translate(_INVISIBLE).translate(_SPACES)
    if quotes is None:
        quotes = not any(quote in plain for quote in "'\"")
    if quotes and _QUOTING_POSITION.search(plain):
        plain = plain.translate(_QUOTES)
    plain = _OPTION_DASH.sub(_option_dash, plain)
    # Invisible characters and odd spaces are not worth a note; quotes and dashes are.
    return plain, plain != text.translate(_INVISIBLE).translate(_SPACES)


_QUOTES = {**dict.fromkeys(map(ord, _SINGLE), "'"), **dict.fromkeys(map(ord, _DOUBLE), '"')}


def _option_dash(match: re.Match[str]) -> str:
    """``—data`` -> ``--data``; ``–H`` -> ``-H`` (one letter and a space: a short option)."""
    dashes = match.group()
    if len(dashes) > 1:
        return "--"
    rest = match.string[match.end():]
    short = re.match(r"[A-Za-z](?:\s|$)", rest) is not None
    return "-" if short else "--"
