"""textual-serve's server with `ServeGuard` in front: the one place that knows how textual-serve is put together.

textual-serve (1.1) offers no way to add a middleware to the aiohttp
application it builds, so we build that application ourselves from its public
parts: the handlers (`handle_index`, `handle_websocket`, `handle_download`),
the page's templates and static files (`templates_path`, `statics_path`) and
the start-up and shut-down hooks, with the guard as the application's
middleware from the start. No request reaches a handler without passing it.

The route names are part of textual-serve's page: `handle_index` builds the
socket's and the static files' addresses from the routes named "websocket" and
"static". The routes here are those of textual-serve 1.1; a release could add
one its page needs, so the version stays below 1.2 in pyproject.toml until an
upgrade has been compared with its `server.py`
(`tests/test_serve_guard_rules.py` serves the page and its files through this
application and fails when a handler, a path or a route name moves).

We run the app ourselves rather than through `Server.serve()` for two things it
does not let us choose: no access log (its lines hold the query, so the token),
and the banner printed once the port is listening (with the token in the URL),
not before, so a taken port never prints an address that does not work.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import aiohttp_jinja2
import jinja2
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
        """textual-serve's routes behind the guard: the page, its socket, its downloads and its files."""
        app = web.Application(middlewares=[self.guard.middleware])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=True, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def initialize_logging(self) -> None:
        """textual-serve's log lines without the locals in its tracebacks: a frame building a tab's
        environment holds the API key, one checking a request the token."""
        logging.basicConfig(
            level="INFO",
            format="%(message)s",
            handlers=[RichHandler(show_path=False, show_time=False, rich_tracebacks=True, console=self.console)],
        )

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its logo and the address without the token here; ours is printed once listening."""

    def run(self, announce: Callable[[], None]) -> None:
        """Serve until SIGINT or SIGTERM; `announce()` once the port is listening."""
        self.initialize_logging()
        web.run_app(
            self.guarded_app(),
            host=self.host,
            port=self.port,
            access_log=None,
            print=lambda *_: announce(),
            handle_signals=True,
        )
