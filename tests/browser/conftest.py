"""Fixtures for the real-browser tests: a Chromium backend, the tests' web site, a served app.

Every test that needs Chromium takes `chromium`, which skips with the reason
when no browser is found. Nothing here touches anything but 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import socket
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette

from tests.support.browser_pages import ORIGIN, PagesBackend
from tui.emulator.browser.access import Access, SessionSecrets
from tui.emulator.browser.backend import BrowserHandle, BrowserUnavailable
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.locate import find_chromium
from tui.emulator.http.cdp_proxy import cdp_proxy_route

Serve = Callable[[Starlette], Awaitable[str]]
"""The `serve` fixture's type: `await serve(app)` runs the app on a loopback port and returns `host:port`."""


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The browser binary; skips the test when this machine has none."""
    try:
        return find_chromium()
    except BrowserUnavailable as exc:
        pytest.skip(f"no Chromium here: {exc}")


@pytest.fixture
async def backend(chromium: Path, tmp_path: Path) -> AsyncIterator[ChromiumBackend]:
    """A backend whose temp root lives under the test's tmp_path; shut down after the test.

    Without spare runners: most tests run code once or twice, so a spare would
    only be started to be killed. `test_spares.py` covers the warm path.
    """
    parent = tmp_path / "backend-temp"
    parent.mkdir()
    backend = PagesBackend(chromium, temp_parent=parent, prewarm=False)
    try:
        yield backend
    finally:
        await backend.shutdown()


@pytest.fixture(scope="session")
def site() -> str:
    """Base URL of the tests' little web site (see `tests.support.browser_pages`), which `backend`'s
    browsers see through request interception: a sandboxed browser reaches no host loopback."""
    return ORIGIN


@dataclass
class _Entry:
    secrets: SessionSecrets
    handle: BrowserHandle
    active: bool = True


class FakeSessions:
    """The three methods the CDP proxy and live view need from the session manager."""

    def __init__(self) -> None:
        self.entries: dict[str, _Entry] = {}
        self.touches: Counter[str] = Counter()

    def add(self, handle: BrowserHandle) -> str:
        """Register a running browser; returns its cdp token (`secrets_of` has all three)."""
        secrets = SessionSecrets.new()
        self.entries[handle.session_id] = _Entry(secrets, handle)
        return secrets.cdp

    def secrets_of(self, session_id: str) -> SessionSecrets:
        return self.entries[session_id].secrets

    def end(self, session_id: str) -> None:
        self.entries[session_id].active = False

    def get_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> _Entry | None:
        entry = self.entries.get(session_id)
        if entry is None or not entry.active:
            return None
        return entry if entry.secrets.grants(token, access) else None

    def touch(self, session_id: str) -> bool:
        entry = self.entries.get(session_id)
        if entry is None or not entry.active:
            return False
        self.touches[session_id] += 1
        return True

    def ended_for_token(self, session_id: str, token: str, access: Access = Access.CDP) -> bool:
        entry = self.entries.get(session_id)
        return entry is not None and not entry.active and entry.secrets.grants(token, access)

    def handle(self, session_id: str) -> BrowserHandle | None:
        entry = self.entries.get(session_id)
        return entry.handle if entry is not None and entry.active else None


@pytest.fixture
def sessions() -> FakeSessions:
    return FakeSessions()


@pytest.fixture
async def serve() -> AsyncIterator[Serve]:
    """`await serve(app)` runs the app on a loopback port (uvicorn) and returns `host:port`."""
    running: list[tuple[uvicorn.Server, asyncio.Task[None]]] = []

    async def start(app: Starlette) -> str:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
        task = asyncio.create_task(server.serve(sockets=[sock]))
        running.append((server, task))
        while not server.started:
            if task.done():
                task.result()
            await asyncio.sleep(0.01)
        return f"127.0.0.1:{sock.getsockname()[1]}"

    yield start
    for server, task in running:
        server.should_exit = True
        await asyncio.wait_for(task, 10)


async def proxied_session(
    backend: ChromiumBackend, sessions: FakeSessions, serve: Serve, session_id: str
) -> tuple[BrowserHandle, str]:
    """A browser launched as `session_id` behind a served CDP proxy: (its handle, its cdpUrl with the token)."""
    handle = await backend.launch(session_id, None)
    token = sessions.add(handle)
    host = await serve(Starlette(routes=[cdp_proxy_route(sessions)]))
    return handle, f"ws://{host}/cdp/{handle.session_id}?token={token}"
