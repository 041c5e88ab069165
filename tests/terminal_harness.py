"""A program in a pseudo-terminal: type keys, read what it drew as plain text.

Just the standard library (``pty``-style ``os.openpty``, ``select``): the test
needs to know that a screen drew its text and nothing crashed, not an exact
picture, so escape sequences are removed rather than interpreted. Every wait
has a deadline.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), DCS/APC/PM (ESC P|_|^ ... ST), ESC + one.
_ESCAPES = re.compile(
    rb"\x1b\[[0-?]*[ -/]*[@-~]"
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    rb"|\x1b[P_^][^\x1b]*\x1b\\"
    rb"|\x1b[@-Z\\-_()*+][0-~]?"
)


def plain_text(raw: bytes) -> str:
    """``raw`` terminal output without escape sequences and control characters."""
    text = _ESCAPES.sub(b" ", raw).decode("utf-8", errors="replace")
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f]", " ", text)


class TerminalSession:
    """``command`` running in a pseudo-terminal of ``columns`` x ``lines``."""

    def __init__(
        self,
        command: Sequence[str],
        env: Mapping[str, str],
        *,
        columns: int = 120,
        lines: int = 36,
    ) -> None:
        self.raw = bytearray()
        self._master, replica = os.openpty()
        fcntl.ioctl(replica, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        self.process = subprocess.Popen(
            list(command), stdin=replica, stdout=replica, stderr=replica, env=dict(env),
            start_new_session=True, close_fds=True,
        )
        os.close(replica)

    def read_for(self, seconds: float) -> None:
        """Collect output for ``seconds`` (or until the program closes the terminal)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self._master], [], [], min(left, 0.1))
            if ready and not self._read_once():
                return

    def wait_for(self, pattern: str, *, since: int = 0, timeout: float = 20.0) -> bool:
        """Read until ``pattern`` (a regex; ``.`` matches line ends too) appears in the text
        drawn after byte ``since``."""
        deadline = time.monotonic() + timeout
        compiled = re.compile(pattern, re.DOTALL)
        while time.monotonic() < deadline:
            if compiled.search(plain_text(bytes(self.raw[since:]))):
                return True
            if self.process.poll() is not None:
                self.read_for(0.2)  # whatever it printed on the way out
                return bool(compiled.search(plain_text(bytes(self.raw[since:]))))
            self.read_for(0.1)
        return False

    def press(self, keys: str | bytes) -> int:
        """Type ``keys``; returns the output position before them (for ``wait_for(since=)``)."""
        mark = len(self.raw)
        os.write(self._master, keys.encode() if isinstance(keys, str) else keys)
        return mark

    def text(self, since: int = 0) -> str:
        """Everything drawn after byte ``since``, as plain text."""
        return plain_text(bytes(self.raw[since:]))

    def finish(self, timeout: float = 10.0) -> int:
        """Wait for the program to exit (killing it after ``timeout``); its exit code."""
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            self.read_for(0.1)
        if self.process.poll() is None:
            self.process.kill()
        code = self.process.wait(timeout=5)
        self.read_for(0.1)
        os.close(self._master)
        return code

    def _read_once(self) -> bool:
        try:
            chunk = os.read(self._master, 65536)
        except OSError:  # EIO: the program closed the terminal
            return False
        self.raw += chunk
        return bool(chunk)
