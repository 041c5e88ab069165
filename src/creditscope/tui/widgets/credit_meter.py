"""The header's credit meter: spent this session, saved by the cache, remaining balance."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from creditscope.tui.host import host_of
from creditscope.tui.messages import CreditSnapshot

if TYPE_CHECKING:
    from creditscope.client.ledger import CreditLedger

SPEND_HIGHLIGHT_SECONDS = 1.5


def snapshot_of(ledger: CreditLedger, account: str) -> CreditSnapshot:
    """The meter's figures: this session's calls on ``account`` (the configured service
    and key), not another key's written to the same ledger file."""
    totals = ledger.session_totals(account)
    return CreditSnapshot(
        spent=totals.spent, saved=totals.saved, calls=totals.calls, errors=totals.errors,
        remaining=totals.remaining, unexplained=totals.unexplained,
        overstated=totals.overstated, possibly_charged=totals.possibly_charged,
    )


def _credits(value: int) -> str:
    return f"{value:,}".replace(",", " ")


class CreditMeter(Static):
    """Shows the app's :class:`CreditSnapshot`; flashes briefly when credits are spent."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._last_spent: int | None = None

    def on_mount(self) -> None:
        """Show the app's credit snapshot, and each new one (the ledger updates it)."""
        host = host_of(self)
        self._show(host.credits)
        host.signals.credits_changed.subscribe(self, self._show)

    def on_unmount(self) -> None:
        """Stop following the credits (a popped screen's meter must not be kept alive)."""
        host_of(self).signals.unsubscribe(self)

    def _show(self, snapshot: CreditSnapshot) -> None:
        parts = [
            f"[b]{_credits(snapshot.spent)}[/b] cr spent"
            + (f" [b](incl. {_credits(snapshot.unexplained)} unexplained)[/b]"
               if snapshot.unexplained else "")
            + (f" [b]({_credits(snapshot.overstated)} less than the service said)[/b]"
               if snapshot.overstated else ""),
            f"[b]{_credits(snapshot.saved)}[/b] cr saved",
        ]
        if snapshot.possibly_charged:  # a lost answer: settled by the next balance
            parts.append(f"[b]{_credits(snapshot.possibly_charged)}[/b] cr possibly charged")
        if snapshot.remaining is not None:
            parts.append(f"[b]{_credits(snapshot.remaining)}[/b] left")
        self.update("  ·  ".join(parts))
        spent_more = self._last_spent is not None and snapshot.spent > self._last_spent
        if spent_more and SPEND_HIGHLIGHT_SECONDS > 0:
            self.add_class("-spent")
            self.set_timer(SPEND_HIGHLIGHT_SECONDS, lambda: self.remove_class("-spent"))
        self._last_spent = snapshot.spent
