"""Bearer-key authentication for every `/v2` route.

A pure ASGI middleware, so it answers 401 before routing and before any body
is read, and it leaves other paths alone (the CDP websocket and live view
pages authenticate with the per-session token in their URL instead). The crawl
status websocket reads the same header itself (`crawl_socket`): the service
accepts its upgrade first and refuses the key in the close.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from tui.emulator.core.teams import Caller, TeamDirectory
from tui.emulator.http.errors import SUPPORT_PREFIX, unauthorized
from tui.emulator.http.parsing import CALLER_SCOPE_KEY

API_PREFIX = "/v2"


def bearer_token(scope: Scope) -> str | None:
    """The token of an `Authorization: Bearer <token>` header, or None when absent or empty."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
            return None
    return None


def refusal_message(token: str | None) -> str:
    """Why a key is refused: none was sent, or it is no team's."""
    return "Unauthorized" if token is None else "Unauthorized: Invalid token"


class BearerAuthMiddleware:
    """Resolve the caller's team from the bearer key, or answer 401."""

    def __init__(self, app: ASGIApp, teams: TeamDirectory) -> None:
        self.app = app
        self.teams = teams

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope.get("path", "")
        if scope["type"] != "http" or not (path == API_PREFIX or path.startswith(API_PREFIX + "/")):
            await self.app(scope, receive, send)
            return
        token = bearer_token(scope)
        team = self.teams.by_key(token) if token is not None else None
        if team is None:
            error = unauthorized(refusal_message(token))
            # The support endpoints answer errors in their own `{"error": ...}` shape.
            error.support_style = path.startswith(SUPPORT_PREFIX)
            await error.response()(scope, receive, send)
            return
        assert token is not None
        scope[CALLER_SCOPE_KEY] = Caller(team=team, api_key=token)
        await self.app(scope, receive, send)
