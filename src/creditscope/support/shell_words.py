"""Splitting a pasted command line into words the way the shell it was written for would.

Three dialects, because browsers and customers write commands for all three:

- ``posix`` (bash, zsh; Chrome/Firefox "Copy as cURL (bash)"): single and double
  quotes, backslashes, ``$'...'`` ANSI-C quoting (Chrome writes a body with an
  apostrophe, ``!`` or a line break as ``$'...\\n...'``), ``# comments``.
- ``cmd`` (Windows; "Copy as cURL (cmd)"): cmd.exe's ``^`` escapes and ``^``
  line continuations first, then the C runtime's argument rules (``"`` quoting,
  ``\\"`` for a quote). Chrome writes every quote as ``^"``, a quote inside a value
  as ``^\\^"`` and doubles backslashes, so a backslash pair is read back as one.
- ``powershell`` (``curl.exe`` with backtick continuations): ``'...'`` with
  ``''``, ``"..."`` with backtick escapes, and ``\\"`` as Windows programs read it.

Nothing is expanded or run: ``$VAR`` and ``%VAR%`` stay as written. In bash and
PowerShell, an unquoted ``|``, ``;``, ``&&``, ``>`` or ``<`` ends the command (``curl … |
jq .``): what follows is another program's, returned apart as ``rest``.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

Dialect = Literal["posix", "cmd", "powershell"]


class UnclosedQuote(ValueError):
    """A quote opened and never closed (a paste cut short)."""


_NEWLINE = re.compile(r"\r?\n")
_CMD_MARKERS = re.compile(r"\^\"|\^[ \t]*\r?\n")
_POWERSHELL_MARKERS = re.compile(r"`[ \t]*\r?\n|^\s*curl\.exe\s", re.MULTILINE)
_SPACE = " \t\r\n"


def dialect_of(text: str) -> Dialect:
    """Which shell ``text`` was written for, from the quoting and continuations it uses."""
    if "$'" not in text and _CMD_MARKERS.search(text):
        return "cmd"
    if _POWERSHELL_MARKERS.search(text) and "\\\n" not in text and "$'" not in text:
        return "powershell"
    return "posix"


class Split(NamedTuple):
    """The command's words, and the text after an operator that ended it ("" if none)."""

    words: list[str]
    rest: str


def split_words(text: str, dialect: Dialect) -> Split:
    """The words of ``text`` in ``dialect``; ``UnclosedQuote`` when a quote is not closed."""
    if dialect == "cmd":
        return Split(_crt_words(_cmd_unescape(text), halve_backslashes="^\"" in text), "")
    splitter = _Words(text, powershell=dialect == "powershell")
    return Split(splitter.split(), splitter.rest)


class _Words:
    """A POSIX (or PowerShell) word splitter over ``text``, one character at a time."""

    def __init__(self, text: str, *, powershell: bool) -> None:
        self.text = text
        self.at = 0
        self.powershell = powershell
        self.escape = "`" if powershell else "\\"
        self.rest = ""  # what follows an operator ending the command

    def split(self) -> list[str]:
        words: list[str] = []
        current: list[str] = []
        in_word = False
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char in _SPACE:
                if in_word:
                    words.append("".join(current))
                    current, in_word = [], False
                self.at += 1
            elif char in "\\`^" and self._continuation():
                pass  # a line continuation joins lines; it is not part of a word
            elif char in "|;<>" or text.startswith("&&", self.at):
                self.rest = text[self.at:].strip()
                break
            elif char == "#" and not in_word and not self.powershell:
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end  # a comment, to the end of the line
            else:
                in_word = True
                current.append(self._piece(char))
        if in_word:
            words.append("".join(current))
        return words

    def _continuation(self) -> bool:
        """Skip ``\\``, backtick or ``^`` ending a line (spaces allowed before the newline)."""
        match = re.compile(r"[\\`^][ \t]*\r?\n").match(self.text, self.at)
        if match is None:
            return False
        self.at = match.end()
        return True

    def _piece(self, char: str) -> str:
        """One quoted string, escape or plain character, starting at ``self.at``."""
        text, at = self.text, self.at
        if char == "$" and text.startswith("$'", at) and not self.powershell:
            self.at += 2
            return self._ansi_c()
        if char == "$" and text.startswith('$"', at) and not self.powershell:
            self.at += 1  # $"..." is a translatable string: the same text here
            return self._double()
        if char == "'":
            self.at += 1
            return self._single()
        if char == '"':
            self.at += 1
            return self._double()
        if char == self.escape and at + 1 < len(text):
            self.at += 2
            return text[at + 1]
        self.at += 1
        return char

    def _single(self) -> str:
        text = self.text
        out: list[str] = []
        while True:
            end = text.find("'", self.at)
            if end < 0:
                raise UnclosedQuote("No closing quotation (')")
            out.append(text[self.at:end])
            self.at = end + 1
            if not (self.powershell and text.startswith("'", self.at)):
                break
            out.append("'")  # PowerShell: '' is one apostrophe
            self.at += 1
        value = "".join(out)
        # Windows PowerShell hands \" to curl.exe, which reads it as a quote.
        return value.replace('\\"', '"') if self.powershell else value

    def _double(self) -> str:
        text = self.text
        out: list[str] = []
        while self.at < len(text):
            char = text[self.at]
            nxt = text[self.at + 1] if self.at + 1 < len(text) else ""
            if char == '"':
                if self.powershell and nxt == '"':
                    out.append('"')
                    self.at += 2
                    continue
                self.at += 1
                return "".join(out)
            if self.powershell and char in "`\\" and nxt == '"':
                out.append('"')
                self.at += 2
            elif self.powershell and char == "`" and nxt:
                out.append(_POWERSHELL_ESCAPES.get(nxt, nxt))
                self.at += 2
            elif not self.powershell and char == "\\" and nxt in '$`"\\\n':
                out.append("" if nxt == "\n" else nxt)
                self.at += 2
            else:
                out.append(char)
                self.at += 1
        raise UnclosedQuote('No closing quotation (")')

    def _ansi_c(self) -> str:
        """bash's ``$'...'``: backslash escapes as in C, up to the unescaped ``'``."""
        text = self.text
        out: list[str] = []
        while self.at < len(text):
            char = text[self.at]
            if char == "'":
                self.at += 1
                return "".join(out)
            if char == "\\" and self.at + 1 < len(text):
                decoded, self.at = _ansi_c_escape(text, self.at + 1)
                out.append(decoded)
            else:
                out.append(char)
                self.at += 1
        raise UnclosedQuote("No closing quotation ($'…')")


_POWERSHELL_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "0": "\0", "a": "\a", "b": "\b",
                       "f": "\f", "v": "\v", "e": "\x1b"}
_C_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
              "e": "\x1b", "E": "\x1b", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}


def _ansi_c_escape(text: str, at: int) -> tuple[str, int]:
    """The character an escape after a backslash at ``at - 1`` stands for, and where it ends."""
    char = text[at]
    if char in _C_ESCAPES:
        return _C_ESCAPES[char], at + 1
    if char in _HEX_DIGITS:
        digits = re.match(rf"[0-9a-fA-F]{{1,{_HEX_DIGITS[char]}}}", text[at + 1:])
        if digits is None:
            return "\\" + char, at + 1
        return _chr(int(digits.group(), 16)), at + 1 + digits.end()
    octal = re.match(r"[0-7]{1,3}", text[at:])
    if octal is not None:
        return _chr(int(octal.group(), 8) & 0xFF), at + octal.end()
    if char == "c" and at + 1 < len(text):
        return chr(ord(text[at + 1]) & 0x1F), at + 2
    return "\\" + char, at + 1  # bash keeps an unknown escape as written


def _chr(code: int) -> str:
    return chr(code) if code <= 0x10FFFF else "\ufffd"


def _cmd_unescape(text: str) -> str:
    """What cmd.exe hands the program: ``^x`` -> ``x`` outside quotes, ``^`` + newline joins.

    After a ``^`` ending a line the next character is taken as it is, so Chrome's
    ``^`` + two newlines is one line break inside a value.
    """
    out: list[str] = []
    quoted = False
    at = 0
    while at < len(text):
        char = text[at]
        if char == '"':
            quoted = not quoted
            out.append(char)
            at += 1
        elif char == "^" and not quoted and at + 1 < len(text):
            newline = _NEWLINE.match(text, at + 1)
            if newline is None:
                out.append(text[at + 1])
                at += 2
                continue
            at = newline.end()
            if at < len(text):
                out.append(text[at])
                at += 1
        else:
            out.append(char)
            at += 1
    return "".join(out)


def _crt_words(line: str, *, halve_backslashes: bool) -> list[str]:
    """The C runtime's reading of a Windows command line (``CommandLineToArgvW``'s rules)."""
    words: list[str] = []
    current: list[str] = []
    in_word = quoted = False
    at = 0
    while at < len(line):
        char = line[at]
        if char == "\\":
            run = len(line) - at - len(line[at:].lstrip("\\"))
            at += run
            if at < len(line) and line[at] == '"':
                current.append("\\" * (run // 2))
                if run % 2:
                    current.append('"')
                    at += 1
                in_word = True
                continue
            # Chrome doubles every backslash; read the pair back as the one it sent.
            current.append("\\" * ((run + 1) // 2 if halve_backslashes else run))
            in_word = True
        elif char == '"':
            if quoted and line.startswith('""', at):
                current.append('"')  # "" inside quotes is one quote
                at += 2
                continue
            quoted = not quoted
            in_word = True
            at += 1
        elif char in _SPACE and not quoted:
            if in_word:
                words.append("".join(current))
                current, in_word = [], False
            at += 1
        else:
            current.append(char)
            in_word = True
            at += 1
    if quoted:
        raise UnclosedQuote('No closing quotation (")')
    if in_word:
        words.append("".join(current))
    return words
