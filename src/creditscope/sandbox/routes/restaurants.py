"""Restaurants: search (2 credits), and one restaurant's details (2), menu (5)
and reviews (3); an unknown id is 404 and costs nothing."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from creditscope import models
from creditscope.sandbox import clock
from creditscope.sandbox import restaurants as restaurant_data
from creditscope.sandbox.charging import Metered
from creditscope.sandbox.openapi import KEYED_GET_ERRORS, RESTAURANT_ERRORS
from creditscope.sandbox.problems import invalid_parameter
from creditscope.sandbox.routes.endpoint import now, operation_route

# The spec's cuisines, as a type FastAPI turns into an enum (and a 400 for others).
Cuisine = models.Cuisine
RestaurantId = Annotated[str, Query(min_length=1, max_length=100)]

router = APIRouter()


@operation_route(router, "restaurants/search", KEYED_GET_ERRORS)
async def search(
    request: Request,
    meter: Metered,
    location: Annotated[str, Query(min_length=1, max_length=200)],
    cuisine: Annotated[Cuisine | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=30)] = 10,
) -> JSONResponse:
    # Restaurants near a location, optionally of one cuisine.
    if not location.strip():
        raise invalid_parameter("location", "must not be blank")
    # Called through the module so tests can replace it.
    body = restaurant_data.search(location, cuisine, limit, now(request))
    return meter.answer("restaurants/search", body)


@operation_route(router, "restaurants/details", RESTAURANT_ERRORS)
async def details(meter: Metered, id: RestaurantId) -> JSONResponse:
    # One restaurant's full listing.
    body = restaurant_data.find(id.strip()).details
    return meter.answer("restaurants/details", body)


@operation_route(router, "restaurants/menu", RESTAURANT_ERRORS)
async def menu(request: Request, meter: Metered, id: RestaurantId) -> JSONResponse:
    # This week's menu of one restaurant.
    body = restaurant_data.menu(id.strip(), clock.week_anchor(now(request)).date())
    return meter.answer("restaurants/menu", body)


@operation_route(router, "restaurants/reviews", RESTAURANT_ERRORS)
async def reviews(
    request: Request,
    meter: Metered,
    id: RestaurantId,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
) -> JSONResponse:
    # Recent reviews of one restaurant.
    body = restaurant_data.reviews(id.strip(), limit, clock.week_anchor(now(request)).date())
    return meter.answer("restaurants/reviews", body)
