"""How often one client may use a public route that writes (``POST /provider-requests``).

The route needs no key, so without a limit one client could fill the database at
hundreds of rows a second. Each client (its address) has a bucket of ``burst``
requests that refills at ``per_minute``; an empty bucket is answered 429
``rate_limited`` with ``Retry-After``, before the body is read. Buckets live in the
worker's memory (with ``serve --workers N`` each worker counts apart), and at most
:data:`MAX_CLIENTS` are remembered: the longest idle are forgotten first.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable

from creditscope.sandbox.problems import ApiProblem

MAX_CLIENTS = 4096


class ClientRate:
    """A token bucket per client: ``burst`` at once, then ``per_minute``."""

    def __init__(self, per_minute: int, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_second = per_minute / 60
        self.burst = burst
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, client: str) -> float:
        """Take one request for ``client``: 0 when allowed, else the seconds to wait."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        wait = 0.0 if tokens >= 1 else (1 - tokens) / self.per_second
        self._buckets[client] = (tokens - 1 if wait == 0 else tokens, now)
        while len(self._buckets) > MAX_CLIENTS:
            self._buckets.popitem(last=False)
        return wait

    def check(self, client: str, what: str) -> None:
        """Raise 429 ``rate_limited`` when ``client`` has used up its requests."""
        wait = self.take(client)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiProblem(
                429, "rate_limited",
                f"too many {what} from this address; try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )
