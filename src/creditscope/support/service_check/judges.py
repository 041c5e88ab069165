"""How each generated rule is judged from the answers: each function returns the judge of
one rule (see ``checks.Judge``): the evidence of every difference, none when it holds."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from creditscope import operations
from creditscope.support.service_check.checks import Evidence, Exchange, Judge, NotCheckable
from creditscope.support.service_check.shapes import mismatches, shown

# (HTTP status, error code or None) -> does the refusal say what the contract says?
Accepts = Callable[[int, str | None], bool]


def _ok(exchange: Exchange) -> bool:
    return exchange.status is not None and 200 <= exchange.status < 300


def _status(exchange: Exchange) -> str:
    if exchange.status is None:
        return "no answer"
    code = _error_code(exchange)
    return f"HTTP {exchange.status}" + (f" {code}" if code else "")


def _error_code(exchange: Exchange) -> str | None:
    error = exchange.data.get("error") if isinstance(exchange.data, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    return code if isinstance(code, str) else None


def fields(op: operations.Operation[Any]) -> Judge:
    """The answer has every field of ``op``'s response model, each of its type."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        (answer,) = answers.values()
        if not _ok(answer):
            return [Evidence(answer.request, "(status)", "an answer (2xx)", _status(answer))]
        return [Evidence(answer.request, found.field, found.expected, found.got)
                for found in mismatches(op.response_model, answer.data)]

    return judge


def price(op: operations.Operation[Any]) -> Judge:
    """Each answer says it charged the price, and the balance fell by exactly that."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        paid = [answer for answer in answers.values() if _ok(answer)]
        if not paid:
            raise NotCheckable("no request of it was answered")
        found = [Evidence(a.request, "X-Credits-Charged", str(op.credits),
                          a.header("X-Credits-Charged") or "absent")
                 for a in paid if a.charged != op.credits]
        measured = [a for a in paid if a.balance_before is not None and a.remaining is not None]
        if not measured and not found:
            raise NotCheckable("no balance was reported just before its request (the first "
                               "paid request)")
        for answer in measured[:1]:
            assert answer.balance_before is not None and answer.remaining is not None
            fell = answer.balance_before - answer.remaining
            if fell != op.credits:
                found.append(Evidence(
                    answer.request, "X-Credits-Remaining",
                    f"{answer.balance_before - op.credits} (the balance before, "
                    f"{answer.balance_before}, less {op.credits})",
                    f"{answer.remaining} (fell by {fell})"))
        return found

    return judge


def catalog_price(op: operations.Operation[Any]) -> Judge:
    """The catalog lists ``op`` (method and path) at its price in the table."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        (catalog,) = answers.values()
        if not _ok(catalog):
            raise NotCheckable(f"the catalog did not answer ({_status(catalog)})")
        providers = catalog.data.get("providers") if isinstance(catalog.data, dict) else None
        for p, provider in enumerate(providers if isinstance(providers, list) else []):
            endpoints = provider.get("endpoints") if isinstance(provider, dict) else None
            for e, endpoint in enumerate(endpoints if isinstance(endpoints, list) else []):
                if not isinstance(endpoint, dict) or endpoint.get("path") != op.path:
                    continue
                if str(endpoint.get("method", "")).upper() != op.method:
                    continue
                if endpoint.get("credits") == op.credits and not isinstance(
                        endpoint.get("credits"), bool):
                    return []
                return [Evidence(catalog.request, f"providers[{p}].endpoints[{e}].credits",
                                 str(op.credits), shown(endpoint.get("credits")))]
        return [Evidence(catalog.request, "providers[].endpoints[]",
                         f"{op.method} {op.path} listed", "not listed")]

    return judge


def answered(answers: Mapping[str, Exchange]) -> list[Evidence]:
    """A public request was answered, with no key."""
    (answer,) = answers.values()
    if _ok(answer):
        return []
    return [Evidence(answer.request, "(status)", "an answer without a key", _status(answer))]


def refused(accepts: Accepts, expected: str) -> Judge:
    """The request was refused (4xx), as ``accepts`` says, and charged nothing."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        (answer,) = answers.values()
        code = _error_code(answer)
        status = answer.status
        if status is None or not 400 <= status < 500:
            return [Evidence(answer.request, "(status)", f"a refusal (4xx), {expected}",
                             _status(answer))]
        found = []
        if not accepts(status, code):
            found.append(Evidence(answer.request, "error.code", expected,
                                  f"HTTP {status}, {shown(code)}"))
        if answer.charged:
            found.append(Evidence(answer.request, "X-Credits-Charged", "0 (refused: free)",
                                  str(answer.charged)))
        return found

    return judge


def error_shape(answers: Mapping[str, Exchange]) -> list[Evidence]:
    """Every error answer is ``{"error": {"code": string, "message": string,
    "reason"?: string}}``."""
    found = []
    for answer in answers.values():
        if answer.status is None or answer.status < 400:
            continue
        error = answer.data.get("error") if isinstance(answer.data, dict) else None
        if not isinstance(error, dict):
            found.append(Evidence(answer.request, "error", "object", shown(error)
                                  if answer.data is not None else "no JSON body"))
            continue
        for name, required in (("code", True), ("message", True), ("reason", False)):
            value = error.get(name)
            if (value is None and required) or (value is not None
                                                and not isinstance(value, str)):
                found.append(Evidence(answer.request, f"error.{name}",
                                      "string" if required else "string or absent",
                                      "missing" if value is None else shown(value)))
    if not found and not any(a.status and a.status >= 400 for a in answers.values()):
        raise NotCheckable("no request was refused")
    return found[:5]


def refusals_free(close: str, close_price: int) -> Judge:
    """No refusal says it charged, and the balance after them is the balance before them
    (the closing request's fall is exactly its own price)."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        found = [Evidence(a.request, "X-Credits-Charged", "0 (refused: free)", str(a.charged))
                 for sid, a in answers.items() if sid != close and a.charged]
        last = answers.get(close)
        if last is None or not _ok(last):
            if found:
                return found
            raise NotCheckable("the paid request after the refusals was not sent")
        if last.balance_before is None or last.remaining is None:
            if found:
                return found
            raise NotCheckable("no balance was reported around the refusals")
        fell = last.balance_before - last.remaining - close_price
        if fell:
            found.append(Evidence(
                last.request, "X-Credits-Remaining",
                f"{last.balance_before - close_price} (the balance before the refusals, "
                f"less this request's {close_price})", f"{last.remaining} ({fell} more gone)"))
        return found

    return judge


def bearer_accepted(without_key: str, with_bearer: str) -> Judge:
    """The same invalid request twice: without a key it is refused for the key (so this
    service checks the key first); with ``Authorization: Bearer KEY`` it must then be
    refused for the value, which shows the key was taken."""

    def judge(answers: Mapping[str, Exchange]) -> list[Evidence]:
        if answers[without_key].status not in (401, 403):
            raise NotCheckable("this service checks the parameters before the key, so a "
                               "refused request cannot show whether the key was taken")
        answer = answers[with_bearer]
        if answer.status in (401, 403) or _error_code(answer) == "invalid_api_key":
            return [Evidence(answer.request, "Authorization",
                             "Bearer KEY taken as the key (the value refused, not the key)",
                             _status(answer))]
        return []

    return judge
