"""An artificial delay before every API answer, to see how a client copes with a slow service."""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Receive, Scope, Send


class LatencyMiddleware:
    """Delay each HTTP request under /v2 by `seconds` (websockets and pages are left alone)."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/v2/") and self.seconds > 0:
            await asyncio.sleep(self.seconds)
        await self.app(scope, receive, send)
