"""What a service check is made of: the requests it sends (``Step``), the rules it judges
from their answers (``Rule``), and what it found (``Exchange``, ``Evidence``, ``Verdict``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from creditscope import json_limits

# Credits a check may spend by default: a full check of the table's operations costs 30,
# and 10 are kept in case a refused request is charged (a find_company refusal, 10 credits).
DEFAULT_BUDGET = 50
# Which key a request carries: the configured one (as X-API-Key, or as
# Authorization: Bearer), none, or one no service issued.
KeyUse = Literal["own", "bearer", "none", "wrong"]
# A step's parameters from the answers already in (by step id); None: nothing to ask with.
ParamsFrom = Callable[[Mapping[str, "Exchange"]], dict[str, Any] | None]


class Verdict(StrEnum):
    HOLDS = "holds"
    DIFFERS = "differs"
    NOT_CHECKED = "not checked"


@dataclass(frozen=True)
class Step:
    """One request the check sends.

    ``expect_answer``: a valid request, answered (and charged at ``price``); otherwise
    one the contract says is refused, free. A paid step goes through the data client, so
    the ledger records it and the budget counts it.
    """

    id: str
    operation: str
    key: KeyUse
    params: dict[str, Any] | ParamsFrom
    expect_answer: bool
    price: int = 0
    needs: tuple[str, ...] = ()  # the steps whose answers ``params`` reads

    @property
    def paid(self) -> bool:
        return self.expect_answer and self.price > 0

    def params_from(self, answers: Mapping[str, Exchange]) -> dict[str, Any] | None:
        """The parameters to send, given the answers so far."""
        return dict(self.params) if isinstance(self.params, dict) else self.params(answers)


@dataclass
class Exchange:
    """One request as sent (key never shown) and what came back."""

    step: Step
    request: str  # "GET /restaurants/search?location=Lisbon (own key)"
    status: int | None
    headers: dict[str, str]
    body: str
    balance_before: int | None  # the last balance the service reported before this request
    data: Any = field(init=False)

    def __post_init__(self) -> None:
        try:
            self.data = json_limits.loads(self.body) if self.body else None
        except ValueError:
            self.data = None

    def header(self, name: str) -> str | None:
        """A response header, whatever its case."""
        wanted = name.lower()
        return next((v for k, v in self.headers.items() if k.lower() == wanted), None)

    @property
    def charged(self) -> int:
        """``X-Credits-Charged`` (0 when absent, as the client reads it)."""
        return _number(self.header("X-Credits-Charged")) or 0

    @property
    def remaining(self) -> int | None:
        """``X-Credits-Remaining``, when the service reported it."""
        return _number(self.header("X-Credits-Remaining"))


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


@dataclass(frozen=True)
class Evidence:
    """Why a rule differs: the request, the field, what the contract expects, what came."""

    request: str
    field: str
    expected: str
    got: str


class NotCheckable(Exception):
    """A rule the answers cannot decide (e.g. a feed with one page has no next page)."""


# Judges a rule from the answers of its steps (every one sent): evidence, none = holds.
Judge = Callable[[Mapping[str, Exchange]], list[Evidence]]


@dataclass(frozen=True)
class Rule:
    """One statement of the contract, judged from the answers of ``steps``."""

    name: str  # "fields", "price", "limit", ...
    operation: str  # "" for a rule about the whole service
    says: str  # the statement, in words
    steps: tuple[str, ...]
    judge: Judge
    all_steps: bool = True  # False: judged from whichever of its steps were sent


def step_id(kind: str, operation: str, detail: str = "") -> str:
    """``sample restaurants/search``, ``limit ticketing/discovery lat>90``."""
    return " ".join(part for part in (kind, operation, detail) if part)
