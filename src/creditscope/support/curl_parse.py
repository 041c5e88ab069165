"""Reading a pasted curl command line into its parts, without running anything.

``parse_curl`` understands the options people paste: ``-X/--request``, ``-G/--get``,
``-H/--header``, ``-d/--data`` and its variants, ``--json``, ``--url``, line
continuations and the usual output flags (ignored), written for bash, cmd.exe or
PowerShell (``shell_words``), after a chat app's curly quotes are undone
(``paste_cleanup``). It refuses what a pasted command cannot do here: read a
file (``--data @body.json``), upload, or post a multipart form, and says why.

Credentials (``X-API-Key``, ``Authorization``, ``-u``) and cookies are dropped while
reading: they never reach the returned value, so nothing downstream can show,
store or log them. ``credentials_dropped`` and ``cookies_dropped`` say one was there.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from creditscope.support.paste_cleanup import (
    SMART_PUNCTUATION,
    clean_punctuation,
    drop_comment_lines,
    has_curly_quotes,
    strip_prompt,
)
from creditscope.support.shell_words import UnclosedQuote, dialect_of, split_words


class ImportProblem(ValueError):
    """A pasted request that cannot be imported; the message says why and what to do."""


@dataclass(frozen=True)
class DataPart:
    """One ``-d``-style option: ``kind`` is ``data``, ``json`` or ``urlencode``."""

    kind: str
    text: str  # data/json: the text as curl would send it; urlencode: the raw content
    name: str | None = None  # urlencode only: the field name, when given


@dataclass
class CurlCommand:
    """The parts of a curl command that matter to the service (no credentials)."""

    url: str
    method: str | None = None  # from -X/--request/-I; None = curl's own choice
    get: bool = False  # -G: the data goes into the query string
    headers: list[tuple[str, str]] = field(default_factory=list)
    data: list[DataPart] = field(default_factory=list)
    credentials_dropped: bool = False
    ignored: list[str] = field(default_factory=list)  # options read but without effect here
    cookies_dropped: bool = False
    notes: list[str] = field(default_factory=list)  # how the text was read (curly quotes…)
    tool: str = "curl"  # the command it came from: "curl" or "HTTPie"


@dataclass
class ReadHeaders:
    """A pasted request's headers as read: those kept, and whether a credential (a key
    header) or a cookie was there. Neither's value is kept."""

    kept: list[tuple[str, str]] = field(default_factory=list)
    credentials: bool = False
    cookies: bool = False

    def read(self, name: str, value: str) -> None:
        """Keep ``name: value``, or note the credential or cookie it is and drop it."""
        lowered = name.strip().lower()
        if lowered in _SECRET_HEADERS:
            self.credentials = True
        elif lowered == "cookie":
            self.cookies = True
        elif lowered:
            self.kept.append((name.strip(), value.strip()))

    def command(self, url: str, method: str | None, data: list[DataPart], tool: str,
                *, get: bool = False) -> CurlCommand:
        """The request these headers go with, as curl's parts."""
        command = CurlCommand(url, method, get, self.kept, data, self.credentials)
        command.cookies_dropped = self.cookies
        command.tool = tool
        return command


# Options without a value that change nothing for the service (output, TLS, redirects).
_FLAGS = frozenset({
    "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include",
    "-L", "--location", "--location-trusted", "-k", "--insecure", "-f", "--fail",
    "--fail-with-body", "--compressed", "-g", "--globoff", "-N", "--no-buffer",
    "--http1.0", "--http1.1", "--http2", "--http2-prior-knowledge", "-#", "--progress-bar",
    "-q", "--disable", "--no-progress-meter", "-4", "--ipv4", "-6", "--ipv6", "-O",
    "--remote-name", "--raw", "--no-keepalive", "--tcp-nodelay", "--path-as-is", "-j",
    "--junk-session-cookies", "--tr-encoding", "--no-sessionid", "--ssl-reqd",
})
# Options with a value that change nothing for the service.
_IGNORED_WITH_VALUE = frozenset({
    "-o", "--output", "-m", "--max-time", "--connect-timeout", "-A", "--user-agent",
    "-e", "--referer", "--retry", "--retry-delay", "--retry-max-time", "-w", "--write-out",
    "--cacert", "--capath", "--cert", "-E", "--key", "--resolve", "-x", "--proxy",
    "--limit-rate", "-c", "--cookie-jar", "--max-redirs", "--interface", "--dns-servers",
    "--trace", "--trace-ascii", "--stderr", "-y", "--speed-time", "-Y", "--speed-limit",
    "--keepalive-time", "--connect-to", "-r", "--range", "-z", "--time-cond",
})
_DATA_OPTIONS = {
    "-d": "data", "--data": "data", "--data-ascii": "data", "--data-binary": "data",
    "--data-raw": "raw", "--json": "json", "--data-urlencode": "urlencode",
}
_CREDENTIAL_OPTIONS = frozenset({"-u", "--user", "--oauth2-bearer"})
_COOKIE_OPTIONS = frozenset({"-b", "--cookie"})
_REFUSED = {
    "-F": "posts a multipart form, which the service does not take",
    "--form": "posts a multipart form, which the service does not take",
    "--form-string": "posts a multipart form, which the service does not take",
    "-T": "uploads a file, which the service does not take",
    "--upload-file": "uploads a file, which the service does not take",
    "-K": "reads options from a file; paste the options themselves",
    "--config": "reads options from a file; paste the options themselves",
}
_SHORT_WITH_VALUE = frozenset(
    opt[1] for opt in (*_IGNORED_WITH_VALUE, *_DATA_OPTIONS, *_CREDENTIAL_OPTIONS, *_REFUSED,
                       *_COOKIE_OPTIONS, "-X", "-H")
    if len(opt) == 2
)
_SECRET_HEADERS = frozenset({"x-api-key", "authorization", "proxy-authorization"})


def command_text(text: str) -> str:
    """The command itself: whole-line comments (our own export's preface) and a prompt gone."""
    return strip_prompt(drop_comment_lines(text))


def looks_like_curl(text: str) -> bool:
    """True when ``text`` starts like a curl command (``curl …``, ``$ curl …``, ``curl.exe``)."""
    plain, _changed = clean_punctuation(command_text(text))
    return re.match(r"^curl(\.exe)?(\s|$)", plain) is not None


def split_command(
    text: str, program: tuple[str, ...] = ("curl", "curl.exe"), *, quotes: bool | None = None,
) -> tuple[list[str], list[str]]:
    """The command's words after ``program``, read in its shell's dialect, and notes on how.

    ``quotes``: whether curly quotes are shell quotes (see ``clean_punctuation``).
    """
    plain, changed = clean_punctuation(command_text(text), quotes=quotes)
    notes = [SMART_PUNCTUATION] if changed else []
    try:
        words, rest = split_words(plain, dialect_of(plain))
    except UnclosedQuote as exc:
        raise ImportProblem(
            f"The command is malformed ({exc}): a quote is not closed. Paste the whole command."
        ) from None
    if not words or words[0] not in program:
        raise ImportProblem(f"This is not a {program[0]} command: it should start with "
                            f"`{program[0]}`.")
    if rest:
        notes.append(rest_note(rest))
    return words[1:], notes


def rest_note(rest: str) -> str:
    """The note for a command ended by a shell operator (``| jq .``, ``> out.json``)."""
    operator = rest[:2] if rest.startswith(("||", "&&", ">>")) else rest[0]
    return f"The shell's {operator} and what follows it were not read."


def parse_curl(text: str) -> CurlCommand:
    """The request a pasted curl command would send; ``ImportProblem`` when it cannot be used."""
    try:
        return _parse_curl(text, quotes=None)
    except ImportProblem:
        if not has_curly_quotes(text):
            raise
        # Some quotes curly, some plain (a half-edited chat paste): try them all as quotes.
        try:
            return _parse_curl(text, quotes=True)
        except ImportProblem:
            pass
        raise


def _parse_curl(text: str, *, quotes: bool | None) -> CurlCommand:
    words, notes = split_command(text, quotes=quotes)
    cookies = False
    urls: list[str] = []
    method: str | None = None
    get = False
    headers: list[tuple[str, str]] = []
    data: list[DataPart] = []
    dropped = False
    ignored: list[str] = []
    index = 0

    def value_of(option: str) -> str:
        nonlocal index
        index += 1
        if index >= len(words):
            raise ImportProblem(f"The command ends after {option}, which needs a value.")
        return words[index]

    while index < len(words):
        word = words[index]
        if len(word) > 2 and word.startswith("-") and not word.startswith("--"):
            # Expanded where it stands, so an option's value is never taken for options.
            words[index:index + 1] = _expand_short_option(word)
            word = words[index]
        if word == "--":
            urls.extend(words[index + 1:])
            break
        if not word.startswith("-") or word == "-":
            urls.append(word)
        elif word in ("-X", "--request"):
            method = value_of(word).upper()
        elif word in ("-I", "--head"):
            method = "HEAD"
        elif word in ("-G", "--get"):
            get = True
        elif word == "--url":
            urls.append(value_of(word))
        elif word in ("-H", "--header"):
            header = _header(value_of(word))
            if header is None:
                dropped = True
            elif header[0].lower() == "cookie":
                cookies = True  # never kept: a session is as good as a key
            elif header[0]:
                headers.append(header)
        elif word in _DATA_OPTIONS:
            data.append(_data_part(_DATA_OPTIONS[word], word, value_of(word)))
        elif word in _CREDENTIAL_OPTIONS:
            value_of(word)  # read past it; never kept
            dropped = True
        elif word in _COOKIE_OPTIONS:
            value_of(word)
            cookies = True
        elif word in _REFUSED:
            raise ImportProblem(f"The command uses {word}, which {_REFUSED[word]}.")
        elif word in _IGNORED_WITH_VALUE:
            value_of(word)
            ignored.append(word)
        elif word in _FLAGS:
            ignored.append(word)
        else:
            raise ImportProblem(
                f"The curl option {word} is not understood here. Remove it, or paste the URL "
                "or the JSON body alone."
            )
        index += 1
    if not urls:
        raise ImportProblem("The command has no URL: paste the whole command, URL included.")
    if len(urls) > 1:
        raise ImportProblem(
            f"The command has {len(urls)} URLs; import one request at a time."
        )
    return CurlCommand(urls[0], method, get, headers, data, dropped, ignored, cookies, notes)


def _expand_short_option(word: str) -> list[str]:
    """``-sSL`` -> ``-s -S -L``; ``-XPOST`` -> ``-X POST``; ``-d{...}`` -> ``-d {...}``."""
    expanded: list[str] = []
    for position, char in enumerate(word[1:], start=1):
        expanded.append("-" + char)
        if char in _SHORT_WITH_VALUE:
            rest = word[position + 1:]
            if rest:
                expanded.append(rest)
            break
    return expanded


def _header(text: str) -> tuple[str, str] | None:
    """``("Name", "value")``; None for a credential (dropped); ``("", "")`` for a removal."""
    name, colon, value = text.partition(":")
    name = name.strip()
    if name.lower() == "cookie":
        return ("cookie", "")  # the value is not kept
    if not colon:
        # curl's "Name;" sends an empty header, "Name:" removes one; neither matters here.
        return ("", "")
    if name.lower() in _SECRET_HEADERS:
        return None
    return (name, value.strip())


def _data_part(kind: str, option: str, value: str) -> DataPart:
    if kind == "raw":
        return DataPart("data", value)
    if kind == "urlencode":
        return _urlencode_part(option, value)
    if value.startswith("@"):
        raise _file_problem(option, value[1:])
    return DataPart(kind, value)


def _urlencode_part(option: str, value: str) -> DataPart:
    # curl's forms: "content", "=content", "name=content", "@file", "name@file".
    if value.startswith("@"):
        raise _file_problem(option, value[1:])
    name, equals, content = value.partition("=")
    if equals:
        return DataPart("urlencode", content, name or None)
    if "@" in value:
        raise _file_problem(option, value.partition("@")[2])
    return DataPart("urlencode", value)


def _file_problem(option: str, path: str) -> ImportProblem:
    shown = path if len(path) <= 60 else path[:59] + "…"
    return ImportProblem(
        f"The command reads its data from the file {shown!r} ({option} @…). A pasted command "
        "cannot read files here: paste the file's contents in place of @file, e.g. "
        "--data '{\"name\": \"Acme\"}'."
    )


# What redaction puts where a credential was.
REDACTED = "•••"
# What ends a value: a quote (plain or curly, as a chat app writes it) or cmd's caret.
_ENDS = "'\"^\u2018\u2019\u201c\u201d"
_CREDENTIAL_OPTION = r"(?:-u|--user|-b|--cookie|--oauth2-bearer|-a|--auth)"
_REDACTIONS = (
    # header lines and -H values: X-API-Key: …, Authorization: Bearer … (a key has no
    # space, so an unquoted HTTPie item ends at one), cookies (up to the closing quote)
    (re.compile(rf"\b(x-api-key|authorization|proxy-authorization)(\s*:\s*['\"]?)"
                rf"(?:(?:bearer|basic|token)\s+)?[^{_ENDS}\s]+", re.IGNORECASE),
     rf"\1\2{REDACTED}"),
    (re.compile(rf"\b(cookie\s*:\s*['\"]?)[^{_ENDS}\s][^{_ENDS}\r\n]*", re.IGNORECASE),
     rf"\1{REDACTED}"),
    # DevTools' headers copied as a name line, then its value line (no colon between)
    (re.compile(r"^([ \t]*(?:x-api-key|authorization|proxy-authorization|cookie)[ \t]*\r?\n"
                r"[ \t]*)\S[^\r\n]*", re.IGNORECASE | re.MULTILINE), rf"\1{REDACTED}"),
    # the same names quoted, as code writes them: {"X-API-Key": "…"}, "x-api-key"="…"
    (re.compile(r"([\"'](?:x-api-key|authorization|cookie|proxy-authorization|api_?key"
                r"|access_token)[\"']\s*[:=]\s*[\"'])[^\"'\r\n]+", re.IGNORECASE),
     rf"\1{REDACTED}"),
    # -u user:password, -b cookies, --oauth2-bearer token, HTTPie's -a: quoted, then bare
    (re.compile(rf"(\s{_CREDENTIAL_OPTION}[ \t=]+(?:\$?'|\^?\"|[\u2018\u201c]))"
                rf"[^{_ENDS}\r\n]+"), rf"\1{REDACTED}"),
    (re.compile(rf"(\s{_CREDENTIAL_OPTION}[ \t=]+)[^{_ENDS}\s$][^\s]*"), rf"\1{REDACTED}"),
    # PowerShell's session cookies: New-Object System.Net.Cookie("name", "value", …)
    (re.compile(r"(System\.Net\.Cookie\(\s*[\"'][^\"']*[\"']\s*,\s*[\"'])[^\"']*"),
     rf"\1{REDACTED}"),
    # a key in the query string, or in an HTTPie item (api_key==…)
    (re.compile(r"([?&](?:api_key|apikey|key|x-api-key|token|access_token)=)[^&\s'\"#^]+",
                re.IGNORECASE), rf"\1{REDACTED}"),
    (re.compile(r"((?<![\w-])(?:api_key|apikey|x-api-key|access_token)==?['\"]?)[^&\s'\"#^]+",
                re.IGNORECASE), rf"\1{REDACTED}"),
    # user:password@host
    (re.compile(r"(://)[^/@\s'\"]+@"), rf"\1{REDACTED}@"),
)


def redact_credentials(text: str) -> str:
    """``text`` with every credential value replaced by ``•••``, for showing a pasted command.

    What remains still imports the same request: the credential's place is kept,
    only its value is gone.
    """
    for pattern, replacement in _REDACTIONS:
        text = pattern.sub(replacement, text)
    return text
