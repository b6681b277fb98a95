"""The live view pages: token-checked, a fresh screenshot each time, clicks in the interactive one."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette

from tests.browser.conftest import FakeSessions
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.live_view import live_view_routes

pytestmark = pytest.mark.browser


@pytest.fixture
async def viewer(sessions: FakeSessions) -> AsyncIterator[httpx.AsyncClient]:
    app = Starlette(routes=live_view_routes(sessions))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://emulator") as client:
        yield client


@pytest.fixture
async def watched(backend: ChromiumBackend, sessions: FakeSessions) -> tuple[BrowserHandle, str]:
    handle = await backend.launch("s-live", None)
    return handle, sessions.add(handle)


async def test_the_page_needs_the_token(viewer: httpx.AsyncClient, watched: tuple[BrowserHandle, str]) -> None:
    handle, token = watched
    page = await viewer.get(f"/live/{handle.session_id}", params={"token": token})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "screenshot.png" in page.text and "view only" in page.text
    interactive = await viewer.get(f"/live/{handle.session_id}", params={"token": token, "interactive": "1"})
    assert "interactive" in interactive.text and "const base" in interactive.text
    for params in ({"token": "wrong"}, {}):
        refused = await viewer.get(f"/live/{handle.session_id}", params=params)
        assert refused.status_code == 403
        assert (await viewer.get(f"/live/{handle.session_id}/screenshot.png", params=params)).status_code == 403


async def test_the_screenshot_shows_the_current_page(
    backend: ChromiumBackend, viewer: httpx.AsyncClient, watched: tuple[BrowserHandle, str], site: str
) -> None:
    handle, token = watched
    blank = await viewer.get(f"/live/{handle.session_id}/screenshot.png", params={"token": token})
    assert blank.status_code == 200 and blank.headers["content-type"] == "image/png"
    assert blank.content.startswith(b"\x89PNG")
    await backend.execute(handle, f"await page.goto('{site}/title/Shown')", "python", 30)
    shown = await viewer.get(f"/live/{handle.session_id}/screenshot.png", params={"token": token})
    assert shown.content.startswith(b"\x89PNG") and shown.content != blank.content


async def test_interactive_clicks_reach_the_page(
    backend: ChromiumBackend, sessions: FakeSessions, viewer: httpx.AsyncClient,
    watched: tuple[BrowserHandle, str], site: str,
) -> None:
    handle, token = watched
    await backend.execute(handle, f"await page.goto('{site}/clicker')", "python", 30)
    url = f"/live/{handle.session_id}/input"
    view_only = await viewer.post(url, params={"token": token}, json={"type": "click", "x": 20, "y": 20})
    assert view_only.status_code == 403
    bad = await viewer.post(url, params={"token": token, "interactive": "1"}, json={"type": "teleport"})
    assert bad.status_code == 400
    touched_before = sessions.touches[handle.session_id]
    clicked = await viewer.post(url, params={"token": token, "interactive": "1"}, json={"type": "click", "x": 20, "y": 20})
    assert clicked.status_code == 200, clicked.text
    assert sessions.touches[handle.session_id] == touched_before + 1  # interacting is activity
    outcome = await backend.execute(handle, "await page.title()", "node", 30)
    assert outcome.result == "clicked"


async def test_an_ended_session_shows_no_more(
    backend: ChromiumBackend, sessions: FakeSessions, viewer: httpx.AsyncClient, watched: tuple[BrowserHandle, str]
) -> None:
    handle, token = watched
    sessions.end(handle.session_id)
    await backend.close(handle, save_profile=False)
    assert (await viewer.get(f"/live/{handle.session_id}/screenshot.png", params={"token": token})).status_code == 403
