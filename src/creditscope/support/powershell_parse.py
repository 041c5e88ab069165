"""Reading a pasted PowerShell ``Invoke-WebRequest`` into the same parts as curl's.

Chrome and Edge's "Copy as PowerShell" writes ``Invoke-WebRequest -Uri "…"
-Method "POST" -Headers @{ "name"="value" … } -ContentType "…" -Body "…"`` with
backtick continuations and escapes, after lines that build a web session (a user
agent, cookies). Windows PowerShell's ``curl`` and ``wget`` are the same command
(``curl -Uri …``). A console's ``>> `` continuation prompts are not read. The
session's lines are skipped (its cookies dropped unread), hashtables are read for
the headers and for a ``-Body @{…}`` (form fields, or the query of a GET). A value
that is a variable or an expression (``$body``, ``(… | ConvertTo-Json)``) cannot be
known here, so it is refused with what to paste.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

from creditscope.support.curl_parse import (
    CurlCommand,
    DataPart,
    ImportProblem,
    ReadHeaders,
    rest_note,
)
from creditscope.support.paste_cleanup import SMART_PUNCTUATION, clean_punctuation, strip_prompt
from creditscope.support.shell_words import UnclosedQuote, split_words

# Windows PowerShell's `curl` is Invoke-WebRequest: its parameters tell it from curl's.
_COMMAND = re.compile(r"(?:^|[\s;(])(?:(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)(?=\s)"
                      r"|(?:curl|wget)(?=\s+-(?:Uri|UseBasicParsing|Method|Headers|Body)\b))",
                      re.IGNORECASE)
_HASHTABLE = re.compile(r"@\{(?P<body>[^{}]*)\}", re.DOTALL)
_ENTRY = re.compile(
    r"""(?:"(?P<dq_name>[^"]*)"|'(?P<sq_name>[^']*)'|(?P<name>[\w-]+))\s*=\s*"""
    r"""(?:"(?P<dq>(?:[^"`]|`.|"")*)"|'(?P<sq>(?:[^']|'')*)'|(?P<bare>[^\s;}]+))""",
    re.DOTALL,
)
_WITH_VALUE = frozenset({
    "-websession", "-contenttype", "-timeoutsec", "-outfile", "-maximumredirection",
    "-sessionvariable", "-proxy", "-erroraction", "-useragent", "-maximumretrycount",
    "-retryintervalsec", "-transferencoding", "-authentication",
})
_FLAGS = frozenset({
    "-usebasicparsing", "-skipcertificatecheck", "-disablekeepalive", "-passthru",
    "-skipheadervalidation", "-skiphttperrorcheck", "-allowunencryptedauthentication",
    "-usedefaultcredentials", "-resume", "-nobody",
})
_CREDENTIALS = frozenset({"-credential", "-token", "-proxycredential"})


def looks_like_invoke_webrequest(text: str) -> bool:
    """True for ``Invoke-WebRequest``/``Invoke-RestMethod`` (or PowerShell's ``curl -Uri``)."""
    return _COMMAND.search(text) is not None


def parse_invoke_webrequest(text: str) -> CurlCommand:
    """The request a pasted ``Invoke-WebRequest`` would send, as a ``CurlCommand``."""
    plain, changed = clean_punctuation(strip_prompt(text))  # a console's ">> " too
    found = _COMMAND.search(plain)
    if found is None:
        raise ImportProblem("This is not an Invoke-WebRequest command.")
    cookies = "System.Net.Cookie" in plain[:found.start()]  # the session's, never read
    command = plain[found.end():]
    tables: list[str] = []

    def placeholder(match: re.Match[str]) -> str:
        tables.append(match.group("body"))
        return f" @{{{len(tables) - 1}}} "

    command = _HASHTABLE.sub(placeholder, command)
    try:
        words, rest = split_words(command, "powershell")
    except UnclosedQuote as exc:
        raise ImportProblem(f"The command is malformed ({exc}): a quote is not closed. "
                            "Paste the whole command.") from None
    parsed = _read(words, tables, cookies)
    parsed.notes = ([SMART_PUNCTUATION] if changed else []) + ([rest_note(rest)] if rest else [])
    return parsed


def _read(words: list[str], tables: list[str], cookies: bool) -> CurlCommand:
    url: str | None = None
    method: str | None = None
    headers = ReadHeaders(cookies=cookies)  # the session's cookies count as dropped
    body: str | dict[str, str] | None = None
    index = 0
    while index < len(words):
        option = words[index].lower()
        value = words[index + 1] if index + 1 < len(words) else ""
        index += 1
        if option in _FLAGS:
            continue
        if not option.startswith("-"):
            if url is not None:
                raise ImportProblem("The command has more than one URL; import one request "
                                    "at a time.")
            url = words[index - 1]  # -Uri may be left out: the first positional is the URL
            continue
        if option not in (*_WITH_VALUE, *_CREDENTIALS, "-uri", "-method", "-headers", "-body"):
            raise ImportProblem(f"The Invoke-WebRequest parameter {words[index - 1]} is not "
                                "understood here. Remove it, or paste the URL or the JSON body.")
        index += 1
        if option in _CREDENTIALS or option in _WITH_VALUE:
            headers.credentials = headers.credentials or option in _CREDENTIALS
            continue
        _refuse_an_expression(words[index - 2], value)
        if option == "-uri":
            url = value
        elif option == "-method":
            method = value.upper()
        elif option == "-headers":
            for name, header in _table(value, tables).items():
                headers.read(name, header)
        else:
            body = _table(value, tables) if value.startswith("@{") else value
    if not url:
        raise ImportProblem("The command has no -Uri: paste the whole command, URL included.")
    return _command(url, method, headers, body)


def _command(url: str, method: str | None, headers: ReadHeaders,
             body: str | dict[str, str] | None) -> CurlCommand:
    """The parts as curl's: a hashtable body is form fields, or the query of a GET."""
    data: list[DataPart] = []
    get = False
    if isinstance(body, dict):
        get = (method or "GET") == "GET"
        data = [DataPart("data", urlencode(body))]
    elif body is not None:
        data = [DataPart("data", body)]
    return headers.command(url, method or ("POST" if data and not get else "GET"), data,
                           "PowerShell", get=get)


def _refuse_an_expression(option: str, value: str) -> None:
    if value.startswith(("$", "(")):
        shown = value if len(value) <= 30 else value[:29] + "…"
        raise ImportProblem(
            f"{option} is a PowerShell variable or expression ({shown}), which cannot be "
            "read here. Paste the command with its values, or the URL and the JSON body."
        )


def _table(value: str, tables: list[str]) -> dict[str, str]:
    """The hashtable a ``@{n}`` placeholder stands for, as names and values."""
    found = re.fullmatch(r"@\{(\d+)\}", value)
    if found is None:
        # Not echoed: it may be "X-API-Key: …" written as a string.
        raise ImportProblem("-Headers and -Body take a hashtable here, like "
                            "@{\"name\"=\"value\"}.")
    entries: dict[str, str] = {}
    for entry in _ENTRY.finditer(tables[int(found.group(1))]):
        name = entry.group("dq_name") or entry.group("sq_name") or entry.group("name") or ""
        if entry.group("dq") is not None:
            text = split_words('"' + entry.group("dq") + '"', "powershell").words[0]
        elif entry.group("sq") is not None:
            text = entry.group("sq").replace("''", "'")
        else:
            text = entry.group("bare")
        entries[name] = text
    return entries
