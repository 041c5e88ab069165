"""``creditscope credits``: credits spent and saved, last session and lifetime, per operation."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from creditscope.client.ledger import CreditLedger
from creditscope.client.ledger_totals import Totals
from creditscope.commands.error_output import JsonErrorsCommand


def _thousands(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def totals_table(totals: Totals) -> list[str]:
    """Aligned rows: one per operation, then the total."""
    header = ("operation", "calls", "spent", "saved", "errors")
    # "unexplained" rows are balance falls no recorded call explains (see the README).
    rows = [
        (name, str(t.calls), _thousands(t.spent), _thousands(t.saved), str(t.errors))
        for name, t in totals.by_operation.items()
    ]
    rows.append(("total", str(totals.calls), _thousands(totals.spent),
                 _thousands(totals.saved), str(totals.errors)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(row: tuple[str, ...]) -> str:
        return "  ".join(
            cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)
        )

    return [line(header), *(line(r) for r in rows)]


def totals_json(totals: Totals) -> dict[str, object]:
    """The totals as JSON, ``unexplained`` (part of ``spent``) right after ``spent``."""
    data = asdict(totals)
    ordered: dict[str, object] = {"spent": data.pop("spent"),
                                  "unexplained": data.pop("unexplained")}
    return ordered | data


@click.command(cls=JsonErrorsCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (errors too).")
def command(as_json: bool) -> None:
    """Show credits spent and saved: the last session and all time, per operation."""
    from creditscope.commands.settings_loading import command_settings
    from creditscope.wiring import ledger_path

    settings = command_settings()
    path = ledger_path(settings)
    if not path.exists():
        click.echo(f"No calls recorded yet ({path}).")
        return
    ledger = CreditLedger(path)
    for warning in ledger.warnings:  # a damaged ledger was set aside and rebuilt
        click.echo(f"warning: {warning}", err=True)
    try:
        lifetime = ledger.lifetime_totals()
        latest = ledger.latest_session()
        session = ledger.session_totals_for(latest[0]) if latest else Totals()
    finally:
        ledger.close()
    service = "built-in sandbox" if settings.is_sandbox else settings.base_url
    if as_json:
        click.echo(json.dumps({
            "service": service,
            # spent includes unexplained: balance falls no recorded call explains.
            # possibly_charged is not in spent: lost answers a later balance settles.
            "last_session": totals_json(session),
            "last_session_started": latest[1].isoformat() if latest else None,
            "lifetime": totals_json(lifetime),
        }, indent=2))
        return
    click.echo(f"Service: {service}")
    if latest:
        click.echo(f"\nLast session (started {latest[1]:%Y-%m-%d %H:%M} UTC)")
        click.echo("\n".join(totals_table(session)))
    click.echo("\nLifetime")
    click.echo("\n".join(totals_table(lifetime)))
    if lifetime.unexplained:
        click.echo(f"\nUnexplained: {_thousands(lifetime.unexplained)} of the credits spent"
                   " were a fall in the service's balance that no recorded call explains"
                   " (details in the explorer's Activity).")
    if lifetime.possibly_charged:
        click.echo(f"\nPossibly charged: {_thousands(lifetime.possibly_charged)} credits for"
                   " answers lost after the request left (a timeout or a dropped connection)."
                   " Not in spent yet: the next balance the service reports settles them"
                   " (charged, or released).")
    if lifetime.remaining is not None:
        click.echo(f"\nRemaining (last reported): {_thousands(lifetime.remaining)} credits")
