"""Support routes: `POST /v2/support/docs-search` and `POST /v2/support/ask`.

Their error bodies are `{"error": "..."}` only (the service's support shape),
so body parsing runs with `support_style=True`.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.contract.requests import DocsSearchRequest, SupportAskRequest
from tui.emulator.http.parsing import caller, parse_body
from tui.emulator.support.desk import SupportDesk


def routes(desk: SupportDesk) -> list[BaseRoute]:
    """The support routes over the support desk."""

    async def docs_search(request: Request) -> JSONResponse:
        body = await parse_body(request, DocsSearchRequest, support_style=True)
        return JSONResponse(desk.docs_search(body))

    async def ask(request: Request) -> JSONResponse:
        team = caller(request).team
        body = await parse_body(request, SupportAskRequest, support_style=True)
        status, envelope = desk.ask(team, body)
        return JSONResponse(envelope, status_code=status)

    return [
        Route("/v2/support/docs-search", docs_search, methods=["POST"]),
        Route("/v2/support/ask", ask, methods=["POST"]),
    ]
