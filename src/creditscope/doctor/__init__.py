"""``creditscope doctor``'s checks, for the support desk and for bug reports.

:func:`run_doctor` runs them in order: the config file and settings, the
service and API key, the cache and data directories, the ledger, the terminal, the
explorer's Textual patches, and a free ``GET /catalog``. Each check's failure becomes a
finding; doctor itself never crashes, never shows the key, and never sends a paid request.
"""

from __future__ import annotations

import httpx

from creditscope.about import versions
from creditscope.doctor.patches_check import check_patches
from creditscope.doctor.reach_check import DEFAULT_TIMEOUT, check_catalog
from creditscope.doctor.report import Finding, Report, guarded
from creditscope.doctor.settings_check import SettingsDiagnosis, diagnose_settings
from creditscope.doctor.storage_check import check_storage
from creditscope.doctor.terminal_check import check_terminal

__all__ = ["DEFAULT_TIMEOUT", "Finding", "Report", "run_doctor"]


def run_doctor(
    *, timeout: float = DEFAULT_TIMEOUT, transport: httpx.AsyncBaseTransport | None = None
) -> Report:
    """Every check, in order; ``transport`` replaces the network (tests)."""
    report = Report(versions=versions())
    diagnosis: list[SettingsDiagnosis] = []

    def settings_checks() -> list[Finding]:
        diagnosis.append(diagnose_settings())
        return diagnosis[0].findings

    report.findings += guarded("settings", settings_checks)
    if not diagnosis:
        return report  # nothing else can be checked without settings
    settings = diagnosis[0].settings
    report.findings += guarded("storage", lambda: check_storage(settings))
    report.findings += guarded("terminal", lambda: [check_terminal()])
    report.findings += guarded("textual patches", lambda: [check_patches()])
    report.findings += guarded(
        "reachability", lambda: [check_catalog(settings, timeout=timeout, transport=transport)]
    )
    return report
