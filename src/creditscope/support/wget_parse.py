"""Reading a pasted ``wget`` command into the same parts as curl's.

wget sends ``--header``, and a body from ``--post-data`` (POST) or ``--body-data``
with ``--method``; options take their value after ``=`` or as the next word, and
short ones bundle (``-qO-``). Output and retry options change nothing for the
service and are read past; reading a body from a file (``--post-file``,
``--body-file``) is refused, as for curl; credentials (``--user``,
``--password``, key headers) are dropped unread. The words are split by the same
shell rules as curl's (``curl_parse.split_command``).
"""

from __future__ import annotations

import re

from creditscope.support.curl_parse import (
    CurlCommand,
    DataPart,
    ImportProblem,
    ReadHeaders,
    command_text,
    split_command,
)

_PROGRAMS = ("wget", "wget.exe")
TOOL = "wget"
# Options without a value that change nothing for the service.
_FLAGS = frozenset({
    "-q", "--quiet", "-v", "--verbose", "-S", "--server-response", "-d", "--debug",
    "--no-check-certificate", "--content-on-error", "--no-cache", "--no-cookies",
    "--no-verbose", "-4", "--inet4-only", "-6", "--inet6-only", "--spider", "-c",
    "--continue", "-N", "--timestamping", "--no-hsts", "--auth-no-challenge",
    "--ignore-length", "--no-http-keep-alive", "--save-headers",
})
# Options with a value that change nothing for the service (where the answer goes...).
_IGNORED_WITH_VALUE = frozenset({
    "-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "-T",
    "--timeout", "-t", "--tries", "-U", "--user-agent", "--referer", "-w", "--wait",
    "--waitretry", "--read-timeout", "--connect-timeout", "--dns-timeout", "-P",
    "--directory-prefix", "--ca-certificate", "--certificate", "--private-key", "-e",
    "--execute", "--compression", "--max-redirect", "--limit-rate", "-n",
    "--save-cookies", "--load-cookies", "--secure-protocol", "--bind-address",
})
_CREDENTIALS = frozenset({
    "--user", "--password", "--http-user", "--http-password", "--proxy-user",
    "--proxy-password",
})
_FILES = frozenset({"--post-file", "--body-file", "-i", "--input-file"})
_SHORT_WITH_VALUE = frozenset(
    option[1] for option in (*_IGNORED_WITH_VALUE, *_FILES) if len(option) == 2)


def looks_like_wget(text: str) -> bool:
    """True when the command's first word is ``wget`` (or ``wget.exe``)."""
    return re.match(r"wget(\.exe)?(\s|$)", command_text(text)) is not None


def parse_wget(text: str) -> CurlCommand:
    """The request a pasted wget command would send, as a ``CurlCommand``."""
    words, notes = split_command(text, _PROGRAMS)
    urls: list[str] = []
    method: str | None = None
    headers = ReadHeaders()
    data: list[DataPart] = []
    pending = list(reversed(words))  # a stack: a bundle of short options goes back on it
    while pending:
        word = pending.pop()
        if not word.startswith("-") or word == "-":
            urls.append(word)
            continue
        if len(word) > 2 and not word.startswith("--"):
            pending.extend(reversed(_unbundled(word)))
            continue
        option, equals, attached = word.partition("=")
        if equals:
            pending.append(attached)  # --header=X is --header X
        elif option in _FLAGS:
            continue
        if option not in (*_FLAGS, *_IGNORED_WITH_VALUE, *_CREDENTIALS, *_FILES,
                          "--header", "--post-data", "--body-data", "--method"):
            raise ImportProblem(f"The wget option {option} is not understood here. Remove "
                                "it, or paste the URL or the JSON body alone.")
        if not pending:
            raise ImportProblem(f"The command ends after {option}, which needs a value.")
        value = pending.pop()
        if option == "--header":
            name, _, header = value.partition(":")
            headers.read(name, header)
        elif option in ("--post-data", "--body-data"):
            data.append(DataPart("data", value))
            method = method or ("POST" if option == "--post-data" else None)
        elif option == "--method":
            method = value.upper()
        elif option in _CREDENTIALS:
            headers.credentials = True
        elif option in _FILES:
            raise ImportProblem(f"The command reads its data from the file {value!r} "
                                f"({option}). A pasted command cannot read files here: use "
                                "--post-data with the file's contents instead.")
    if data and method is None:
        raise ImportProblem("wget sends --body-data only with --method: add --method POST "
                            "(or use --post-data).")
    if len(urls) != 1:
        raise ImportProblem("The command has no URL: paste the whole command, URL included."
                            if not urls else
                            f"The command has {len(urls)} URLs; import one request at a time.")
    command = headers.command(urls[0], method or "GET", data, TOOL)
    command.notes = notes
    return command


def _unbundled(word: str) -> list[str]:
    """``-qO-`` -> ``-q -O -``; ``-O/tmp/x`` -> ``-O /tmp/x`` (a value ends the bundle)."""
    out: list[str] = []
    for position, char in enumerate(word[1:], start=1):
        out.append("-" + char)
        if char in _SHORT_WITH_VALUE:
            if rest := word[position + 1:]:
                out.append(rest)
            break
    return out
