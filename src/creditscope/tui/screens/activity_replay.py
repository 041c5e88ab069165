"""Activity's Replay: the selected call sent again past the cache, after its price is
confirmed; what cannot be replayed (a balance difference, a call refused before
sending) says why instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import App

from creditscope.client.records import CallRecord
from creditscope.tui import prices

if TYPE_CHECKING:
    from creditscope.client.client import DataClient


def ask_to_replay(app: App[object], client: DataClient, record: CallRecord,
                  refused: str | None, send: Callable[[], object]) -> None:
    """Confirm the replay's price, then ``send``; or say why there is nothing to send."""
    from creditscope.tui.screens.confirm import ConfirmSpend

    if not record.method:  # an unexplained difference: nothing to send again
        app.notify("This entry is a balance difference, not a call.", severity="warning")
        return
    if refused is not None:
        app.notify(f"{refused}\nNothing to replay: correct the parameters in the "
                   "operation's area.", title="Refused before sending", severity="warning")
        return
    price = client.price_of(record.operation)
    text = (f"Send {record.method} {record.operation} again, bypassing the cache. "
            + prices.costs_sentence(price))

    def decided(confirmed: bool | None) -> None:
        if confirmed:
            send()

    app.push_screen(ConfirmSpend("Replay this call?", text, price=price), decided)


async def replay(app: App[object], client: DataClient, record: CallRecord) -> bool:
    """Send ``record`` again (refresh, the budget confirmed); True when it was answered.
    A failure is recorded by the client and told here."""
    try:
        await client.call(record.operation, dict(record.params), refresh=True,
                          confirm_over_budget=True)
    except Exception as error:
        from creditscope.tui.remedies import describe

        title, code, message, step = describe(error)
        app.notify(f"{code}\n{message}\n{step}", title=title, severity="error",
                   markup=False)  # the service's words: plain text, never markup
        return False
    app.notify(f"{record.operation} replayed.", title="Replayed")
    return True
