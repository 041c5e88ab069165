"""Each promise the README makes about money, keys, files or data names the tests that
fail when it breaks (tests/readme_promises.toml), and the list keeps up with the README."""

from __future__ import annotations

import ast
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from readme_sentences import promise_sentences

ROOT = Path(__file__).parents[2]
PROMISES = ROOT / "tests" / "readme_promises.toml"


def _collapsed(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def listed() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    with PROMISES.open("rb") as file:
        table = tomllib.load(file)
    return table["promise"], table["aside"]


def readme_promises() -> list[str]:
    return promise_sentences((ROOT / "README.md").read_text())


@cache
def _test_names(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text())
    return frozenset(node.name for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))


def missing_test(node_id: str) -> str | None:
    """Why ``node_id`` (``tests/x.py::test_y``) names no test, or None when it does."""
    path, _, name = node_id.partition("::")
    if not (ROOT / path).is_file():
        return f"{node_id}: no file {path}"
    if not name.startswith("test_") or name not in _test_names(ROOT / path):
        return f"{node_id}: no test {name} in {path}"
    return None


def test_every_promise_sentence_of_the_readme_is_listed() -> None:
    promises, asides = listed()
    fragments = [_collapsed(str(entry["text"])) for entry in promises + asides]
    unlisted = [sentence for sentence in readme_promises()
                if not any(fragment in sentence for fragment in fragments)]
    assert unlisted == [], (
        "README sentences promising something with no entry in tests/readme_promises.toml "
        "(a [[promise]] with the tests that fail when it breaks, or an [[aside]] saying "
        "why it is not about money, keys, files or data):\n" + "\n".join(unlisted))


def test_every_listed_promise_is_still_in_the_readme_and_names_real_tests() -> None:
    promises, asides = listed()
    sentences = readme_promises()
    gone = [str(entry["text"]) for entry in promises + asides
            if not any(_collapsed(str(entry["text"])) in sentence for sentence in sentences)]
    assert gone == [], "listed, but no README promise says it any more:\n" + "\n".join(gone)
    untested = [str(entry["text"]) for entry in promises if not entry.get("tests")]
    assert untested == [], "promises without a test:\n" + "\n".join(untested)
    wrong = [problem for entry in promises for node_id in entry["tests"]
             if (problem := missing_test(node_id))]
    assert wrong == []
    assert all(str(entry.get("why", "")).strip() for entry in asides)


def test_the_sentence_reader_finds_promises_and_only_them() -> None:
    text = ("Intro line one.\nIt never sends the key. A plain sentence.\n\n"
            "- **Files** are written 0600; nothing else.\n\n```\nnever in code\n```\n"
            "## A heading that never counts\n| cost? | never charged |\n")
    assert promise_sentences(text) == ["It never sends the key.",
                                       "- **Files** are written 0600; nothing else.",
                                       "| cost? | never charged |"]
