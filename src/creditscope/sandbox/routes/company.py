"""Company lookup: ``POST /professional_network/find_company`` (10 credits),
replayable by ``Idempotency-Key`` so a retried lookup is charged once."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from creditscope import models
from creditscope.sandbox.charging import Metered
from creditscope.sandbox.company_lookup import find_company, validate
from creditscope.sandbox.faults import Faults
from creditscope.sandbox.openapi import KEYED_POST_ERRORS, body_schema
from creditscope.sandbox.post_bodies import PostBody
from creditscope.sandbox.routes.endpoint import operation_route

router = APIRouter()


@operation_route(
    router, "professional_network/find_company", KEYED_POST_ERRORS,
    openapi_extra=body_schema(models.FindCompanyRequest),
)
async def company(request: Request, meter: Metered) -> JSONResponse:
    # The company's page candidates, graded; a replay reports the current balance.
    posted = await PostBody.read(request)
    lookup = validate(posted.raw)
    scope = f"{meter.caller.key_hash}:find_company"
    replay = posted.replay(meter.store, scope)
    if replay is not None:
        replay.headers["X-Credits-Remaining"] = str(meter.store.balance(meter.caller.key_hash))
        return replay
    faults: Faults = request.app.state.faults
    body = find_company(lookup, faults.unavailable_rate, faults.rng)
    return meter.answer("professional_network/find_company", body, posted, scope)
