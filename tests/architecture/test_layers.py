"""The module graph keeps its layers, with arrows one way (see ARCHITECTURE.md).

    cli.py  commands/  tui/  doctor/  wiring.py   the composition root, on top
                                                  (doctor/ never imports tui/)
    support/ -> client/          sandbox/          peers: neither imports the other
                                                  (support/ imports neither tui/ nor commands/)
    models.py  request_models.py  operations.py    shared by both; they import neither,
    text_folding.py  web_hosts.py  request_identity.py   only the pure modules below them
    ignorable_characters.py

A failure names the offending import (file and line) and the rule it breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from import_graph import Import, ImportGraph, read_graph

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "creditscope"

# Pure modules every layer may use: they import nothing of the package but each other.
PURE = ("creditscope.text_folding", "creditscope.web_hosts", "creditscope.request_identity",
        "creditscope.ignorable_characters")
# The bottom layer: what models.py and operations.py may import from the package.
FOUNDATION = ("creditscope", "creditscope.models", "creditscope.request_models",
              "creditscope.operations", *PURE)


@dataclass(frozen=True)
class Rule:
    """Modules under ``importers`` must not import anything under ``forbidden``."""

    importers: tuple[str, ...]
    forbidden: tuple[str, ...]
    why: str
    allowed: tuple[str, ...] = ()  # exact names let through despite ``forbidden``

    def broken_by(self, imp: Import) -> bool:
        return (_under(imp.importer, self.importers) and _under(imp.target, self.forbidden)
                and imp.target not in self.allowed)


# The composition root and the tools on top of the client: nothing below imports them.
ABOVE = ("creditscope.tui", "creditscope.wiring", "creditscope.sandbox_thread",
         "creditscope.entry", "creditscope.cli", "creditscope.commands", "creditscope.doctor",
         "creditscope.support", "textual")

RULES = (
    Rule(("creditscope.client",), ("creditscope.sandbox", *ABOVE),
         "client/ is HTTP and money: it knows neither the service it talks to nor screens"),
    Rule(("creditscope.sandbox",), ("creditscope.client", *ABOVE),
         "sandbox/ is the service: it must not depend on the client that calls it, nor screens"),
    Rule(("creditscope.models", "creditscope.request_models", "creditscope.operations"),
         ("creditscope", "textual", "httpx", "fastapi"),
         "models.py, request_models.py and operations.py are the shared bottom layer: they "
         "import only each other "
         "and the pure modules", allowed=FOUNDATION),
    Rule(PURE, ("creditscope", "textual"),
         "text_folding.py, web_hosts.py, request_identity.py and ignorable_characters.py "
         "are shared by every layer "
         "(sandbox and client included): they import nothing of the package but each other",
         allowed=("creditscope", *PURE)),
    Rule(("creditscope.doctor",), ("creditscope.tui",),
         "doctor/ checks the machine without the explorer: it must run where the explorer "
         "cannot start (it only reads which Textual patches are off, guarded)",
         allowed=("creditscope.tui.textual_patch",)),
    Rule(("creditscope.support",), ("creditscope.tui", "creditscope.commands"),
         "support/ serves the explorer and the commands alike: it knows neither"),
)


def _under(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


@pytest.fixture(scope="module")
def graph() -> ImportGraph:
    return read_graph(PACKAGE)


def _report(imports: list[Import]) -> str:
    return "\n".join(f"  {imp.where(REPO)}: {imp.importer} imports {imp.target}"
                     for imp in imports)


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.importers[0])
def test_layer_never_imports_upward_or_sideways(graph: ImportGraph, rule: Rule) -> None:
    broken = [imp for imp in graph.imports if rule.broken_by(imp)]
    assert not broken, f"{rule.why}:\n{_report(broken)}"


def test_the_in_process_sandbox_is_wired_only_by_the_composition_root(
    graph: ImportGraph,
) -> None:
    # FastAPI's app is built in one place for the explorer and `call` (wiring.py),
    # and by `serve`, which runs it over HTTP.
    allowed = ("creditscope.wiring", "creditscope.commands.serve", "creditscope.sandbox")
    builders = [
        imp for imp in graph.imports
        if imp.target == "creditscope.sandbox.app" and not _under(imp.importer, allowed)
    ]
    assert not builders, (
        f"build the in-process sandbox through creditscope.wiring:\n{_report(builders)}"
    )


def test_no_import_cycles(graph: ImportGraph) -> None:
    cycles = graph.cycles()
    shown = "\n\n".join(_report(cycle) for cycle in cycles)
    assert not cycles, f"{len(cycles)} import cycle(s); break each one:\n{shown}"


# The checker itself, on a small package written for the purpose.


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_checker_finds_a_cycle_through_a_deferred_import(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": "def later():\n    from pkg.a import thing\n",
        "pkg/c.py": "from pkg import a\n",
    })
    cycles = read_graph(package).cycles()
    assert [[(imp.importer, imp.target, imp.line) for imp in cycle] for cycle in cycles] == [
        [("pkg.a", "pkg.b", 1), ("pkg.b", "pkg.a", 2)]
    ]


def test_checker_ignores_type_checking_imports_but_not_their_else(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/a.py": "from pkg import b\n",
        "pkg/b.py": (
            "import typing\n"
            "if typing.TYPE_CHECKING:\n    from pkg import a\n"
            "else:\n    import textual\n"
        ),
    })
    graph = read_graph(package)
    assert graph.cycles() == []
    assert {(imp.importer, imp.target) for imp in graph.imports} == {
        ("pkg.a", "pkg.b"), ("pkg.b", "typing"), ("pkg.b", "textual"),
    }


def test_checker_resolves_relative_imports_and_names(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/models.py": "",
        "pkg/sub/__init__.py": "from .inner import x\n",
        "pkg/sub/inner.py": "from .. import models\nfrom ..models import Thing\n",
    })
    targets = {(imp.importer, imp.target) for imp in read_graph(package).imports}
    assert targets == {
        ("pkg.sub", "pkg.sub.inner"),
        ("pkg.sub.inner", "pkg.models"),
    }
