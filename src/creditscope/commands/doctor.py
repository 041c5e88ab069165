"""``creditscope doctor [--json]``: is this installation healthy, and if not, what to do.

One line per check (service, API key masked, config file, settings sources,
cache, data, ledger, terminal, reachability of ``/catalog``), each problem
with its fix. Exit 0 when nothing is a problem, 1 otherwise, with the first
problem and its fix last. Never prints the key; sends one free request.
"""

from __future__ import annotations

import json

import click

from creditscope.commands.error_output import JsonErrorsCommand
from creditscope.doctor import DEFAULT_TIMEOUT, Report, run_doctor
from creditscope.outside_text import shown

EXIT_PROBLEM = 1
_STATUS_STYLE = {"ok": ("ok", "green"), "note": ("note", "yellow"), "problem": ("PROBLEM", "red")}


def render_text(report: Report) -> list[str]:
    """The report as lines of text: versions, one line per check, then the verdict."""
    found = report.versions
    lines = [
        f"creditscope {found['creditscope']} · Textual {found['textual']} · "
        f"Python {found['python']} · {found['platform']}",
        shown(f"  running {found['python_executable']}"),
        "",
    ]
    width = max(len(finding.name) for finding in report.findings)
    for finding in report.findings:
        label, colour = _STATUS_STYLE[finding.status]
        status = click.style(f"{label:<7}", fg=colour, bold=finding.status == "problem")
        # Findings quote the service's answers and the settings: shown, never obeyed.
        lines.append(f"{status}  {finding.name:<{width}}  {shown(finding.summary)}")
        if finding.fix:
            lines.append(f"{'':<7}  {'':<{width}}  fix: {shown(finding.fix)}")
    lines.append("")
    problems = report.problems
    if not problems:
        lines.append(click.style("All well.", fg="green", bold=True))
    else:
        first = problems[0]
        count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
        lines.append(click.style(f"{count}. First: {first.name}: {shown(first.summary)}",
                                 fg="red", bold=True))
        if first.fix:
            lines.append(f"Fix: {shown(first.fix)}")
    return lines


@click.command(name="doctor", cls=JsonErrorsCommand)
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON (errors too).")
@click.option(
    "--timeout",
    default=DEFAULT_TIMEOUT,
    show_default=True,
    type=click.FloatRange(0.1, 60),
    metavar="SECONDS",
    help="How long to wait for the service's /catalog.",
)
@click.pass_context
def command(ctx: click.Context, as_json: bool, timeout: float) -> None:
    """Check settings, storage, terminal and service; print what to fix.

    Shows which service is used (the built-in sandbox or a base URL), the API
    key masked, the config file (path, mode, whether it parses, which values
    came from the environment and which from the file), the cache and data
    directories, the credit ledger, the terminal, and how fast the service
    answers GET /catalog (free; the only request sent, without the key).

    Exit status 0 when all is well, 1 when something needs fixing (the first
    problem and its fix are printed last).
    """
    report = run_doctor(timeout=timeout)
    if as_json:
        click.echo(json.dumps(report.as_json(), indent=2, ensure_ascii=False))
    else:
        for line in render_text(report):
            click.echo(line)
    if not report.ok:
        ctx.exit(EXIT_PROBLEM)
