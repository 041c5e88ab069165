"""Subcommands of the ``creditscope`` CLI, one module each (each exposes ``command``)."""
