"""creditscope: a terminal explorer for a credit-metered data API."""

__version__ = "0.1.0"

