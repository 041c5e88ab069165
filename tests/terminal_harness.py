"""The installed ``creditscope`` in a pseudo-terminal, typed at as a terminal types, its
screen read through a terminal emulator.

Pilot hands one key at a time to the focused widget; a terminal does not. Here keys are
bytes written to a pty (``pexpect``): escape sequences, bursts with gaps of 0-10 ms,
bracketed pastes, so focus changes race the keys as they do for people. What the program
draws goes through ``pyte`` (an xterm emulator), so a test reads the screen a user sees,
cell by cell, rather than a stream of escape codes. Every wait has a deadline, and a
failed wait shows the screen.

The command is the venv's own ``creditscope`` console script (the entry point users run),
with HOME, config, cache and data in a temporary directory; ``TERMINAL_TEST_COMMAND``
points it at another build (today's main, say) to see a flow fail there.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pexpect
import pyte

COMMAND_ENV = "TERMINAL_TEST_COMMAND"  # not CREDITSCOPE_*: the suite clears those
COLUMNS, LINES = 120, 36

# Keys as a terminal sends them (xterm, application cursor keys off).
ENTER = b"\r"
TAB = b"\t"
ESCAPE = b"\x1b"
BACKSPACE = b"\x7f"
CTRL_Q = b"\x11"
PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"
# How long Textual waits after a lone ESC before it reads it as Escape rather than the
# start of a sequence; a person is never faster than this between Escape and a digit.
ESCAPE_SETTLE = 0.15


def installed_command() -> str:
    """The ``creditscope`` script beside this interpreter (or the one the env names)."""
    return os.environ.get(COMMAND_ENV) or str(Path(sys.executable).parent / "creditscope")


def isolated_env(root: Path) -> dict[str, str]:
    """An environment whose HOME, config, cache and data all live under ``root``."""
    dirs = {name: root / name for name in ("home", "config", "cache", "data")}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
    env = {name: os.environ[name] for name in keep if name in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    return env | {
        "HOME": str(dirs["home"]),
        "XDG_CONFIG_HOME": str(dirs["config"]),
        "XDG_CACHE_HOME": str(dirs["cache"]),
        "XDG_DATA_HOME": str(dirs["data"]),
        "CREDITSCOPE_CONFIG_FILE": str(dirs["config"] / "config.toml"),
        "CREDITSCOPE_CACHE_DIR": str(dirs["cache"]),
        "CREDITSCOPE_DATA_DIR": str(dirs["data"]),
        "TERM": "xterm-256color",
        "COLORTERM": "truecolor",
    }


class Terminal:
    """One program in a ``columns`` x ``lines`` pseudo-terminal with an emulated screen."""

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        *,
        columns: int = COLUMNS,
        lines: int = LINES,
        seed: int = 0,
    ) -> None:
        self.env = dict(env)
        self.command = list(command)
        self.screen = pyte.Screen(columns, lines)
        self._stream = pyte.ByteStream(self.screen)
        self._gaps = random.Random(seed)  # the same bursts on every run
        self.parse_ms = 0.0
        """Of the last :meth:`timed` key, the milliseconds pyte spent reading the output."""
        self.child = pexpect.spawn(
            self.command[0], self.command[1:], env=self.env, dimensions=(lines, columns),
            echo=False, timeout=None,
        )

    # --- reading ---------------------------------------------------------------------

    def pump(self, seconds: float = 0.0) -> None:
        """Feed the emulator what the program wrote, for up to ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.02)
            except pexpect.TIMEOUT:
                chunk = b""
            except pexpect.EOF:
                return
            if chunk:
                self._stream.feed(chunk)
            elif time.monotonic() >= deadline:
                return

    def text(self) -> str:
        """The screen as it is now, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 15.0) -> re.Match[str]:
        """Read until ``pattern`` (a regex; ``.`` crosses rows) is on screen; else fail
        with the screen."""
        compiled = re.compile(pattern, re.DOTALL)
        deadline = time.monotonic() + timeout
        while True:
            self.pump(0.05)
            found = compiled.search(self.text())
            if found:
                return found
            if time.monotonic() >= deadline or not self.child.isalive():
                self.pump(0.1)
                raise AssertionError(f"/{pattern}/ not on screen after {timeout}s:\n{self.text()}")

    def timed(self, key: bytes, pattern: str, timeout: float = 10.0) -> float:
        """Milliseconds from writing ``key`` until ``pattern`` (a regex) is on screen, the
        screen read as soon as the program writes; fails with the screen past ``timeout``."""
        compiled = re.compile(pattern)
        started = time.perf_counter()
        self.parse_ms = 0.0
        self.send(key)
        while True:
            try:
                chunk = self.child.read_nonblocking(65536, timeout=0.002)
            except pexpect.TIMEOUT:
                chunk = b""
            if chunk:
                parsing = time.perf_counter()
                self._stream.feed(chunk)
                found = compiled.search(self.text())
                self.parse_ms += (time.perf_counter() - parsing) * 1000
                if found:
                    return (time.perf_counter() - started) * 1000
            if time.perf_counter() - started > timeout or not self.child.isalive():
                raise AssertionError(f"/{pattern}/ not on screen {timeout}s after the key:\n"
                                     f"{self.text()}")

    def fill_place(self, place: str, price: str) -> None:
        """``/`` (the area's place box, its text selected), then ``place`` typed, until
        the box holds it and its button says ``price`` ("Search · cached · free")."""
        self.send(b"/")
        time.sleep(0.15)
        self.burst([place], gap_ms=(5, 15))
        self.wait_for(re.escape(f"▊  {place}") + ".*" + re.escape(price), timeout=15)

    def settle(self, quiet: float = 0.3, timeout: float = 10.0) -> None:
        """Read until the program has drawn nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            before = self.text(), self.screen.cursor.x, self.screen.cursor.y
            self.pump(quiet)
            if (self.text(), self.screen.cursor.x, self.screen.cursor.y) == before:
                return

    def row(self, pattern: str) -> str:
        """The first screen row that matches ``pattern`` ("" when none does)."""
        compiled = re.compile(pattern)
        return next((line for line in self.text().splitlines() if compiled.search(line)), "")

    def spent(self) -> int:
        """The header's meter: credits spent this session (0 before any spend)."""
        found = re.search(r"(\d[\d ]*) cr spent", self.text())
        return int(found.group(1).replace(" ", "")) if found else 0

    # --- typing ----------------------------------------------------------------------

    def send(self, keys: bytes) -> None:
        """Write ``keys`` at once, as a terminal does for one key or a sequence."""
        self.child.send(keys)

    def burst(self, keys: Iterable[str | bytes], gap_ms: tuple[int, int] = (0, 10)) -> None:
        """Each of ``keys`` (a str is typed character by character) written with a gap
        of ``gap_ms`` milliseconds between keys, as fast typing arrives."""
        for key in keys:
            pieces = [c.encode() for c in key] if isinstance(key, str) else [key]
            for piece in pieces:
                self.send(piece)
                time.sleep(self._gaps.uniform(*gap_ms) / 1000)
                self.pump()

    def paste(self, text: str) -> None:
        """``text`` as a bracketed paste (Textual turns that mode on)."""
        self.send(PASTE_START + text.encode() + PASTE_END)

    def press_escape(self) -> None:
        """Escape alone, then the pause that makes it Escape rather than Alt+key."""
        self.send(ESCAPE)
        time.sleep(ESCAPE_SETTLE)
        self.pump()

    # --- ending ----------------------------------------------------------------------

    def quit(self, timeout: float = 15.0) -> int:
        """Ctrl+Q, then wait for the program to end (killed past ``timeout``)."""
        if self.child.isalive():
            self.send(CTRL_Q)
        deadline = time.monotonic() + timeout
        while self.child.isalive() and time.monotonic() < deadline:
            self.pump(0.1)
        if self.child.isalive():
            self.child.terminate(force=True)
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    def charges(self) -> list[dict[str, Any]]:
        """The calls that cost credits, oldest first, from the ledger (``history``; read
        it after :meth:`quit`): each with its ``operation``, ``params`` and
        ``credits_charged``."""
        calls = self.cli("history")
        return [call for call in reversed(calls) if call["credits_charged"]]

    def cli(self, *args: str, timeout: float = 60.0) -> Any:
        """``creditscope ARGS --json`` with this terminal's environment, parsed."""
        done = subprocess.run(
            [self.command[0], *args, "--json"], env=self.env, capture_output=True, text=True,
            timeout=timeout, check=True,
        )
        return json.loads(done.stdout)
