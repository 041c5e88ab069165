"""The package's import graph, read from the source with ``ast`` (nothing is imported).

An edge is any ``import`` or ``from ... import`` a module runs, at module level
or inside a function (a deferred import still couples the two modules), but not
one under ``if TYPE_CHECKING:``: that exists only for the type checker.
"""

from __future__ import annotations

import ast
import gc
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Import:
    """One import statement's target, and where it is written."""

    importer: str  # dotted module name, e.g. "creditscope.client.client"
    target: str  # dotted name imported, e.g. "creditscope.models" or "httpx"
    path: Path
    line: int

    def where(self, root: Path) -> str:
        """``src/creditscope/client/client.py:12`` (relative to ``root`` when inside it)."""
        try:
            shown = self.path.relative_to(root)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"


@dataclass
class ImportGraph:
    """Every module of one package and the imports each runs."""

    package_dir: Path
    modules: dict[str, Path] = field(default_factory=dict, repr=False)
    imports: list[Import] = field(default_factory=list, repr=False)

    def internal_edges(self) -> dict[str, list[Import]]:
        """Module -> its imports of other modules of the package."""
        edges: dict[str, list[Import]] = {name: [] for name in self.modules}
        for imp in self.imports:
            if imp.target in self.modules and imp.target != imp.importer:
                edges[imp.importer].append(imp)
        return edges

    def cycles(self) -> list[list[Import]]:
        """Each import cycle (a strongly connected group of modules), as the imports in it."""
        edges = self.internal_edges()
        groups = [g for g in _strongly_connected(edges) if len(g) > 1]
        return [
            sorted(
                (imp for name in group for imp in edges[name] if imp.target in group),
                key=lambda imp: (imp.importer, imp.line),
            )
            for group in sorted(groups, key=sorted)
        ]


def read_graph(package_dir: Path) -> ImportGraph:
    """The import graph of the package in ``package_dir`` (named after the folder)."""
    graph = ImportGraph(package_dir)
    root = package_dir.parent
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        graph.modules[".".join(parts)] = path
    for name, path in graph.modules.items():
        is_package = path.name == "__init__.py"
        tree = _parse(path)
        for node in sorted(_runtime_imports(tree), key=lambda node: node.lineno):
            for target in _targets(node, name, is_package, graph.modules):
                graph.imports.append(Import(name, target, path, node.lineno))
    return graph


def _parse(path: Path) -> ast.Module:
    # Python 3.11 raises "SystemError: AST constructor recursion depth mismatch" when
    # the garbage collector runs a finalizer while the tree is built (CPython
    # gh-106905), e.g. an earlier test's asyncio task logging its exception: no
    # collection while parsing.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    finally:
        if enabled:
            gc.enable()


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, skipping the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)  # the else branch does run
            continue
        stack.extend(ast.iter_child_nodes(node))


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _targets(
    node: ast.Import | ast.ImportFrom, importer: str, is_package: bool, modules: dict[str, Path]
) -> list[str]:
    """The dotted names one statement imports. ``from pkg import mod`` names the submodule
    ``pkg.mod`` when there is one, else ``pkg`` itself (a name defined in it)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        # Relative: level 1 is the importer's own package.
        package = importer.split(".") if is_package else importer.split(".")[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, base] if base else package)
    targets = []
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        targets.append(submodule if submodule in modules else base)
    return list(dict.fromkeys(targets))


def _strongly_connected(edges: dict[str, list[Import]]) -> list[set[str]]:
    """Tarjan's algorithm, iterative (the graph has a few hundred modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[set[str]] = []
    counter = 0
    for start in edges:
        if start in index:
            continue
        work: list[tuple[str, Iterator[Import]]] = [(start, iter(edges[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                target = child.target
                if target not in index:
                    index[target] = low[target] = counter
                    counter += 1
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(edges[target])))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                groups.append(group)
    return groups
