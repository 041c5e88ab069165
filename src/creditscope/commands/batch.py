"""``creditscope batch OPERATION FILE``: a list of requests at a price known before it runs.

Before anything is sent: the file's encoding is settled (a byte that does not
decode stops it, with its line and byte), ``--out`` is checked (not the input,
writable), every row is validated (invalid rows are listed and never sent),
identical rows are merged, and the rows the cache cannot answer are priced; then
it asks (or ``--yes``), runs a few at a time inside the session budget with a
progress bar, and writes one result row per input line (``--out``, CSV or JSON
Lines). Ctrl+C at any moment exits 130: during the run no new request starts,
those in flight finish (a second Ctrl+C abandons them), and what finished is
written and cached, so running the same command again pays only for the rest.
Exit codes: 0 done, 1 declined, 2 bad file, bad --out or nothing valid, 3 stopped
early (budget, key, credits) or results not written, 130 interrupted, 143 terminated
(SIGTERM abandons the requests in flight at once, like a second Ctrl+C).
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import click

from creditscope import operations
from creditscope.commands.remedies import EXIT_INTERRUPTED
from creditscope.outside_text import shown
from creditscope.wording import counted, possibly_charged

if TYPE_CHECKING:  # imported where used: `creditscope --help` stays fast
    from creditscope.client.client import DataClient
    from creditscope.support.batch_destination import ResultFile
    from creditscope.support.batch_input import BatchFile
    from creditscope.support.batch_plan import BatchPlan
    from creditscope.support.batch_run import BatchRun

EXIT_DECLINED = 1
EXIT_USAGE = 2
EXIT_STOPPED = 3
INTERRUPTED = "interrupted (Ctrl+C)"
TERMINATED = "terminated (SIGTERM)"
# Another process's requests on the wire on the same ledger and account (its in-flight
# rows): the cache only helps once an answer is in, so the same row sent by both is paid
# twice. Said before anything is spent.
SENDING_ELSEWHERE = ("warning: another creditscope process is sending on this account now:"
                     " rows it answers first come from the cache; rows you both send at once"
                     " are paid twice.")
EXIT_TERMINATED = 143  # 128 + SIGTERM, as a shell reports a process it ended


def describe_plan(plan: BatchPlan, price_each: int, budget: int | None, spent: int) -> list[str]:
    """The lines shown before anything is spent: rows, invalid ones, the price."""
    blank = f", {plan.blank} blank" if plan.blank else ""
    skipped = (f", {plan.skipped} skipped (totals or notes rows: never sent, free)"
               if plan.skipped else "")
    lines = [f"{counted(plan.rows, 'row')}: {plan.valid} valid "
             f"({plan.distinct} distinct, {counted(plan.duplicates, 'duplicate')} sent once)"
             f", {plan.invalid} invalid{blank}{skipped}"]
    for row, problem in plan.invalid_shown:
        lines.append(f"  {row.where}: {problem}")
    if plan.invalid > len(plan.invalid_shown):
        lines.append(f"  … and {plan.invalid - len(plan.invalid_shown)} more invalid rows "
                     "(all listed in --out)")
    free = "; invalid and skipped rows cost nothing" if plan.skipped else ""
    lines.append(
        f"To send: {counted(plan.to_send, 'request')} × {price_each} cr = {plan.price} credits; "
        f"{plan.cached} answered from the cache (free){free}."
    )
    if budget is not None:
        left = max(budget - spent, 0)
        if plan.price > left:
            lines.append(f"Session budget: {left} of {budget} credits left; the run stops "
                         "when it is reached.")
    return lines


@dataclass(frozen=True)
class Output:
    """Where and how the results go: the checked ``--out`` and the Excel BOM choice."""

    destination: ResultFile | None
    excel: bool


@click.command()
@click.argument("operation")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path, allow_dash=True),
              help="Write one result row per input line: .xlsx writes a workbook, .jsonl "
                   "JSON Lines, else CSV; '-' writes CSV to stdout. Never the input file.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before spending.")
@click.option("--concurrency", default=4, show_default=True,
              type=click.IntRange(1, 16), help="Requests in flight at once.")
@click.option("--ignore-extra-columns", is_flag=True,
              help="Skip columns that are not parameters of OPERATION (echoed in --out).")
@click.option("--dry-run", is_flag=True,
              help="Validate and price only; send nothing (--out gets each row's price).")
@click.option("--allow-unknown-place", is_flag=True,
              help="Send rows whose location the built-in place list does not know "
                   "(a live service may know it; the sandbox finds nothing, and charges).")
@click.option("--encoding", metavar="NAME",
              help="The file's encoding when it is not UTF-8 or UTF-16 with a BOM "
                   "(e.g. cp1252 for an old Windows export).")
@click.option("--excel", is_flag=True,
              help="Start a CSV --out with a UTF-8 BOM so Excel shows accents (automatic "
                   "when the input came from Excel: a workbook, a BOM, UTF-16, cp1252, "
                   "Mac Roman).")
@click.option("--sheet", metavar="NAME",
              help="The sheet of an .xlsx/.ods workbook to read (default: the first).")
@click.option("--name-column", metavar="HEADER",
              help="The column holding the name, when its header is not one batch knows.")
@click.option("--website-column", metavar="HEADER",
              help="The column holding the website, when its header is not one batch knows.")
def command(operation: str, file: Path, out: Path | None, yes: bool, concurrency: int,
            ignore_extra_columns: bool, dry_run: bool, allow_unknown_place: bool,
            encoding: str | None, excel: bool, sheet: str | None, name_column: str | None,
            website_column: str | None) -> None:
    """Run OPERATION once per row of FILE (CSV, an .xlsx/.ods workbook, or JSON Lines),
    the parameters as columns (Company, Website URL and other usual headers are known).

    \b
    Example:
      creditscope batch professional_network/find_company companies.csv --out results.csv
    """
    from creditscope.support.batch_destination import DestinationProblem, ResultFile
    from creditscope.support.batch_input import BatchFile, BatchFileProblem

    try:
        op = operations.get(operation)
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    try:
        try:
            named = {param: header for param, header in
                     (("name", name_column), ("website", website_column)) if header}
            source = BatchFile(file, op.name, ignore_extra=ignore_extra_columns,
                               encoding=encoding, sheet=sheet, columns=named)
            destination = ResultFile(out, file) if out is not None else None
        except (BatchFileProblem, DestinationProblem) as exc:
            # The message quotes the file (its column names): shown, never obeyed.
            raise click.UsageError(shown(str(exc))) from None
        code = _batch(source, Output(destination, excel), yes=yes, concurrency=concurrency,
                      dry_run=dry_run, allow_unknown_place=allow_unknown_place)
    except KeyboardInterrupt:  # click would say "Aborted!" and exit 1
        click.echo("\nInterrupted (Ctrl+C); nothing more was sent.", err=True)
        code = EXIT_INTERRUPTED
    if code:
        sys.exit(code)


def _batch(source: BatchFile, output: Output, *, yes: bool, concurrency: int, dry_run: bool,
           allow_unknown_place: bool) -> int:
    from creditscope.client.session import SpendSession
    from creditscope.commands.settings_loading import command_settings
    from creditscope.support.batch_plan import plan_batch
    from creditscope.wiring import build_client

    # The ledger file keeps every call; memory keeps the last few hundred (flat RSS).
    client = build_client(command_settings(), session=SpendSession(keep_records=500))
    try:
        click.echo(shown(f"{source.path}: {source.description}"), err=True)
        try:
            plan = plan_batch(client, source.operation, source,
                              allow_unknown_place=allow_unknown_place)
        except KeyboardInterrupt:
            click.echo("Interrupted while checking the rows; nothing was sent.", err=True)
            return EXIT_INTERRUPTED
        try:
            return _decide_and_run(client, plan, source, output, yes=yes,
                                   concurrency=concurrency, dry_run=dry_run)
        finally:
            plan.index.close()
    finally:
        client.close_files()


def _decide_and_run(client: DataClient, plan: BatchPlan, source: BatchFile, output: Output,
                    *, yes: bool, concurrency: int, dry_run: bool) -> int:
    """Show the plan, then a dry run's results, the question, or the run itself."""
    spent = client.ledger.session_spent()
    for line in describe_plan(plan, client.price_of(plan.operation), client.budget, spent):
        click.echo(shown(line), err=True)  # rows' problems quote the file: shown
    if dry_run or not plan.distinct:
        _write(output, source, client, plan, not_run="", dry_run=True)
        if not plan.distinct:
            raise click.UsageError("no valid rows: nothing to run")
        click.echo("dry run: nothing was sent", err=True)
        return 0
    if plan.price and client.ledger.others_in_flight(client.account):
        click.echo(SENDING_ELSEWHERE, err=True)
    if plan.price and not yes:
        try:
            agreed = _confirm(f"Spend up to {plan.price} credits?")
        except KeyboardInterrupt:
            click.echo("\nInterrupted; nothing was sent.", err=True)
            _write(output, source, client, plan, not_run=INTERRUPTED)
            return EXIT_INTERRUPTED
        if not agreed:
            click.echo("Nothing was sent.", err=True)
            return EXIT_DECLINED
    return _run_and_report(client, plan, source, output, concurrency)


def _confirm(question: str) -> bool:
    """Yes or no on stderr; no input (EOF) is a no. Ctrl+C propagates (unlike click.confirm,
    which turns it into "Aborted!" and exit 1)."""
    click.echo(f"{question} [y/N]: ", nl=False, err=True)
    try:
        answer = input()
    except EOFError:
        click.echo(err=True)
        return False
    return answer.strip().lower() in ("y", "yes")


def _run_and_report(client: DataClient, plan: BatchPlan, source: BatchFile, output: Output,
                    concurrency: int) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from creditscope.support.batch_run import BatchRun

    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("· {task.fields[credits]} cr spent"), TimeElapsedColumn(),
        console=Console(stderr=True), transient=False,
    )
    task = progress.add_task("rows", total=plan.valid, credits=0)
    run = BatchRun(client, plan, concurrency,
                   on_progress=lambda rows, credits: progress.update(
                       task, completed=rows, credits=credits))
    with progress:
        try:
            asyncio.run(_send_all(client, run))
        except (KeyboardInterrupt, asyncio.CancelledError):
            run.interrupt(INTERRUPTED)  # where Ctrl+C could not be handled (no signal support)
    from creditscope.commands.remedies import remedy_for

    interrupted = run.stopped in (INTERRUPTED, TERMINATED)
    remedy = remedy_for(run.stopped_by) if run.stopped_by is not None else None
    why = f"{remedy.title.lower()}: {run.stopped}" if remedy is not None else run.stopped
    reason = run.stopped if interrupted else (f"stopped: {why}" if run.stopped else "")
    written = _write(output, source, client, plan, not_run=reason or "not run")
    lost = f" · {possibly_charged(run.possibly_charged)}" if run.possibly_charged else ""
    click.echo(
        f"{run.rows_done} of {plan.valid} valid rows done · {run.spent} credits spent{lost} · "
        f"{counted(run.errors, 'error')} · {plan.invalid} invalid"
        f"{f' · {plan.skipped} skipped (free)' if plan.skipped else ''}", err=True)
    if run.possibly_charged:
        click.echo("Answers lost after their request left were not sent again: the next"
                   " balance the service reports settles them (`creditscope credits`).",
                   err=True)
    if reason:
        # After a key or credits problem, running again fails the same way until it is fixed.
        again = ("Fix that first (below), then run the same command again"
                 if remedy is not None else "Run the same command again")
        click.echo(shown(f"{plan.valid - run.rows_done} rows not run: {reason}. {again} to "
                         "continue; finished rows come from the cache for free."), err=True)
    if remedy is not None and run.stopped_by is not None:
        click.echo(shown(remedy.step_for(run.stopped_by)), err=True)
    if output.destination is None:
        click.echo("Add --out results.csv to keep one result row per input line.", err=True)
    if interrupted:
        return EXIT_TERMINATED if run.stopped == TERMINATED else EXIT_INTERRUPTED
    return EXIT_STOPPED if run.stopped or not written else 0


async def _send_all(client: DataClient, run: BatchRun) -> None:
    """Run the batch; the first Ctrl+C lets the requests in flight finish (they are paid
    for, so they are kept and cached), a second one (or SIGTERM) abandons them: each
    is then recorded, by the client and the run, as possibly charged."""
    from creditscope.commands.interrupts import two_step_interrupt

    def stop_after_flight() -> None:
        run.interrupt(INTERRUPTED)
        click.echo("\nStopping after the requests in flight (Ctrl+C again abandons them)…",
                   err=True)

    def abandon(reason: str) -> None:
        run.interrupt(reason)
        click.echo("\nAbandoning the requests in flight: they may have been charged"
                   " (possibly_charged).", err=True)
        client.abandon()

    with two_step_interrupt(stop_after_flight, lambda: abandon(INTERRUPTED),
                            terminate=lambda: abandon(TERMINATED)):
        async with client:
            await run.run()


def _write(output: Output, source: BatchFile, client: DataClient, plan: BatchPlan, *,
           not_run: str, dry_run: bool = False) -> bool:
    """Write one row per input line to ``--out`` (if given); False when that failed."""
    from creditscope.support.batch_output import (
        csv_separator,
        output_columns,
        output_format,
        result_rows,
        write_rows,
    )

    destination = output.destination
    if destination is None:
        return True
    columns = output_columns(source, plan.operation)
    fmt = "csv" if destination.to_stdout else output_format(destination.path)
    bom = fmt == "csv" and not destination.to_stdout and (output.excel or source.from_excel)
    rows = result_rows(source, client, plan, columns, not_run=not_run, dry_run=dry_run)
    delimiter, sep_line = csv_separator(source)
    separator = (delimiter, sep_line and not bom)  # after a BOM Excel shows "sep=;" as text
    try:
        count = destination.write(
            lambda handle: write_rows(handle, fmt, columns.all, rows, separator), bom=bom)
    except OSError as exc:
        click.echo(f"error: cannot write {destination.path}: {exc.strerror or exc}. The "
                   "answers are cached: run again with another --out, free.", err=True)
        return False
    if not destination.to_stdout:
        excel = ", with a BOM for Excel" if bom else ""
        if fmt == "csv" and separator[0] != ",":
            excel = f", {'semicolon' if separator[0] == ';' else repr(separator[0])}-separated" \
                f" as the input{excel}"
        click.echo(shown(f"Wrote {counted(count, 'row')} to {destination.path} "
                         f"({fmt.upper()}{excel})."), err=True)
    return True
