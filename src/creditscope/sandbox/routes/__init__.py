"""The sandbox's HTTP routes, one router per group of endpoints (``ROUTERS``)."""

from __future__ import annotations

from fastapi import APIRouter

from creditscope.sandbox.routes import company, events, platform, restaurants

# In the order the OpenAPI document lists them.
ROUTERS: tuple[APIRouter, ...] = (events.router, company.router, restaurants.router,
                                  platform.router)
