"""The terminal test harness's ``Terminal`` surface, driven through tmux instead of pyte.

``tests/terminal_harness.py`` reads the program's output through pyte, an emulator in
pure Python: on these 2 cores it parses a redrawn 120x36 screen in tens of
milliseconds, so a key-to-screen time there holds the emulator's parsing too. tmux is
the terminal a user has (its emulator in C); this class lets a benchmark run the same
steps in a tmux pane, so the two can be printed side by side.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping, Sequence

from _common import Tmux, close, launch

KEYS = {b"\r": "Enter", b"\x1b": "Escape", b"\t": "Tab"}
POLL_S = 0.002
SPENT = re.compile(r"(\d[\d ]*) cr spent")


class TmuxTerminal:
    """One program in a 120x36 tmux pane (a private server of its own)."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str]) -> None:
        self._tmux = Tmux(f"creditscope-beside-{os.getpid()}")
        self._tmux.start()
        self.pane, self.pid, _ = launch(self._tmux, list(command), dict(env))

    def text(self) -> str:
        return self._tmux.screen(self.pane)

    def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        compiled = re.compile(pattern, re.DOTALL)
        deadline = time.monotonic() + timeout
        while True:
            found = compiled.search(self.text())
            if found:
                return found
            if time.monotonic() >= deadline:
                raise AssertionError(f"/{pattern}/ not on screen after {timeout}s:\n"
                                     f"{self.text()}")
            time.sleep(0.02)

    def send(self, keys: bytes) -> None:
        named = KEYS.get(keys)
        if named is not None:
            self._tmux.keys(self.pane, named)
        else:
            self._tmux.keys(self.pane, keys.decode(), literal=True)

    def press_escape(self) -> None:
        self.send(b"\x1b")
        time.sleep(0.3)  # a key right after Escape would read as Alt+key

    def fill_place(self, place: str, price: str) -> None:
        """``/``, then ``place`` a key every 20 ms, until the box and ``price`` show."""
        self.send(b"/")
        time.sleep(0.2)
        for char in place:
            self._tmux.keys(self.pane, char, literal=True)
            time.sleep(0.02)
        self.wait_for(re.escape(f"▊  {place}") + ".*" + re.escape(price), timeout=15)

    def timed(self, key: bytes, pattern: str, timeout: float = 10.0) -> float:
        """Milliseconds from sending ``key`` until ``pattern`` is on the pane's screen."""
        compiled = re.compile(pattern)
        started = time.perf_counter()
        self.send(key)
        while not compiled.search(self.text()):
            if time.perf_counter() - started > timeout:
                raise AssertionError(f"/{pattern}/ not on screen {timeout}s after the key")
            time.sleep(POLL_S)
        return (time.perf_counter() - started) * 1000

    def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        before = self.text()
        while time.monotonic() < deadline:
            time.sleep(quiet)
            now = self.text()
            if now == before:
                return
            before = now

    def spent(self) -> int:
        found = SPENT.search(self.text())
        return int(found.group(1).replace(" ", "")) if found else 0

    def quit(self) -> int:
        close(self._tmux, self.pane, self.pid)
        self._tmux.stop()
        return 0
