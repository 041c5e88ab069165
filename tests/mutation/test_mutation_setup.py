"""`make mutate` mutates what issue 41 names and runs each module's own tests: the
runner's table, pyproject's [tool.mutmut] and the equivalent-mutant list agree."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parents[2]


def runner() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate_runner", ROOT / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


def test_mutmut_mutates_the_modules_table_and_runs_its_tests() -> None:
    mutate = runner()
    with (ROOT / "pyproject.toml").open("rb") as file:
        config = tomllib.load(file)["tool"]["mutmut"]
    assert config["only_mutate"] == mutate.mutated_files()
    assert config["pytest_add_cli_args_test_selection"] == mutate.selected_tests()
    missing = [path for path in mutate.mutated_files() + mutate.selected_tests()
               if not (ROOT / path).is_file()]
    assert missing == []


def test_each_equivalent_mutant_names_a_line_the_module_still_has() -> None:
    """A justification goes stale when its line changes: tools/mutate.py then counts the
    mutant as a survivor again; this test says so without running mutmut."""
    mutate = runner()
    stale = []
    for name, entry in mutate.load_equivalents().items():
        label = mutate.module_of(name)  # raises for a mutant of no listed module
        function = re.search(r"\.x_?(?:ǁ\w+ǁ)?(\w+?)__mutmut_\d+$", name)
        assert function is not None, name
        sources = "\n".join(" ".join(line.split()) for path in mutate.MODULES[label].files
                            for line in (ROOT / path).read_text().splitlines())
        if f"def {function.group(1)}(" not in sources or any(
                " ".join(part.split()) not in sources for part in entry["original"].split(" / ")):
            stale.append(name)
        assert entry["why"].strip(), name
    assert stale == []
