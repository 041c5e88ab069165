"""``creditscope batch OPERATION FILE``: a list of requests at a price known before it runs.

Every row is validated first (invalid rows are listed and never sent), identical
rows are merged, and the rows the cache cannot answer are priced; then it asks
(or ``--yes``), runs a few at a time inside the session budget with a progress
bar, and writes one result row per input row (``--out``, CSV or JSON Lines).
Ctrl+C stops cleanly: no new request starts, those in flight finish (a second
Ctrl+C abandons them), what finished is written and cached, so running the
same command again pays only for the rest.
Exit codes: 0 done, 1 declined, 2 bad file or nothing valid, 3 stopped early
(budget, key, credits), 130 interrupted.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from creditscope import operations
from creditscope.wording import counted

if TYPE_CHECKING:  # imported where used: `creditscope --help` stays fast
    from creditscope.client.client import DataClient
    from creditscope.support.batch_input import BatchFile
    from creditscope.support.batch_plan import BatchPlan
    from creditscope.support.batch_run import BatchRun

EXIT_DECLINED = 1
EXIT_USAGE = 2
EXIT_STOPPED = 3
EXIT_INTERRUPTED = 130
INTERRUPTED = "interrupted (Ctrl+C)"


def describe_plan(plan: BatchPlan, price_each: int, budget: int | None, spent: int) -> list[str]:
    """The lines shown before anything is spent: rows, invalid ones, the price."""
    valid = plan.rows - plan.invalid
    lines = [f"{counted(plan.rows, 'row')}: {valid} valid "
             f"({len(plan.requests)} distinct, {counted(plan.duplicates, 'duplicate')} sent once)"
             f", {plan.invalid} invalid"]
    for row, problem in plan.invalid_shown:
        lines.append(f"  {row.where}: {problem}")
    if plan.invalid > len(plan.invalid_shown):
        lines.append(f"  … and {plan.invalid - len(plan.invalid_shown)} more invalid rows "
                     "(all listed in --out)")
    lines.append(
        f"To send: {counted(plan.to_send, 'request')} × {price_each} cr = {plan.price} credits; "
        f"{plan.cached} answered from the cache (free)."
    )
    if budget is not None:
        left = max(budget - spent, 0)
        if plan.price > left:
            lines.append(f"Session budget: {left} of {budget} credits left; the run stops "
                         "when it is reached.")
    return lines


@click.command()
@click.argument("operation")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path, allow_dash=True),
              help="Write one result row per input row: .jsonl writes JSON Lines, else CSV; "
                   "'-' writes CSV to stdout.")
@click.option("--yes", "-y", is_flag=True, help="Do not ask before spending.")
@click.option("--concurrency", default=4, show_default=True,
              type=click.IntRange(1, 16), help="Requests in flight at once.")
@click.option("--ignore-extra-columns", is_flag=True,
              help="Skip columns that are not parameters of OPERATION.")
@click.option("--dry-run", is_flag=True, help="Validate and price only; send nothing.")
@click.option("--allow-unknown-place", is_flag=True,
              help="Send rows whose location the built-in place list does not know "
                   "(a live service may know it; the sandbox finds nothing, and charges).")
def command(operation: str, file: Path, out: Path | None, yes: bool, concurrency: int,
            ignore_extra_columns: bool, dry_run: bool, allow_unknown_place: bool) -> None:
    """Run OPERATION once per row of FILE (CSV with the parameters as columns, or JSON Lines).

    \b
    Example:
      creditscope batch professional_network/find_company companies.csv --out results.csv
    """
    from creditscope.commands.settings_loading import command_settings
    from creditscope.support.batch_input import BatchFile, BatchFileProblem
    from creditscope.support.batch_plan import plan_batch
    from creditscope.wiring import build_client

    try:
        op = operations.get(operation)
    except KeyError as exc:
        raise click.UsageError(str(exc.args[0])) from None
    try:
        source = BatchFile(file, op.name, ignore_extra=ignore_extra_columns)
    except BatchFileProblem as exc:
        raise click.UsageError(str(exc)) from None
    settings = command_settings()
    client = build_client(settings)
    try:
        click.echo(f"{file}: {source.description}", err=True)
        try:
            plan = plan_batch(client, op.name, source, allow_unknown_place=allow_unknown_place)
        except KeyboardInterrupt:
            click.echo("Interrupted while checking the rows; nothing was sent.", err=True)
            sys.exit(EXIT_INTERRUPTED)
        spent = client.ledger.session_spent()
        for line in describe_plan(plan, client.price_of(op.name), client.budget, spent):
            click.echo(line, err=True)
        if not plan.requests:
            raise click.UsageError("no valid rows: nothing to run")
        if dry_run:
            click.echo("dry run: nothing was sent", err=True)
            return
        if plan.price and not yes and not click.confirm(
            f"Spend up to {plan.price} credits?", default=False, err=True
        ):
            click.echo("Nothing was sent.", err=True)
            sys.exit(EXIT_DECLINED)
        code = _run_and_report(client, plan, source, out, concurrency)
    finally:
        client.ledger.close()
        if client.cache is not None:
            client.cache.close()
    if code:
        sys.exit(code)


def _run_and_report(client: DataClient, plan: BatchPlan, source: BatchFile, out: Path | None,
                    concurrency: int) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from creditscope.support.batch_run import BatchRun

    valid = plan.rows - plan.invalid
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TextColumn("· {task.fields[credits]} cr spent"), TimeElapsedColumn(),
        console=Console(stderr=True), transient=False,
    )
    task = progress.add_task("rows", total=valid, credits=0)
    run = BatchRun(client, plan, concurrency,
                   on_progress=lambda rows, credits: progress.update(
                       task, completed=rows, credits=credits))
    with progress:
        try:
            asyncio.run(_send_all(client, run))
        except (KeyboardInterrupt, asyncio.CancelledError):
            run.stop(INTERRUPTED)  # a second Ctrl+C: requests in flight were abandoned
    from creditscope.commands.remedies import remedy_for

    interrupted = run.stopped == INTERRUPTED
    remedy = remedy_for(run.stopped_by) if run.stopped_by is not None else None
    why = f"{remedy.title.lower()}: {run.stopped}" if remedy is not None else run.stopped
    reason = INTERRUPTED if interrupted else (f"stopped: {why}" if run.stopped else "")
    if out is not None:
        _write(out, client, run, source, reason)
    done = sum(plan.requests[key].rows for key in run.outcomes)
    errors = sum(1 for outcome in run.outcomes.values() if outcome.status == "error")
    click.echo(
        f"{done} of {valid} valid rows done · {run.spent} credits spent · "
        f"{counted(errors, 'error')} · {plan.invalid} invalid", err=True)
    if reason:
        click.echo(f"{valid - done} rows not run: {reason}. Run the same command again to "
                   "continue; finished rows come from the cache for free.", err=True)
    if remedy is not None and run.stopped_by is not None:
        click.echo(remedy.step_for(run.stopped_by), err=True)
    if out is None:
        click.echo("Add --out results.csv to keep one result row per input row.", err=True)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_STOPPED if run.stopped else 0


async def _send_all(client: DataClient, run: BatchRun) -> None:
    """Run the batch; the first Ctrl+C lets the requests in flight finish (they are paid
    for, so they are kept and cached), a second one abandons them."""
    loop = asyncio.get_running_loop()
    main = asyncio.current_task()

    def interrupted() -> None:
        if run.stopped == INTERRUPTED and main is not None:
            main.cancel()
            return
        run.stop(INTERRUPTED)
        click.echo("\nStopping after the requests in flight (Ctrl+C again abandons them)…",
                   err=True)

    # Not in the main thread, or no signal support: Ctrl+C then interrupts at once.
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGINT, interrupted)
    try:
        async with client:
            await run.run()
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(signal.SIGINT)


def _write(out: Path, client: DataClient, run: BatchRun, source: BatchFile, not_run: str) -> None:
    from creditscope.support.batch_output import (
        output_columns,
        output_format,
        result_rows,
        write_rows,
    )

    columns = output_columns(run.plan.operation)
    rows = result_rows(source, client, run, not_run=not_run or "not run")
    if str(out) == "-":
        write_rows(sys.stdout, "csv", columns, rows)
        return
    fmt = output_format(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8", newline="") as handle:
            count = write_rows(handle, fmt, columns, rows)
    except OSError as exc:
        click.echo(f"error: cannot write {out}: {exc.strerror or exc}", err=True)
        return
    click.echo(f"Wrote {counted(count, 'row')} to {out} ({fmt.upper()}).", err=True)
