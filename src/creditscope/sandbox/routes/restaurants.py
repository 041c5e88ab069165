"""Restaurants: search (2 credits), and one restaurant's details (2), menu (5)
and reviews (3); an unknown id is 404 and costs nothing."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from creditscope import models
from creditscope.sandbox import clock
from creditscope.sandbox import restaurants as restaurant_data
from creditscope.sandbox.openapi import KEYED_GET_ERRORS, RESTAURANT_ERRORS
from creditscope.sandbox.routes.endpoint import now, query_operation

# Kept for importers (sandbox/app.py re-exports them); the routes read the operations table.
Cuisine = models.Cuisine
RestaurantId = Annotated[str, Query(min_length=1, max_length=models.MAX_TEXT_LENGTH)]

router = APIRouter()


def search(request: Request, query: models.RestaurantSearchQuery) -> dict[str, Any]:
    """Restaurants near a location, optionally of one cuisine."""
    # Called through the module so tests can replace it.
    return restaurant_data.search(query.location, query.cuisine, query.limit, now(request))


def details(_: Request, query: models.RestaurantQuery) -> dict[str, Any]:
    """One restaurant's full listing."""
    return restaurant_data.find(query.id.strip()).details


def menu(request: Request, query: models.RestaurantQuery) -> dict[str, Any]:
    """This week's menu of one restaurant."""
    return restaurant_data.menu(query.id.strip(), clock.week_anchor(now(request)).date())


def reviews(request: Request, query: models.ReviewsQuery) -> dict[str, Any]:
    """Recent reviews of one restaurant."""
    week = clock.week_anchor(now(request)).date()
    return restaurant_data.reviews(query.id.strip(), query.limit, week)


query_operation(router, "restaurants/search", KEYED_GET_ERRORS, search)
query_operation(router, "restaurants/details", RESTAURANT_ERRORS, details)
query_operation(router, "restaurants/menu", RESTAURANT_ERRORS, menu)
query_operation(router, "restaurants/reviews", RESTAURANT_ERRORS, reviews)
