"""`make mutate`: mutation testing (mutmut) of the modules where a wrong condition costs
money or data, a score per module and every surviving mutant.

mutmut reads what to mutate and which tests to run from `[tool.mutmut]` in
pyproject.toml: the files and tests of MODULES below (tests/mutation checks the two
agree). It copies src/ and tests/ into mutants/, runs each module's fast targeted
tests once to learn which test reaches which function, then runs each mutant against
only the tests that reach it. A survivor is either killed by a new test or justified
as equivalent in tests/mutation/equivalent_mutants.toml (keyed by mutant name, with
the original line it changes, so a justification goes stale when the code does).

Usage: python tools/mutate.py [--keep | --report] [--only MODULE ...]   (--keep: resume
the last run's mutants/; --report: only print the last run's results again, say after
justifying one; --only: just these modules of MODULES, against just their own tests, in a
copy of the project under the temporary directory, so a module whose functions every
test reaches is not run against the whole selection)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "tests" / "mutation" / "equivalent_mutants.toml"
TARGET = 0.90  # killed or justified, per module (issue 41)


@dataclass(frozen=True)
class Module:
    """One part of the product the issue names: its source files and fast tests."""

    files: tuple[str, ...]
    tests: tuple[str, ...]


MODULES: dict[str, Module] = {
    "pricing": Module(("src/creditscope/client/pricing.py",),
                      ("tests/client/test_money.py",)),
    "budget and reservation": Module(
        ("src/creditscope/client/session.py",),
        ("tests/client/test_budget_and_flight.py", "tests/client/test_session_memory.py",
         "tests/client/test_ledger.py", "tests/client/test_money.py",
         "tests/client/test_budget_shared_by_tabs.py")),
    "request identity and folding": Module(
        ("src/creditscope/request_identity.py", "src/creditscope/text_folding.py"),
        ("tests/core/test_request_identity.py", "tests/client/test_same_request.py")),
    "cache freshness": Module(("src/creditscope/client/cache.py",),
                              ("tests/client/test_response_cache.py",
                               "tests/reliability/test_corruption.py",
                               "tests/client/test_store.py")),
    "reconciliation": Module(
        ("src/creditscope/client/reconcile.py",),
        ("tests/client/test_reconcile_and_headers.py", "tests/client/test_reconcile_sessions.py")),
    "batch planning and output": Module(
        ("src/creditscope/support/batch_plan.py", "src/creditscope/support/batch_output.py"),
        ("tests/support/test_batch.py", "tests/support/test_batch_same_request.py",
         "tests/support/test_batch_files.py", "tests/support/test_batch_plan.py",
         "tests/support/test_batch_corpus.py", "tests/support/test_batch_desk_files.py")),
    "row export": Module(("src/creditscope/row_export.py",), ("tests/core/test_row_export.py",)),
    "website rules": Module(("src/creditscope/web_hosts.py",),
                            ("tests/core/test_request_identity.py",)),
    "spend guard": Module(("src/creditscope/tui/spend_guard.py",),
                          ("tests/tui/test_spend_guard.py",)),
    "URL and text boundaries": Module(
        ("src/creditscope/link_safety.py", "src/creditscope/outside_text.py"),
        ("tests/security/test_outside_text.py", "tests/security/test_markup_escaped.py",
         "tests/security/test_lone_surrogates.py")),
}


def mutated_files() -> list[str]:
    return sorted({path for module in MODULES.values() for path in module.files})


def selected_tests() -> list[str]:
    return sorted({path for module in MODULES.values() for path in module.tests})


def dotted(path: str) -> str:
    """``src/creditscope/client/cache.py`` -> ``creditscope.client.cache``."""
    return path.removeprefix("src/").removesuffix(".py").replace("/", ".")


def module_of(mutant: str) -> str:
    """The MODULES label a mutant name (``creditscope.x.y.xǁCǁf__mutmut_3``) belongs to."""
    for label, module in MODULES.items():
        if any(mutant.startswith(dotted(path) + ".") for path in module.files):
            return label
    raise LookupError(mutant)


def load_equivalents() -> dict[str, dict[str, str]]:
    """Mutant name -> {original, mutant, why}: the survivors justified as equivalent."""
    with EQUIVALENTS.open("rb") as file:
        return tomllib.load(file)


def toml_list(values: list[str]) -> str:
    return "[\n" + "".join(f'    "{value}",\n' for value in values) + "]"


def project_directory(labels: list[str] | None) -> Path:
    """Where mutmut runs: the project itself, or the copy for ``--only`` these modules."""
    if not labels:
        return ROOT
    return Path(tempfile.gettempdir()) / ("creditscope-mutate-" + "-".join(
        re.sub(r"\W+", "_", label) for label in labels))


def project_for(labels: list[str]) -> Path:
    """A copy of the project whose [tool.mutmut] mutates only ``labels``' files and runs
    only their tests (the same settings otherwise); mutmut runs there."""
    modules = [MODULES[label] for label in labels]
    copy = project_directory(labels)
    for part in ("src", "tests", "tools"):
        shutil.rmtree(copy / part, ignore_errors=True)
        shutil.copytree(ROOT / part, copy / part,
                        ignore=shutil.ignore_patterns("__pycache__", "__snapshots__"))
    settings = (ROOT / "pyproject.toml").read_text()
    for key, values in (("only_mutate", [f for m in modules for f in m.files]),
                        ("pytest_add_cli_args_test_selection",
                         sorted({t for m in modules for t in m.tests}))):
        settings = re.sub(rf"^{key} = \[.*?^\]", lambda _, v=values, k=key:
                          f"{k} = {toml_list(v)}", settings, count=1, flags=re.M | re.S)
    (copy / "pyproject.toml").write_text(settings)
    return copy


def mutmut(*args: str) -> str:
    done = subprocess.run([str(Path(sys.executable).parent / "mutmut"), *args],
                          cwd=os.getcwd(), capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"mutmut {' '.join(args)} failed:\n{done.stdout[-4000:]}{done.stderr[-4000:]}")
    return done.stdout


def changed_lines(mutant: str) -> tuple[str, str]:
    """(original, mutated) line of ``mutant``, from its diff (what `mutmut show` prints;
    asked in this process, since a `mutmut show` per survivor takes seconds)."""
    from mutmut.mutation.diff_apply import find_mutant, get_diff_for_mutant

    diff = get_diff_for_mutant(mutant, path=find_mutant(mutant).path)
    removed = [line[1:].strip() for line in diff.splitlines()
               if line.startswith("-") and not line.startswith("---")]
    added = [line[1:].strip() for line in diff.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    return " / ".join(removed), " / ".join(added)


def results() -> dict[str, str]:
    """Mutant name -> mutmut's status (killed, survived, no tests, timeout, ...)."""
    found: dict[str, str] = {}
    for line in mutmut("results", "--all", "true").splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = status
    return found


def report(statuses: dict[str, str], seconds: float, labels: list[str] | None = None) -> int:
    """Print the score per module (of ``labels``, or all) and the survivors; 1 when a
    module is under TARGET or a justification no longer matches its mutant."""
    equivalents = load_equivalents()
    counts: dict[str, Counter[str]] = {label: Counter() for label in labels or MODULES}
    survivors: dict[str, list[str]] = {label: [] for label in labels or MODULES}
    stale: list[str] = []
    for name, status in sorted(statuses.items()):
        label = module_of(name)
        if status == "killed":
            counts[label]["killed"] += 1
        elif name in equivalents and status == "survived":
            original, mutated = changed_lines(name)
            justified = equivalents[name]
            if (justified["original"], justified["mutant"]) == (original, mutated):
                counts[label]["equivalent"] += 1
                continue
            stale.append(f"{name}: the list says {justified['original']!r} -> "
                         f"{justified['mutant']!r}, the mutant is {original!r} -> {mutated!r}")
            counts[label]["survived"] += 1
            survivors[label].append(name)
        else:  # survived, no tests, timeout, suspicious: not caught by a test
            counts[label]["survived"] += 1
            survivors[label].append(f"{name} ({status})" if status != "survived" else name)
    failing = False
    print(f"\n{'module':<30} {'mutants':>7} {'killed':>6} {'equiv':>5} {'left':>5} {'score':>6}")
    for label, count in counts.items():
        total = sum(count.values())
        score = (count["killed"] + count["equivalent"]) / total if total else 1.0
        failing |= score < TARGET
        print(f"{label:<30} {total:>7} {count['killed']:>6} {count['equivalent']:>5} "
              f"{count['survived']:>5} {score:>6.0%}")
    if seconds:
        print(f"\n{len(statuses)} mutants in {seconds:.0f} s")
    for label, names in survivors.items():
        if names:
            print(f"\nSurvivors in {label} (`mutmut show NAME` prints one):")
            for name in names:
                original, mutated = changed_lines(name.split(" ")[0])
                print(f"  {name}\n      {original}\n   -> {mutated}")
    for line in stale:
        print(f"\nStale justification: {line}")
    return 1 if failing or stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="resume the last run's mutants/")
    parser.add_argument("--report", action="store_true", help="print the last run's results")
    parser.add_argument("--only", action="append", choices=list(MODULES), metavar="MODULE",
                        help="just this module (repeatable), against its own tests")
    args = parser.parse_args()
    labels: list[str] | None = args.only
    # mutmut finds mutants/ and its settings in the directory it runs in.
    os.chdir(project_for(labels) if labels and not args.report else
             project_directory(labels))
    if args.report:
        return report(results(), 0.0, labels)
    if not args.keep:
        shutil.rmtree("mutants", ignore_errors=True)
    started = time.monotonic()
    modules = [MODULES[label] for label in labels or MODULES]
    print(f"mutmut: {sum(len(m.files) for m in modules)} files,"
          f" {len({t for m in modules for t in m.tests})} test files in {os.getcwd()} ...")
    done = subprocess.run([str(Path(sys.executable).parent / "mutmut"), "run",
                           "--max-children", "2"], check=False,
                          capture_output=True, text=True)
    if done.returncode != 0:  # its clean run failed, or it could not start
        print(done.stdout[-6000:], done.stderr[-6000:], sep="\n")
        return done.returncode
    return report(results(), time.monotonic() - started, labels)


if __name__ == "__main__":
    sys.exit(main())
