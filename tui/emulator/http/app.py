"""The emulator's ASGI application.

`create_app(service)` is the one factory: the CLI serves it on uvicorn, tests
drive it through `httpx.ASGITransport`, the dashboard embeds it. It takes the
built parts of a service (the composition root's `Emulator` is one) and hands
each route module only the parts it serves. Routes do not rely on lifespan
(ASGITransport does not run it); background loops are started by
`tui.emulator.server`.
"""

from __future__ import annotations

from typing import Protocol

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute

from tui.emulator.admin.guard import AdminGuard
from tui.emulator.admin.routes import AdminParts, admin_routes
from tui.emulator.core.errors import ServiceError
from tui.emulator.http import openapi, routes_browser, routes_jobs, routes_support, routes_team
from tui.emulator.http.auth import BearerAuthMiddleware
from tui.emulator.http.body_limit import BodyLimitMiddleware
from tui.emulator.http.cdp_proxy import cdp_proxy_route
from tui.emulator.http.crawl_socket import crawl_socket_route
from tui.emulator.http.errors import (
    SUPPORT_PREFIX,
    ApiError,
    UnexpectedErrorMiddleware,
    api_error_handler,
    domain_error_handler,
)
from tui.emulator.http.fault_injection import FaultInjectionMiddleware
from tui.emulator.http.latency import LatencyMiddleware
from tui.emulator.http.live_view import live_view_routes
from tui.emulator.support.desk import SupportDesk

_STATUS_MESSAGES = {404: "Not found.", 405: "Method not allowed."}


class ServiceParts(AdminParts, Protocol):
    """The built parts of an emulated service that its HTTP skin serves (the stores come with `AdminParts`)."""

    @property
    def support(self) -> SupportDesk: ...
    @property
    def latency(self) -> float:
        """Seconds added before every API answer (`--latency`)."""

    @property
    def admin_token(self) -> str:
        """The bearer token of the admin prefix `/_emulator/` (never a team's key)."""


async def _http_exception(request: Request, exc: Exception) -> JSONResponse:
    """Unmatched paths and methods answer in the service's error shape too."""
    assert isinstance(exc, HTTPException)
    message = _STATUS_MESSAGES.get(exc.status_code, exc.detail)
    error = ApiError(exc.status_code, message)
    error.support_style = request.url.path.startswith(SUPPORT_PREFIX)  # their errors are `{"error"}` only
    if exc.headers:
        error.headers = dict(exc.headers)
    return error.response()


def create_app(service: ServiceParts) -> Starlette:
    """The whole emulated service over `service`'s parts."""
    routes: list[BaseRoute] = [
        *routes_team.routes(service.activity, service.usage, service.clock),
        *routes_browser.routes(service.browser, service.jobs, service.billing, service.clock),
        *routes_jobs.routes(service.jobs, service.clock),
        *routes_support.routes(service.support),
        crawl_socket_route(service.jobs, service.teams, service.clock),
        cdp_proxy_route(service.browser),
        *live_view_routes(service.browser),
        *openapi.routes(),
        *admin_routes(service),
    ]
    return Starlette(
        routes=routes,
        middleware=[
            # Outermost, before any reader (a fault's latency reads the body too): no body is read uncounted,
            # and a declared length over the limit is refused before a fault's latency is slept.
            Middleware(BodyLimitMiddleware),
            # Then a fault shapes the whole answer as it leaves (never on the admin prefix).
            Middleware(FaultInjectionMiddleware, rules=service.faults, teams=service.teams),
            Middleware(UnexpectedErrorMiddleware),
            Middleware(AdminGuard, token=service.admin_token),
            Middleware(LatencyMiddleware, seconds=service.latency),
            Middleware(BearerAuthMiddleware, teams=service.teams),
        ],
        exception_handlers={
            ApiError: api_error_handler,
            ServiceError: domain_error_handler,
            HTTPException: _http_exception,
        },
    )
