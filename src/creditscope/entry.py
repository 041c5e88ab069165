"""The ``creditscope`` program (the console script and ``python -m creditscope``).

A bare ``creditscope`` opens the explorer before importing click: the command group
(click and its parser) would add ~30 ms to the explorer's first frame. Everything
else goes to the group in :mod:`creditscope.cli` exactly as before: a command, an
option, ``--help``, shell completion, and the report of how the explorer ended, so
its warnings and its usage error (exit status 2) read as ``creditscope tui``'s.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    """Run ``creditscope`` with ``sys.argv``."""
    if sys.argv[1:] or _completing():
        try:
            from creditscope.cli import main as command_group
        except KeyboardInterrupt:  # Ctrl+C before the command even started: exit 130
            sys.stderr.write("\nInterrupted (Ctrl+C).\n")
            sys.exit(130)
        command_group()
        return
    try:
        from creditscope.commands.explorer import open_explorer

        ending = open_explorer()
    except (KeyboardInterrupt, EOFError):
        # What click prints for these (the group would have caught them).
        sys.stderr.write("\nAborted!\n")
        sys.exit(1)
    if ending.has_news:
        from creditscope.cli import main as command_group

        command_group(args=[], obj=ending)


def _completing() -> bool:
    """True when a shell asks for completions (click's ``_<PROG>_COMPLETE`` variable)."""
    return any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ)
