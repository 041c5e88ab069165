"""The rules of a service check, generated from the operations table: for every operation
the fields and types of its answer (its response model), its price (the balance falls by
exactly that much, the catalog lists it), its auth rule (no key and a wrong key refused,
or no key needed), and each limit of its request model (a value just past it refused,
free); then the error shape, "refusals cost nothing" and the Bearer alternative for the
whole service. Extra rules of one operation come from ``extras.EXTRAS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from creditscope import operations
from creditscope.client.errors import InvalidApiKey, InvalidRequest, codes_of, error_class_for
from creditscope.client.validation import FieldRule, field_rules
from creditscope.support.service_check.checks import KeyUse, Rule, Step, step_id
from creditscope.support.service_check.extras import CATALOG, EXTRAS, SAMPLES, Sample, sample_id
from creditscope.support.service_check.judges import (
    answered,
    bearer_accepted,
    catalog_price,
    error_shape,
    fields,
    price,
    refusals_free,
    refused,
)

FLOAT_STEP = 0.001  # "just past" a number's limit
CLOSE = "close"  # the paid request after the refusals: the balance says whether they cost


@dataclass
class Checklist:
    """Every request a full check sends, in sending order, and every rule it judges."""

    steps: list[Step]
    rules: list[Rule]


def generated_params(op: operations.Operation[Any]) -> dict[str, Any]:
    """A valid value for each required field of ``op``'s request model."""
    return {name: _valid_value(rule) for name, rule in field_rules(op.request_model).items()
            if rule.required}


def _valid_value(rule: FieldRule) -> Any:
    if rule.kind == "choice":
        return rule.choices[0]
    if rule.kind in ("integer", "number"):
        value = rule.low if rule.low is not None else min(rule.high or 0, 0)
        return int(value) if rule.kind == "integer" else float(value)
    return "creditscope"


def sample_of(op: operations.Operation[Any]) -> Sample:
    """The operation's sample request: its entry in ``extras.SAMPLES``, or generated."""
    return SAMPLES.get(op.name) or Sample(generated_params(op))


def base_params(op: operations.Operation[Any]) -> dict[str, Any]:
    """Valid params known before any answer: the fixed sample, or generated ones (an id
    the sample reads from a search is "creditscope" here). The refusal checks start
    from them, each changing one thing."""
    params = sample_of(op).params
    return params if isinstance(params, dict) else generated_params(op)


def violations(op: operations.Operation[Any]) -> list[tuple[str, str, Any]]:
    """``(field, what, value)`` for a value just past each limit of ``op``'s request model:
    numeric ranges, a required text's minimum length, a fixed set of values. Maximum
    lengths are the client's own guard (the spec sets none), so they are not checked."""
    found: list[tuple[str, str, Any]] = []
    for name, rule in field_rules(op.request_model).items():
        if rule.kind in ("integer", "number"):
            step = 1 if rule.kind == "integer" else FLOAT_STEP
            if rule.low is not None:
                found.append((name, f"{name} below {rule.low:g}", _number(rule.low - step)))
            if rule.high is not None:
                found.append((name, f"{name} above {rule.high:g}", _number(rule.high + step)))
        elif rule.kind == "choice":
            found.append((name, f"{name} not one of the listed values", "not-a-listed-value"))
        elif rule.min_length >= 1:
            found.append((name, f"{name} empty", ""))
    return found


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 6)


def build_checklist(table: Sequence[operations.Operation[Any]] | None = None) -> Checklist:
    """The full check of the service ``table`` describes (the operations table by default)."""
    ops = list(operations.OPERATIONS if table is None else table)
    public: list[Step] = []
    paid: list[Step] = []
    extra_paid: list[Step] = []
    refusals: list[Step] = []
    rules: list[Rule] = []
    for op in ops:
        sample = sample_of(op)
        static = base_params(op)
        extra = EXTRAS[op.name](op, static) if op.name in EXTRAS else None
        op_rules: list[Rule] = []
        if not op.requires_key:
            public.extend(_public_steps(op, sample, op_rules))
        elif op.credits > 0:
            paid.append(Step(sample_id(op.name), op.name, "own", sample.params, True,
                             op.credits, sample.needs))
            op_rules.append(Rule("fields", op.name, f"the answer has the fields and types of "
                                 f"{op.response_model.__name__}", (sample_id(op.name),),
                                 fields(op)))
        if extra is not None:  # its paid steps after the samples, its free ones with the rest
            extra_paid.extend(step for step in extra.steps if step.paid)
            refusals.extend(step for step in extra.steps if not step.paid)
        if op.credits > 0:
            priced = tuple(s.id for s in (*paid, *extra_paid) if s.operation == op.name)
            op_rules.append(Rule("price", op.name, f"the balance falls by exactly {op.credits} "
                                 "credits", priced, price(op), all_steps=False))
        if any(o.name == CATALOG for o in ops):
            op_rules.append(Rule("catalog price", op.name, f"the catalog lists {op.method} "
                                 f"{op.path} at {op.credits} credits",
                                 (step_id("public", CATALOG),), catalog_price(op)))
        if op.requires_key:
            refusals.extend(_key_steps(op, static, op_rules))
        refusals.extend(_limit_steps(op, static, op_rules))
        if extra is not None:
            op_rules.extend(extra.rules)
        rules.extend(op_rules)
    refusals.extend(_bearer_steps(ops, rules))
    close = _close_step(paid)
    refused_ids = tuple(step.id for step in refusals if not step.expect_answer)
    rules.append(Rule("error shape", "", "every refusal has the spec's error shape "
                      "{\"error\": {\"code\", \"message\", \"reason\"?}}", refused_ids,
                      error_shape, all_steps=False))
    if close is not None:
        rules.append(Rule("refusals free", "", "refused requests cost nothing (the balance "
                          f"before and after them, then {close.operation})",
                          (*refused_ids, close.id), refusals_free(close.id, close.price),
                          all_steps=False))
    return Checklist([*public, *paid, *extra_paid, *refusals,
                      *([close] if close is not None else [])], rules)


def _public_steps(op: operations.Operation[Any], sample: Sample, rules: list[Rule]) -> list[Step]:
    """A public GET is sent without a key and must answer; a public POST gets an invalid
    body without a key (nothing is created) and must be refused for the body, not the key."""
    sid = step_id("public", op.name)
    if not op.is_post:
        rules.append(Rule("public", op.name, "answers without a key", (sid,), answered))
        rules.append(Rule("fields", op.name, "the answer has the fields and types of "
                          f"{op.response_model.__name__}", (sid,), fields(op)))
        return [Step(sid, op.name, "none", sample.params, True, 0, sample.needs)]
    found = violations(op)
    if found:  # judged from its first limit check, which is sent without a key
        sid = step_id("limit", op.name, found[0][1])
        rules.append(Rule("public", op.name, "needs no key (an invalid body without a key "
                          "is refused for the body, not the key)", (sid,),
                          refused(lambda status, code: error_class_for(status, code)
                                  is not InvalidApiKey, "a refusal of the body, not the key")))
    return []


def _key_steps(op: operations.Operation[Any], params: dict[str, Any],
               rules: list[Rule]) -> list[Step]:
    missing, wrong = step_id("no key", op.name), step_id("wrong key", op.name)
    rules.append(Rule("no key", op.name, "refused without a key (401 or 403), free",
                      (missing,), refused(lambda status, code: status in (401, 403),
                                          "401 or 403")))
    rules.append(Rule("wrong key", op.name, "a wrong key is refused with invalid_api_key, "
                      "free", (wrong,), refused(lambda status, code: code == "invalid_api_key",
                                                "code invalid_api_key")))
    return [Step(missing, op.name, "none", params, False, op.credits),
            Step(wrong, op.name, "wrong", params, False, op.credits)]


def _limit_steps(op: operations.Operation[Any], params: dict[str, Any],
                 rules: list[Rule]) -> list[Step]:
    codes = codes_of(InvalidRequest)
    steps = []
    for name, what, value in violations(op):
        sid = step_id("limit", op.name, what)
        key: KeyUse = "own" if op.requires_key else "none"
        steps.append(Step(sid, op.name, key, {**params, name: value}, False, op.credits))
        rules.append(Rule("limit", op.name, f"{what} is refused, free",
                          (sid,), refused(lambda status, code: code in codes,
                                          f"code {' or '.join(codes)}")))
    return steps


def _bearer_steps(ops: list[operations.Operation[Any]], rules: list[Rule]) -> list[Step]:
    """The spec's alternative, ``Authorization: Bearer KEY``, checked for free: the first
    keyed operation's first invalid value, sent without a key and with the key as Bearer."""
    for op in ops:
        found = violations(op) if op.requires_key else []
        if not found:
            continue
        name, what, value = found[0]
        params = {**base_params(op), name: value}
        without, bearer = step_id("no key", op.name, what), step_id("bearer", op.name, what)
        rules.append(Rule("bearer", op.name, "Authorization: Bearer KEY is taken as the key",
                          (without, bearer), bearer_accepted(without, bearer)))
        return [Step(without, op.name, "none", params, False, op.credits),
                Step(bearer, op.name, "bearer", params, False, op.credits)]
    return []


def _close_step(paid: list[Step]) -> Step | None:
    """A repeat of the cheapest sample that needs no other answer, sent last."""
    free_standing = [step for step in paid if not step.needs]
    if not free_standing:
        return None
    cheapest = min(free_standing, key=lambda step: step.price)
    return Step(step_id(CLOSE, cheapest.operation), cheapest.operation, "own", cheapest.params,
                True, cheapest.price)
