"""The emulator's ASGI application.

`create_app(emulator)` is the one factory: the CLI serves it on uvicorn, tests
drive it through `httpx.ASGITransport`, the dashboard embeds it. Routes do
not rely on lifespan (ASGITransport does not run it); background loops are
started by `tui.emulator.server`.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute

from tui.emulator.http import routes_browser, routes_jobs, routes_support, routes_team
from tui.emulator.http.cdp_proxy import cdp_proxy_route
from tui.emulator.http.live_view import live_view_routes
from tui.emulator.http.auth import BearerAuthMiddleware
from tui.emulator.http.latency import LatencyMiddleware
from tui.emulator.http.errors import ApiError, api_error_handler, unknown_error_handler
from tui.emulator.service import Emulator

_STATUS_MESSAGES = {404: "Not found.", 405: "Method not allowed."}


async def _http_exception(request: Request, exc: Exception) -> JSONResponse:
    """Unmatched paths and methods answer in the service's error shape too."""
    assert isinstance(exc, HTTPException)
    message = _STATUS_MESSAGES.get(exc.status_code, exc.detail)
    error = ApiError(exc.status_code, message)
    if exc.headers:
        error.headers = dict(exc.headers)
    return error.response()


def create_app(emulator: Emulator) -> Starlette:
    """The whole emulated service over `emulator`'s state."""
    routes: list[BaseRoute] = [
        *routes_team.routes(emulator),
        *routes_browser.routes(emulator),
        *routes_jobs.routes(emulator),
        *routes_support.routes(emulator),
        cdp_proxy_route(emulator.browser),
        *live_view_routes(emulator.browser),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(LatencyMiddleware, seconds=emulator.latency),
            Middleware(BearerAuthMiddleware, emulator=emulator),
        ],
        exception_handlers={
            ApiError: api_error_handler,
            HTTPException: _http_exception,
            Exception: unknown_error_handler,
        },
    )
    app.state.emulator = emulator
    return app
