"""Ctrl+C in two steps for commands that spend: the first lets requests already on the
wire finish (they may be charged, so their answers are kept and recorded), the second
abandons them. Without a handler, asyncio cancels the command at once while the client
waits, silently, for the exchange it shields; then click prints a bare "Aborted!"."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def two_step_interrupt(first: Callable[[], None], second: Callable[[], None]) -> Iterator[None]:
    """Within the block, the first SIGINT calls ``first`` and every later one ``second``.

    Must run inside a running event loop. Where signals cannot be handled (not the main
    thread, no support), Ctrl+C keeps its usual meaning."""
    loop = asyncio.get_running_loop()
    presses = 0

    def interrupted() -> None:
        nonlocal presses
        presses += 1
        (first if presses == 1 else second)()

    installed = False
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGINT, interrupted)
        installed = True
    try:
        yield
    finally:
        if installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signal.SIGINT)
