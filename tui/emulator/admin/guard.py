"""The admin token, and the middleware that asks for it on every `/_emulator/` path.

A team's key opens the service; only the token of the person who started the emulator opens its
admin prefix: with it one can break the service for every team, move anyone's jobs, or read and
replace the whole state. A web page cannot send it (an `Authorization` header cross-origin needs a
CORS preflight, which the emulator never grants), so no page the emulator's user visits can drive it.
"""

from __future__ import annotations

import secrets

from starlette.types import ASGIApp, Receive, Scope, Send

from tui.emulator.http.auth import bearer_token
from tui.emulator.http.errors import ApiError

ADMIN_PREFIX = "/_emulator"
ADMIN_TOKEN_VARIABLE = "WDS_EMULATOR_ADMIN_TOKEN"


def new_admin_token() -> str:
    """A fresh admin token: `emu-` and 32 hex characters (unguessable, unlike the seeded ids)."""
    return "emu-" + secrets.token_hex(16)


def is_admin_path(path: str) -> bool:
    """Whether `path` is under the admin prefix (`/_emulator` itself or below it)."""
    return path == ADMIN_PREFIX or path.startswith(ADMIN_PREFIX + "/")


class AdminGuard:
    """Answer 401 on the admin prefix unless the request carries the admin token as its bearer."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_admin_path(scope.get("path", "")):
            await self.app(scope, receive, send)
            return
        given = bearer_token(scope)
        if given is None or not secrets.compare_digest(given.encode(), self.token.encode()):
            why = (
                "Unauthorized: the admin prefix takes the emulator's admin token (printed in its banner)"
                if given is not None
                else "Unauthorized: send the emulator's admin token (printed in its banner) as the bearer"
            )
            await ApiError(401, why, code="ADMIN_TOKEN_REQUIRED").response()(scope, receive, send)
            return
        await self.app(scope, receive, send)
