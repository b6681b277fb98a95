"""textual-serve's server with `ServeGuard` in front: the one place that knows textual-serve's insides.

textual-serve (1.1) builds its aiohttp application in `Server._make_app` and
offers no way to add a middleware, so that private method is the hook; the
version is pinned below 1.2 in pyproject.toml and
`tests/test_serve_guard_rules.py::test_textual_serve_still_builds_its_app_in_make_app`
fails when an upgrade moves it. Everything else is public: the handlers, the
logging hook, and aiohttp's `run_app`.

We run the app ourselves rather than through `Server.serve()` for two things it
does not let us choose: no access log (its lines hold the query, so the token),
and the banner printed once the port is listening (with the token in the URL),
not before, so a taken port never prints an address that does not work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiohttp import web
from rich.logging import RichHandler
from textual_serve.server import Server

from tui.dashboard.startup.serve_guard import ServeGuard


class GuardedServer(Server):
    """textual-serve's `Server` whose every request passes `guard` first."""

    def __init__(self, command: str, *, host: str, port: int, title: str, public_url: str, guard: ServeGuard) -> None:
        super().__init__(command, host=host, port=port, title=title, public_url=public_url)
        self.guard = guard

    async def guarded_app(self) -> web.Application:
        """textual-serve's application with the guard as its first middleware."""
        app = await self._make_app()  # private: see the module's docstring
        app.middlewares.insert(0, self.guard.middleware)
        return app

    def initialize_logging(self) -> None:
        """textual-serve's log lines without the locals in its tracebacks: a frame building a tab's
        environment holds the API key, one checking a request the token."""
        logging.basicConfig(level="INFO", format="%(message)s", handlers=[
            RichHandler(show_path=False, show_time=False, rich_tracebacks=True, console=self.console),
        ])

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its logo and the address without the token here; ours is printed once listening."""

    def run(self, announce: Callable[[], None]) -> None:
        """Serve until SIGINT or SIGTERM; `announce()` once the port is listening."""
        self.initialize_logging()
        web.run_app(self.guarded_app(), host=self.host, port=self.port, access_log=None,
                    print=lambda *_: announce(), handle_signals=True)
