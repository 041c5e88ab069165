"""Ctrl+C in two steps for commands that spend: the first lets requests already on the
wire finish (they may be charged, so their answers are kept and recorded), the second
abandons them. Without a handler, asyncio cancels the command at once while the client
waits, silently, for the exchange it shields; then click prints a bare "Aborted!".
SIGTERM (a supervisor, ``kill``) may be handled too: it cannot wait, so it abandons."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def two_step_interrupt(first: Callable[[], None], second: Callable[[], None], *,
                       terminate: Callable[[], None] | None = None) -> Iterator[None]:
    """Within the block, the first SIGINT calls ``first`` and every later one ``second``;
    SIGTERM calls ``terminate`` when one is given (else SIGTERM keeps its usual meaning).

    Must run inside a running event loop. Where signals cannot be handled (not the main
    thread, no support), Ctrl+C keeps its usual meaning."""
    loop = asyncio.get_running_loop()
    presses = 0

    def interrupted() -> None:
        nonlocal presses
        presses += 1
        (first if presses == 1 else second)()

    handlers: dict[signal.Signals, Callable[[], None]] = {signal.SIGINT: interrupted}
    if terminate is not None:
        handlers[signal.SIGTERM] = terminate
    installed: list[signal.Signals] = []
    for signum, handler in handlers.items():
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signum, handler)
            installed.append(signum)
    try:
        yield
    finally:
        for signum in installed:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
