"""What the operations table cannot say, keyed by operation: a sample request that finds
something (a real place, a company, a restaurant id taken from a search), and the rules
of one operation only (the event feed's pagination, the company lookup's suffix removal).

An operation with no entry here still gets every generated rule: its sample is made from
its request model (``rules.generated_params``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from creditscope import operations
from creditscope.support.service_check.checks import (
    Evidence,
    Exchange,
    NotCheckable,
    ParamsFrom,
    Rule,
    Step,
    step_id,
)
from creditscope.support.service_check.shapes import shown

SEARCH = "restaurants/search"
FEED = "ticketing/discovery"
LOOKUP = "professional_network/find_company"
CATALOG = "catalog"  # the public operation that lists every price


@dataclass(frozen=True)
class Sample:
    """A valid request of one operation: fixed params, or params read from earlier answers."""

    params: dict[str, Any] | ParamsFrom
    needs: tuple[str, ...] = ()


def sample_id(operation: str) -> str:
    return step_id("sample", operation)


def _first_restaurant(extra: dict[str, Any]) -> Sample:
    def params(answers: Mapping[str, Exchange]) -> dict[str, Any]:
        data = answers[sample_id(SEARCH)].data
        results = data.get("results") if isinstance(data, dict) else None
        first = results[0] if isinstance(results, list) and results else None
        if not isinstance(first, dict) or not isinstance(first.get("id"), str):
            raise NotCheckable("the restaurant search found no restaurant id to ask about")
        return {"id": first["id"], **extra}

    return Sample(params, needs=(sample_id(SEARCH),))


# Lisbon: the sandbox and any real service know it; "Ltd" is the suffix the lookup drops.
LOOKUP_NAME, LOOKUP_SUFFIX = "Northwind Labs Ltd", "Ltd"
SAMPLES: dict[str, Sample] = {
    FEED: Sample({"lat": 38.7223, "lng": -9.1393, "limit": 5}),
    LOOKUP: Sample({"name": LOOKUP_NAME, "website": "northwind-labs.co.uk"}),
    SEARCH: Sample({"location": "Lisbon", "limit": 3}),
    "restaurants/details": _first_restaurant({}),
    "restaurants/menu": _first_restaurant({}),
    "restaurants/reviews": _first_restaurant({"limit": 3}),
}


@dataclass
class Extra:
    """An operation's own steps and rules, beside the generated ones."""

    steps: list[Step] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)


def _pagination(op: operations.Operation[Any], sample: dict[str, Any]) -> Extra:
    first, second = sample_id(op.name), step_id("page 2", op.name)

    def next_page(answers: Mapping[str, Exchange]) -> dict[str, Any]:
        data = answers[first].data
        cursor = data.get("cursor") if isinstance(data, dict) else None
        if not cursor:
            raise NotCheckable("the first page had no cursor: the whole feed fits one page")
        return {**sample, "cursor": cursor}

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        page = answers[second]
        seen = _event_ids(answers[first].data)
        if page.status is None or page.status >= 400 or not isinstance(page.data, dict):
            return [Evidence(page.request, "(answer)", "the next page", f"HTTP {page.status}")]
        events = _event_ids(page.data)
        if not events:
            return [Evidence(page.request, "events", "the next page's events", "none")]
        again = sorted(seen & events)
        if again:
            return [Evidence(page.request, "events[].id", "events not on the first page",
                             f"{len(again)} again, e.g. {again[0]}")]
        return []

    step = Step(second, op.name, "own", next_page, True, op.credits, (first,))
    rule = Rule("pagination", op.name, "the cursor of a page fetches the next page, with "
                "other events", (first, second), judge)
    return Extra([step], [rule])


def _event_ids(data: Any) -> set[str]:
    events = data.get("events") if isinstance(data, dict) else None
    return {str(e.get("id")) for e in events or [] if isinstance(e, dict)}


def _suffix_removal(op: operations.Operation[Any], sample: dict[str, Any]) -> Extra:
    first = sample_id(op.name)
    word = re.compile(rf"\b{re.escape(LOOKUP_SUFFIX)}\b", re.IGNORECASE)

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        answer = answers[first]
        data = answer.data if isinstance(answer.data, dict) else {}
        queries = data.get("queries")
        expected = f"searches for the name without {LOOKUP_SUFFIX!r}"
        if not isinstance(queries, list) or not queries:
            return [Evidence(answer.request, "queries", expected, shown(queries))]
        return [Evidence(answer.request, f"queries[{index}]", expected, shown(query))
                for index, query in enumerate(queries)
                if not isinstance(query, str) or word.search(query)]

    rule = Rule("suffix removal", op.name, f"legal suffixes are dropped before searching "
                f"({sample['name']!r} is searched without {LOOKUP_SUFFIX!r})", (first,), judge)
    return Extra([], [rule])


# Rules of one operation: (operation, its sample's params) -> its steps and rules.
EXTRAS: dict[str, Callable[[operations.Operation[Any], dict[str, Any]], Extra]] = {
    FEED: _pagination,
    LOOKUP: _suffix_removal,
}
