"""The Company lookup area (nav entry 2)."""

from __future__ import annotations

from creditscope.tui.screens.company.screen import CompanyScreen

__all__ = ["CompanyScreen"]
