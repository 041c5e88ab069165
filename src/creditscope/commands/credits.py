"""``creditscope credits``: credits spent and saved, last session and lifetime, per operation."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

import click

from creditscope.client.ledger import CreditLedger
from creditscope.client.ledger_file import UNKNOWN_ACCOUNT
from creditscope.client.ledger_totals import Totals
from creditscope.commands.error_output import JsonErrorsCommand
from creditscope.outside_text import shown
from creditscope.shown_url import shown_url
from creditscope.wording import counted, possibly_charged

if TYPE_CHECKING:
    from creditscope.commands.credits_usage import Grouping


def _thousands(value: int) -> str:
    return f"{value:,}".replace(",", " ")


def utc_since(text: str | None) -> datetime | None:
    """``--since``: ``2026-11-24`` or ``2026-11-24T09:00`` (UTC, naive), refused in the
    words ``history --since`` uses."""
    if text is None:
        return None
    for form in ("%Y-%m-%d", "%Y-%m-%dT%H:%M"):
        try:
            return datetime.strptime(text, form)
        except ValueError:
            continue
    raise click.BadParameter(f"{text!r} is not a date: use YYYY-MM-DD or YYYY-MM-DDTHH:MM "
                             "(UTC)", param_hint="--since")


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
    """The totals as JSON, ``unexplained`` (part of ``spent``) and ``overstated`` (taken
    off ``spent``) right after ``spent``."""
    data = asdict(totals)
    ordered: dict[str, object] = {"spent": data.pop("spent"),
                                  "unexplained": data.pop("unexplained"),
                                  "overstated": data.pop("overstated")}
    return ordered | data


@click.command(cls=JsonErrorsCommand)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (errors too).")
@click.option("--all", "all_accounts", is_flag=True,
              help="Every account in the ledger, each apart (default: the configured one).")
@click.option("--by", type=click.Choice(["day", "hour", "operation"]),
              help="Where the credits went: per day or hour (UTC), or per operation, with"
                   " the cache's savings, calls by outcome and company lookups' grades.")
@click.option("--since", callback=lambda _ctx, _param, text: utc_since(text), metavar="DATE",
              help="With --by: only calls from this UTC date (YYYY-MM-DD) on.")
@click.option("--csv", "as_csv", is_flag=True, help="With --by: print CSV.")
def command(as_json: bool, all_accounts: bool, by: str | None, since: datetime | None,
            as_csv: bool) -> None:
    """Show credits spent and saved by the configured account (service and key): the
    last session and all time, per operation; with --all, every account apart; with
    --by, per day, hour or operation."""
    from creditscope.client.curl import mask_key
    from creditscope.commands.settings_loading import command_settings
    from creditscope.wiring import configured_account, ledger_path, open_ledger, service_address

    if by is None and (since is not None or as_csv):
        raise click.UsageError("--since and --csv go with --by day, hour or operation.")
    if as_csv and as_json:
        raise click.UsageError("Choose one of --csv and --json.")
    settings = command_settings()
    path = ledger_path(settings)
    if not path.exists() and not as_json:
        click.echo(shown(f"No calls recorded yet ({path})."))
        return
    # No file yet and JSON asked for: the same JSON, all zero (nothing is created).
    ledger = open_ledger(settings) if path.exists() else CreditLedger(None)
    for warning in ledger.warnings:  # a damaged ledger was set aside and rebuilt
        click.echo(f"warning: {warning}", err=True)
    configured = configured_account(settings)
    if by is not None:
        _show_usage(ledger, cast("Grouping", by), since, "csv" if as_csv else
                    "json" if as_json else "table", None if all_accounts else configured)
        return
    try:
        accounts = ledger.accounts() if all_accounts else [configured]
        reports = [_account_report(ledger, account) for account in accounts]
        others = [a for a in ledger.accounts() if a != configured]
    finally:
        ledger.close()
    address = service_address(settings)
    service = "built-in sandbox" if settings.is_sandbox else shown_url(address.base_url)
    key = mask_key(address.api_key) or "no key"
    if as_json:
        shown_reports = [report.as_json(report.account == configured) for report in reports]
        click.echo(json.dumps(
            {"service": service, "account": configured, "accounts": shown_reports}
            if all_accounts else {"service": service, **shown_reports[0]}, indent=2))
        return
    for report in reports:
        heading = (f"Account: {service}, key {key}" if report.account == configured
                   else "Account: calls recorded before accounts were kept"
                   if report.account == UNKNOWN_ACCOUNT
                   else f"Account: another service or key ({report.account})")
        click.echo("\n".join(report.lines(shown(heading))))  # the address as configured
        click.echo("")
    if others and not all_accounts:
        click.echo(f"{counted(len(others), 'other account')} in this ledger: see"
                   " `creditscope credits --all`.")


@dataclass(frozen=True)
class AccountReport:
    """One account's figures: its last session and its lifetime."""

    account: str
    lifetime: Totals
    session: Totals
    started: datetime | None
    unsettleable: int = 0  # possibly charged before the balance the ledger counts from

    def as_json(self, configured: bool) -> dict[str, object]:
        # spent includes unexplained: balance falls no recorded call explains.
        # overstated is taken off spent: charges the headers said the balance never showed.
        # possibly_charged is not in spent: lost answers a later balance settles.
        return {"account": self.account, "configured": configured,
                "last_session": totals_json(self.session),
                "last_session_started": self.started.isoformat() if self.started else None,
                "lifetime": totals_json(self.lifetime)}

    def lines(self, heading: str) -> list[str]:
        """The account's figures as text, under ``heading``."""
        lifetime = self.lifetime
        out = [heading]
        if self.started is not None:
            out += [f"\nLast session (started {self.started:%Y-%m-%d %H:%M} UTC)",
                    *totals_table(self.session)]
        out += ["\nLifetime", *totals_table(lifetime)]
        if lifetime.unexplained:
            out.append(f"\nUnexplained: {_thousands(lifetime.unexplained)} of the credits"
                       " spent were a fall in the service's balance that no recorded call"
                       " explains (details in the explorer's Activity).")
        if lifetime.overstated:
            out.append(f"\nCharged less than said: the service charged"
                       f" {_thousands(lifetime.overstated)} cr less than its charge headers"
                       " said (its balance fell less than the X-Credits-Charged of the calls)."
                       " Spent counts what the balance shows; ask the service which is right"
                       " (details in the explorer's Activity).")
        if lifetime.possibly_charged:
            out.append(f"\n{possibly_charged(lifetime.possibly_charged).capitalize()} for"
                       " answers lost after the request left (a timeout or a dropped"
                       f" connection). {self._settling(lifetime.possibly_charged)}")
        if lifetime.remaining is not None:
            out.append(f"\nRemaining (last reported): {_thousands(lifetime.remaining)} credits")
        return out


    def _settling(self, possible: int) -> str:
        """What will settle the possible charges, or why a balance never can."""
        later = possible - self.unsettleable
        words = []
        if later:
            them = "them" if not self.unsettleable else f"{_thousands(later)} cr of them"
            words.append(f"Not in spent yet: the next balance the service reports settles"
                         f" {them} (charged, or released).")
        if self.unsettleable:
            words.append(f"{_thousands(self.unsettleable)} cr cannot be settled: lost before"
                         " the balance this ledger counts from (the balance was first seen,"
                         " or rose, after them), so no balance can tell; the service's own"
                         " statement says whether they were charged.")
        return " ".join(words)


def _account_report(ledger: CreditLedger, account: str) -> AccountReport:
    latest = ledger.latest_session(account)
    point = ledger.settled_point(account)
    # Checks settle only attempts after their starting point: older ones wait forever.
    unsettleable = sum(p.credits for p in ledger.possible_charges(account)
                       if point is not None and p.at < point[2])
    return AccountReport(
        account, ledger.lifetime_totals(account),
        ledger.session_totals_for(latest[0], account) if latest else Totals(),
        latest[1] if latest else None, unsettleable)


def _show_usage(ledger: CreditLedger, by: Grouping, since: datetime | None, form: str,
                account: str | None) -> None:
    """``--by``: the figures Usage shows (of ``account``; None: every account), as a
    table, CSV or JSON."""
    from creditscope.client.usage import usage_of
    from creditscope.commands.credits_usage import usage_csv, usage_json, usage_table

    try:
        rows = ledger.usage_rows(account=account)
    finally:
        ledger.close()
    start = since.replace(tzinfo=UTC) if since is not None else None
    usage = usage_of(rows, "hour" if by == "hour" else "day", start)
    if form == "csv":
        click.echo(usage_csv(usage, by), nl=False)
    elif form == "json":
        click.echo(usage_json(usage, by))
    elif usage.is_empty:
        click.echo(f"No calls recorded since {start:%Y-%m-%d %H:%M} UTC." if start
                   else "No calls recorded yet.")
    else:
        click.echo("\n".join(usage_table(usage, by)))
