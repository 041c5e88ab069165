"""What a paste holds besides one command: several commands, or a URL inside prose.

A customer's ticket often pastes two commands one under the other ("this one
works, this one does not"). Read as one command, their words made a count of
URLs that meant nothing. The Import dialog and ``call --from-curl`` show one
request, so a paste of several is refused with each command's line and request,
and the desk keeps the one to try (deleting the others): choosing for them would
hide which one they are about to send.

A chat message names the request by its command, between sentences ("I ran
this: curl … and it returns 500"), or by its URL ("can you check
https://…/v1/… for me?"): the command is taken from its first line to the end of
its continuation lines and quotes, and the URL from the prose, its sentence
punctuation and the chat app's wrapping (``<…>``, backticks, Markdown) left out.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from creditscope.support.curl_parse import command_text
from creditscope.support.paste_cleanup import clean_punctuation
from creditscope.support.shell_words import UnclosedQuote, dialect_of, split_words

# A line starting a command (after a console prompt), unless the line before it goes on.
_COMMAND_START = re.compile(
    r"^[ \t]*(?:\$|%|PS [^>\n]*>|[A-Za-z]:\\[^>\n]*>)?[ \t]*(?:curl(?:\.exe)?|wget)[ \t]+",
    re.IGNORECASE)
_CONTINUED = re.compile(r"[\\^`][ \t]*$")  # bash's \, cmd's ^, PowerShell's backtick
_URL = re.compile(r"https?://[^\s<>\"'`|\\]+", re.IGNORECASE)
# What ends a sentence or wraps a link in chat, never the end of a request's URL.
_TRAILING = ".,;:!?)]}*_»”’"


def command_lines(text: str) -> list[int]:
    """The line numbers (from 1) on which a curl or wget command starts."""
    lines = text.splitlines()
    return [number for number, line in enumerate(lines, start=1)
            if _COMMAND_START.match(line)
            and not (number > 1 and _CONTINUED.search(lines[number - 2]))]


def commands_of(text: str, starts: list[int]) -> list[str]:
    """Each command's text: from its start line to the next one's."""
    lines = text.splitlines()
    ends = [*starts[1:], len(lines) + 1]
    return ["\n".join(lines[start - 1:end - 1]) for start, end in zip(starts, ends, strict=True)]


def several_commands_problem(starts: list[int], requests: list[str]) -> str:
    """The refusal of a paste of several commands: each one's line and request (or
    nothing, when it cannot be read on its own)."""
    named = [f"line {line}" + (f" ({request})" if request else "")
             for line, request in zip(starts, requests, strict=True)]
    listed = ", ".join(named[:-1]) + " and " + named[-1]
    return (f"This paste holds {len(starts)} commands: {listed}. Import one request at a "
            "time: delete the other commands from the paste.")


def command_in_prose(text: str, start: int) -> str | None:
    """The command starting on line ``start`` when sentences surround it (a chat
    message), or None when the text is the command alone (its own comments and blank
    lines aside)."""
    lines = text.splitlines()
    end = start
    while end < len(lines) and _goes_on("\n".join(lines[start - 1:end])):
        end += 1
    around = lines[:start - 1] + lines[end:]
    if all(not line.strip() or line.lstrip().startswith("#") for line in around):
        return None
    return "\n".join(lines[start - 1:end])


def _goes_on(command: str) -> bool:
    """True when ``command`` continues on the next line: a continuation character ends
    it, or a quote is still open (a JSON body over several lines)."""
    if _CONTINUED.search(command):
        return True
    plain, _changed = clean_punctuation(command_text(command))
    try:
        split_words(plain, dialect_of(plain))
    except UnclosedQuote:
        return True
    return False


def urls_in(text: str) -> list[str]:
    """The distinct http(s) URLs in ``text``, in order, without the prose around them."""
    found: list[str] = []
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        try:
            named = urlsplit(url).hostname
        except ValueError:  # "http://[::1" cut short: no URL
            continue
        if named and url not in found:
            found.append(url)
    return found
