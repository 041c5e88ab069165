"""``creditscope cache stats|clear``: what the response cache holds, and emptying it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from creditscope.outside_text import shown
from creditscope.wording import byte_size

if TYPE_CHECKING:
    from creditscope.client.cache import ResponseCache


def _open_cache() -> ResponseCache:
    from creditscope.client.cache import ResponseCache
    from creditscope.commands.settings_loading import command_settings
    from creditscope.wiring import cache_directory

    settings = command_settings()
    cache = ResponseCache(cache_directory(settings))
    for warning in cache.warnings:  # a damaged cache was set aside and rebuilt
        click.echo(f"warning: {warning}", err=True)
    return cache


@click.group()
def command() -> None:
    """Inspect or clear the response cache."""


@command.command()
def stats() -> None:
    """Entries, size on disk and entries per operation."""
    cache = _open_cache()
    try:
        found = cache.stats()
    finally:
        cache.close()
    click.echo(shown(f"Cache: {found.directory}"))
    # The same size, worded the same, as `creditscope doctor` shows for the cache.
    click.echo(f"{found.entries} entries ({found.stale} stale), {byte_size(found.size_bytes)}")
    width = max((len(name) for name in found.by_operation), default=0)
    for name, count in found.by_operation.items():
        click.echo(f"  {name.ljust(width)}  {count}")


@command.command()
def clear() -> None:
    """Remove every cached response (the next calls will be charged again)."""
    cache = _open_cache()
    try:
        removed = cache.clear()
    finally:
        cache.close()
    click.echo(f"Removed {removed} cached response{'s' if removed != 1 else ''}.")
