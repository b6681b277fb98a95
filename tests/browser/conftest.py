"""Fixtures for the real-browser tests: a Chromium backend, the tests' web site, a served app.

Every test that needs Chromium takes `chromium`, which skips with the reason
when no browser is found. Nothing here touches anything but 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette

from tests.browser.proxied_sessions import FakeSessions, Serve
from tests.support.browser_pages import ORIGIN, PagesBackend
from tui.emulator.browser.backend import BrowserUnavailable
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.locate import find_chromium


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
