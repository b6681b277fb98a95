"""The live view pages: a view token and an interact token, a fresh screenshot each time, clicks only with the interact token."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import httpx
import pytest
from starlette.applications import Starlette

from tests.browser.proxied_sessions import FakeSessions
from tui.emulator.browser.access import SessionSecrets
from tui.emulator.browser.backend import BrowserHandle
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.http.live_view import live_view_routes

pytestmark = pytest.mark.browser


@pytest.fixture
async def viewer(sessions: FakeSessions) -> AsyncIterator[httpx.AsyncClient]:
    app = Starlette(routes=live_view_routes(sessions))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://emulator") as client:
        yield client


@pytest.fixture
async def watched(backend: ChromiumBackend, sessions: FakeSessions) -> tuple[BrowserHandle, SessionSecrets]:
    handle = await backend.launch("s-live", None)
    sessions.add(handle)
    return handle, sessions.secrets_of(handle.session_id)


async def test_each_page_needs_its_own_token(
    viewer: httpx.AsyncClient, watched: tuple[BrowserHandle, SessionSecrets]
) -> None:
    handle, secrets = watched
    url = f"/live/{handle.session_id}"
    page = await viewer.get(url, params={"token": secrets.view})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "screenshot.png" in page.text and "view only" in page.text
    assert secrets.interact not in page.text and secrets.cdp not in page.text
    interactive = await viewer.get(url, params={"token": secrets.interact, "interactive": "1"})
    assert interactive.status_code == 200
    assert "interactive" in interactive.text and json.dumps(secrets.interact) in interactive.text
    # The read-only link cannot be turned into an interactive one by adding the flag.
    assert (await viewer.get(url, params={"token": secrets.view, "interactive": "1"})).status_code == 403
    for params in ({"token": "wrong"}, {}, {"token": secrets.cdp}, {"token": secrets.cdp, "interactive": "1"}):
        refused = await viewer.get(url, params=params)
        assert refused.status_code == 403
        assert (await viewer.get(f"{url}/screenshot.png", params=params)).status_code == 403


async def test_the_screenshot_shows_the_current_page(
    backend: ChromiumBackend, viewer: httpx.AsyncClient, watched: tuple[BrowserHandle, SessionSecrets], site: str
) -> None:
    handle, secrets = watched
    url = f"/live/{handle.session_id}/screenshot.png"
    blank = await viewer.get(url, params={"token": secrets.view})
    assert blank.status_code == 200 and blank.headers["content-type"] == "image/png"
    assert blank.content.startswith(b"\x89PNG")
    await backend.execute(handle, f"await page.goto('{site}/title/Shown')", "python", 30)
    shown = await viewer.get(url, params={"token": secrets.view})
    assert shown.content.startswith(b"\x89PNG") and shown.content != blank.content
    # The interactive page refreshes its screenshot with the interact token.
    assert (await viewer.get(url, params={"token": secrets.interact})).content.startswith(b"\x89PNG")


async def test_only_the_interact_token_clicks(
    backend: ChromiumBackend,
    sessions: FakeSessions,
    viewer: httpx.AsyncClient,
    watched: tuple[BrowserHandle, SessionSecrets],
    site: str,
) -> None:
    handle, secrets = watched
    await backend.execute(handle, f"await page.goto('{site}/clicker')", "python", 30)
    url = f"/live/{handle.session_id}/input"
    click = {"type": "click", "x": 20, "y": 20}
    for token in (secrets.view, secrets.cdp, "wrong"):
        for params in ({"token": token}, {"token": token, "interactive": "1"}):
            assert (await viewer.post(url, params=params, json=click)).status_code == 403
    assert sessions.touches[handle.session_id] == 0  # refused input is not activity
    assert (await backend.execute(handle, "await page.title()", "node", 30)).result == "not clicked"
    bad = await viewer.post(url, params={"token": secrets.interact}, json={"type": "teleport"})
    assert bad.status_code == 400
    clicked = await viewer.post(url, params={"token": secrets.interact}, json=click)
    assert clicked.status_code == 200, clicked.text
    assert sessions.touches[handle.session_id] == 1  # interacting is activity
    outcome = await backend.execute(handle, "await page.title()", "node", 30)
    assert outcome.result == "clicked"


async def test_an_ended_session_shows_no_more(
    backend: ChromiumBackend,
    sessions: FakeSessions,
    viewer: httpx.AsyncClient,
    watched: tuple[BrowserHandle, SessionSecrets],
) -> None:
    handle, secrets = watched
    sessions.end(handle.session_id)
    await backend.close(handle, save_profile=False)
    for token in (secrets.view, secrets.interact):
        shot = await viewer.get(f"/live/{handle.session_id}/screenshot.png", params={"token": token})
        assert shot.status_code == 403
