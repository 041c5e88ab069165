"""Each shell's quoting read back to the words its program receives."""

from __future__ import annotations

import pytest

from creditscope.support.paste_cleanup import clean_punctuation
from creditscope.support.shell_words import Dialect, UnclosedQuote, dialect_of, split_words

CASES: list[tuple[str, Dialect, list[str]]] = [
    # bash: ANSI-C escapes as Chrome writes them (\u0021 for !, \' and \n), octal, hex
    (r"""curl --data-raw $'{"a":"O\'B\u0021\nx\\y\x41\101\t"}'""", "posix",
     ["curl", "--data-raw", '{"a":"O\'B!\nx\\yAA\t"}']),
    ("curl 'a'\"b\"$'c' d\\ e", "posix", ["curl", "abc", "d e"]),
    ("curl x \\\n  -H 'h: v' # a comment\n", "posix", ["curl", "x", "-H", "h: v"]),
    ('curl "a \\"q\\" $HOME \\\\"', "posix", ["curl", 'a "q" $HOME \\']),
    ("curl ''", "posix", ["curl", ""]),
    # cmd: Chrome's ^"…^", ^\^" for a quote, ^% before a letter, ^^, and ^ + two newlines
    ('curl ^"a^\\^"b^\\^"^" ^\n  -d ^"50^%^25 ^^ ^&^"', "cmd", ["curl", 'a"b"', "-d", "50%25 ^ &"]),
    ('curl ^"line1^\n\nline2^"', "cmd", ["curl", "line1\nline2"]),
    ('curl ^"C:^\\^\\dir^"', "cmd", ["curl", "C:\\dir"]),  # Chrome doubled the backslash
    ('curl "a""b" ^\n "c\\"d"', "cmd", ["curl", 'a"b', 'c"d']),  # hand-written: C runtime
    # PowerShell: backtick continuations and escapes, '' in single quotes, \" for curl.exe
    ("curl.exe `\n  -d '{\\\"n\\\": \\\"O''B\\\"}' \"`\"q`\" `$x\"", "powershell",
     ["curl.exe", "-d", '{"n": "O\'B"}', '"q" $x']),
]


@pytest.mark.parametrize(("text", "dialect", "words"), CASES)
def test_each_dialect_is_read_as_its_shell_reads_it(
    text: str, dialect: Dialect, words: list[str],
) -> None:
    assert dialect_of(text) == dialect
    assert split_words(text, dialect).words == words


def test_a_pipe_ends_the_command_and_is_returned_apart() -> None:
    split = split_words("curl -s 'a|b' | jq '.x'", "posix")
    assert split.words == ["curl", "-s", "a|b"]
    assert split.rest == "| jq '.x'"


@pytest.mark.parametrize(("text", "dialect"), [
    ("curl 'open", "posix"), ("curl $'open\\'", "posix"), ('curl ^"a" "b', "cmd"),
    ('curl.exe "open', "powershell"),
])
def test_an_unclosed_quote_is_reported(text: str, dialect: Dialect) -> None:
    with pytest.raises(UnclosedQuote):
        split_words(text, dialect)


def test_chat_punctuation_is_made_plain_only_where_it_quotes() -> None:
    assert clean_punctuation("curl —data ‘{“n”: “x”}’ –H ‘a: b’") == (
        "curl --data '{\"n\": \"x\"}' -H 'a: b'", True)
    # plain quotes do the quoting: the curly ones are the customer's data
    assert clean_punctuation("curl -d '{\"n\": \"“Le Zinc” O’Brien\"}'") == (
        "curl -d '{\"n\": \"“Le Zinc” O’Brien\"}'", False)
