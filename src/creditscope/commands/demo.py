"""``creditscope demo``: the explorer plays a guided tour of every area, for a booth or a
call: real keystrokes on the built-in sandbox, captions with each step's live price.

Space pauses, the arrows step, any other key hands the explorer over. The tour is
free: it refuses to start against a live service or with a real API key (exit 2).
"""

from __future__ import annotations

import click


@click.command(name="demo")
@click.option("--loop/--once", default=True, show_default=True,
              help="Start again after the last scene, or play once and hand over.")
@click.option("--speed", default=1.0, show_default=True, metavar="FACTOR",
              type=click.FloatRange(0.25, 100.0),
              help="How fast the tour plays: 2 is twice as fast, 0.5 half as fast.")
@click.pass_context
def command(ctx: click.Context, loop: bool, speed: float) -> None:
    """Play a guided tour of the explorer on the built-in sandbox (free).

    Space pauses and resumes, Left and Right step between scenes, and any other
    key stops the tour and leaves the explorer to you. Ctrl+Q quits.
    """
    from creditscope.commands.settings_loading import command_settings, echo_warnings
    from creditscope.tui.tour.sandbox_only import why_not_here

    settings = command_settings()
    refusal = why_not_here(settings)
    if refusal is not None:
        click.echo(f"creditscope demo: {refusal}", err=True)
        ctx.exit(2)

    from creditscope.tui.app import CreditscopeApp
    from creditscope.tui.tour.driver import TourOptions

    app = CreditscopeApp(settings, tour=TourOptions(loop=loop, speed=speed))
    app.run()
    echo_warnings(app.settings_warnings)
