"""The plan, stated before anything is sent: which paid requests fit the credit budget
(in sending order; one whose answer another needs comes first), which do not, and the
refusal checks, which cost nothing when the service holds the contract."""

from __future__ import annotations

from dataclasses import dataclass

from creditscope.support.service_check.checks import DEFAULT_BUDGET, Rule, Step
from creditscope.support.service_check.rules import Checklist


@dataclass
class Plan:
    """What the check will send, within ``budget`` credits, and what it will not."""

    budget: int
    steps: list[Step]  # to send, in order
    excluded: dict[str, str]  # step id -> why it is not sent
    rules: list[Rule]
    budget_for_all: int  # the budget that sends every paid request (and keeps the room)

    @property
    def paid(self) -> list[Step]:
        return [step for step in self.steps if step.paid]

    @property
    def credits(self) -> int:
        """What the paid requests cost, when the service charges its prices."""
        return sum(step.price for step in self.paid)

    def checked_by(self, step: Step) -> list[str]:
        """The names of the rules that read ``step``'s answer, each once."""
        return list(dict.fromkeys(rule.name for rule in self.rules if step.id in rule.steps))

    def reserved_after(self, step: Step) -> int:
        """The price of the paid steps planned after ``step`` (kept for them)."""
        later = self.steps[self.steps.index(step) + 1:]
        return sum(other.price for other in later if other.paid)


def make_plan(checklist: Checklist, budget: int = DEFAULT_BUDGET) -> Plan:
    """The checklist's steps that fit ``budget``.

    The free checks come first: room is kept for the dearest refusal, in case the
    service charges one (each is sent only while its price would still fit). Paid
    steps then go in, in order, while they fit (and what they need is sent)."""
    keep = max((step.price for step in checklist.steps if not step.expect_answer), default=0)
    planned: list[Step] = []
    excluded: dict[str, str] = {}
    total = 0
    for step in checklist.steps:
        missing = [need for need in step.needs if need in excluded]
        if missing:
            excluded[step.id] = f"it needs the answer of {missing[0]}, which is not sent"
        elif step.paid and total + step.price + keep > budget:
            excluded[step.id] = (f"its {step.price} credits do not fit the {budget}-credit "
                                 f"budget ({total} planned, {keep} kept in case a refused "
                                 "request is charged)")
        else:
            planned.append(step)
            total += step.price if step.paid else 0
    every_paid = sum(step.price for step in checklist.steps if step.paid)
    return Plan(budget, planned, excluded, checklist.rules, every_paid + keep)
