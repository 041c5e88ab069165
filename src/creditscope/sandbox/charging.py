"""Who is calling and what they pay: the auth-and-charge dependency every metered
route shares. The key comes from ``X-API-Key`` or ``Authorization: Bearer``; the
exact price is charged atomically before the answer leaves, or 402 and nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from creditscope import operations
from creditscope.sandbox.accounts import Account, AccountStore
from creditscope.sandbox.http import request_id_of
from creditscope.sandbox.post_bodies import PostBody
from creditscope.sandbox.problems import ApiProblem
from creditscope.wording import counted

INVALID_KEY = "The provided API key is invalid or has been revoked."


def _presented_key(request: Request) -> str | None:
    key = request.headers.get("x-api-key")
    if key:
        return key.strip()
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return None


async def account(request: Request) -> Account:
    """The caller's account from ``X-API-Key`` or ``Authorization: Bearer``; else 401.

    Async on purpose: FastAPI runs a plain ``def`` dependency on AnyIO's thread pool,
    whose non-daemon workers outlive an event loop closed before its root task (the
    in-process sandbox under a test runner), and then Python never exits."""
    presented = _presented_key(request)
    if presented is None:
        raise ApiProblem(
            401,
            "invalid_api_key",
            "No API key: send it as 'X-API-Key: KEY' or 'Authorization: Bearer KEY'.",
        )
    store: AccountStore = request.app.state.store
    found = store.authenticate(presented)
    if found is None or found.revoked:
        raise ApiProblem(401, "invalid_api_key", INVALID_KEY)
    return found


Caller = Annotated[Account, Depends(account)]


@dataclass(frozen=True)
class Meter:
    """An authenticated caller, and the one way to answer them: charge, then reply."""

    request: Request
    caller: Account
    store: AccountStore

    def answer(
        self, op_name: str, body: dict[str, Any], posted: PostBody | None = None,
        scope: str | None = None,
    ) -> JSONResponse:
        """Charge the exact price atomically, then answer; a short balance is 402 and no charge.

        With ``posted`` and ``scope`` the reply is remembered under the POST's
        Idempotency-Key in the charging transaction, and a repeat of the key
        found there is replayed uncharged.
        """
        op = operations.get(op_name)
        remember = posted.remember(scope) if posted is not None and scope else None
        outcome = self.store.charge(
            self.caller.key_hash,
            op.credits,
            op.name,
            request_id_of(self.request),
            remember=(*remember, body) if remember else None,
        )
        if outcome.replay is not None and posted is not None:
            replay = posted.replayed(outcome.replay)
            replay.headers["X-Credits-Remaining"] = str(outcome.remaining)
            return replay
        if not outcome.ok:
            raise ApiProblem(
                402,
                "insufficient_credits",
                f"This request costs {counted(op.credits, 'credit')}; "
                f"the balance is {outcome.remaining}.",
                headers={"X-Credits-Charged": "0", "X-Credits-Remaining": str(outcome.remaining)},
            )
        return JSONResponse(
            body,
            headers={
                "X-Credits-Charged": str(op.credits),
                "X-Credits-Remaining": str(outcome.remaining),
            },
        )


async def meter(request: Request, caller: Caller) -> Meter:
    """The dependency: authenticate (401 on a bad key), then hand out the meter."""
    return Meter(request, caller, request.app.state.store)


Metered = Annotated[Meter, Depends(meter)]
