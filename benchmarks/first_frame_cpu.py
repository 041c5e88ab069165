"""CPU time to the first frame: ``creditscope`` vs a minimal Textual app, in a pseudo-terminal.

Run: ``.venv/bin/python benchmarks/first_frame_cpu.py [--runs 10] [--other PATH/bin/creditscope]``

Wall times swing with the machine's load; the CPU an app spends before its first frame
does much less. Each app starts in a 120x36 pseudo-terminal (own HOME and XDG dirs,
bytecode written as installed: the untimed warm-up writes it), its output is read until
one write completes all its markers (those of ``first_frame.py``), and its CPU time so
far is read from ``/proc/PID/stat`` (10 ms ticks). ``--other`` adds another build's
``creditscope`` (e.g. a worktree of main) to the alternation, for a before/after.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import signal
import struct
import tempfile
import termios
import time
from pathlib import Path

from _common import CREDITSCOPE, PYTHON, TMUX_SIZE, median, print_figure
from first_frame import BASELINE_MARKERS, CREDITSCOPE_MARKERS, MINIMAL_APP, normal_install_env


def cpu_ms(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far, in ms."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def cpu_to_first_frame(argv: list[str], markers: tuple[str, ...]) -> float:
    """CPU ms ``argv`` spent when its output first holds every marker."""
    with tempfile.TemporaryDirectory(prefix="cs-ffcpu-") as home:
        env = normal_install_env(Path(home))
        pid, fd = pty.fork()
        if pid == 0:  # the child: the app, on the pseudo-terminal
            os.execve(argv[0], argv, env)
        width, height = TMUX_SIZE
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        wanted = [marker.encode() for marker in markers]
        seen = b""
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                if select.select([fd], [], [], 0.5)[0]:
                    seen += os.read(fd, 65536)
                    if all(marker in seen for marker in wanted):
                        return cpu_ms(pid)
            raise TimeoutError(f"{markers} not written by {argv[0]} within 60 s")
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(fd)


def main() -> None:
    """Alternate the apps, print each one's median CPU time and its ratio to the minimal app."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each app")
    parser.add_argument("--other", type=Path, help="another build's creditscope command")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cs-ffcpu-") as tmp:
        minimal = Path(tmp) / "minimal_app.py"
        minimal.write_text(MINIMAL_APP)
        apps = {"minimal Textual app": ([PYTHON, str(minimal)], BASELINE_MARKERS),
                "creditscope": ([str(CREDITSCOPE)], CREDITSCOPE_MARKERS)}
        if args.other:
            apps[f"other ({args.other})"] = ([str(args.other)], CREDITSCOPE_MARKERS)
        for argv, markers in apps.values():  # writes bytecode; not counted
            cpu_to_first_frame(argv, markers)
        samples: dict[str, list[float]] = {name: [] for name in apps}
        for _ in range(args.runs):
            for name, (argv, markers) in apps.items():
                samples[name].append(cpu_to_first_frame(argv, markers))
    base = median(samples["minimal Textual app"])
    print(f"CPU time to the first frame, {args.runs} alternating runs each; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for name, values in samples.items():
        print(f"  {name:<40} median {median(values):6.0f} ms  {median(values) / base:5.2f}x"
              f"   runs: {' '.join(f'{v:.0f}' for v in values)}")
    print_figure("first_frame_cpu_ratio", median(samples["creditscope"]) / base, "<=", 1.2)


if __name__ == "__main__":
    main()
