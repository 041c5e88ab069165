"""The explorer's threads share one C heap: memory one thread frees is there for the
others, rather than each thread keeping a 64 MB arena of its own (glibc)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from creditscope.commands import explorer

ARENA = 64 << 20  # what glibc reserves for each extra arena (64-bit)

THREADS_ALLOCATING = textwrap.dedent("""
    import sys, threading
    from creditscope.malloc_arenas import use_one_malloc_arena

    def virtual_kb():
        for line in open("/proc/self/status"):
            if line.startswith("VmSize:"):
                return int(line.split()[1])

    agreed = use_one_malloc_arena() if sys.argv[1] == "one" else False
    before = virtual_kb()
    start = threading.Barrier(4)
    kept = []

    def allocate():
        start.wait()
        kept.append([bytes(4096) for _ in range(500)])  # C heap, not pymalloc

    threads = [threading.Thread(target=allocate) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    print(agreed, (virtual_kb() - before) * 1024)
""")


def reserved_by_threads(arenas: str) -> tuple[bool, int]:
    done = subprocess.run([sys.executable, "-c", THREADS_ALLOCATING, arenas],
                          capture_output=True, text=True, timeout=60, check=True)
    agreed, grown = done.stdout.split()
    return agreed == "True", int(grown)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas")
def test_with_one_arena_threads_reserve_no_heap_of_their_own() -> None:
    agreed, grown = reserved_by_threads("one")
    if not agreed:
        pytest.skip("this C library has no mallopt (not glibc)")
    _, grown_by_default = reserved_by_threads("default")
    # 4 threads' stacks and 8 MB of data either way; the default adds an arena per thread.
    assert grown_by_default >= grown + 2 * ARENA
    assert grown < ARENA


def test_the_explorer_asks_for_one_arena_before_its_app_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    monkeypatch.setattr("creditscope.malloc_arenas.use_one_malloc_arena",
                        lambda: order.append("one arena") or True)
    monkeypatch.setattr("creditscope.tui.app.CreditscopeApp.run",
                        lambda app: order.append("app runs"))
    explorer.open_explorer()
    assert order == ["one arena", "app runs"]
