"""Restaurants: search by place, then drill into a restaurant's overview, menu and reviews."""

from __future__ import annotations

from creditscope.tui.screens.restaurants.restaurant_screen import RestaurantScreen
from creditscope.tui.screens.restaurants.search_screen import RestaurantsScreen

__all__ = ["RestaurantScreen", "RestaurantsScreen"]
