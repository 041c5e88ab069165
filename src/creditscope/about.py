"""What this installation is: creditscope's version and the versions it runs on.

``creditscope --version`` prints :func:`version_line`; ``creditscope doctor``
reports :func:`versions`. Read from package metadata, so nothing heavy is imported.
"""

from __future__ import annotations

import platform
import sys
from importlib import metadata
from pathlib import Path

from creditscope import __version__


def _distribution_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def versions() -> dict[str, str]:
    """creditscope, Textual and Python versions, the platform, and where creditscope runs from."""
    return {
        "creditscope": __version__,
        "textual": _distribution_version("textual"),
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}".strip(),
        "python_executable": sys.executable,
        "package_dir": str(Path(__file__).resolve().parent),
    }


def version_line() -> str:
    """``creditscope 0.1.0 (Textual 8.2.8, Python 3.11.7)``."""
    found = versions()
    return (
        f"creditscope {found['creditscope']} "
        f"(Textual {found['textual']}, Python {found['python']})"
    )
