"""Support routes: `POST /v2/support/docs-search` and `POST /v2/support/ask`.

Their error bodies are `{"error": "..."}` only (the service's support shape),
so body parsing runs with `support_style=True`. The desk lives on the emulator
(`emulator.support`); it is built here on first use if the emulator has none,
so tests can swap in a desk with a tiny budget before the first request.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.api.requests import DocsSearchRequest, SupportAskRequest
from tui.emulator.http.parsing import caller, parse_body
from tui.emulator.service import Emulator
from tui.emulator.support.desk import SupportDesk


def desk_of(emulator: Emulator) -> SupportDesk:
    """The emulator's support desk (tests may swap in one with a short budget)."""
    desk: SupportDesk = emulator.support
    return desk


def routes(emulator: Emulator) -> list[BaseRoute]:
    """The support routes, bound to `emulator`."""

    async def docs_search(request: Request) -> JSONResponse:
        body = await parse_body(request, DocsSearchRequest, support_style=True)
        return JSONResponse(desk_of(emulator).docs_search(body))

    async def ask(request: Request) -> JSONResponse:
        team = caller(request).team
        body = await parse_body(request, SupportAskRequest, support_style=True)
        status, envelope = desk_of(emulator).ask(team, body)
        return JSONResponse(envelope, status_code=status)

    return [
        Route("/v2/support/docs-search", docs_search, methods=["POST"]),
        Route("/v2/support/ask", ask, methods=["POST"]),
    ]
