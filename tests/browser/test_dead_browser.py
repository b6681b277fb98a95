"""A session whose Chromium dies (killed by hand, crashed) ends: listed destroyed, 410 on execute and cdpUrl."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests.browser.proxied_sessions import Serve
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.core.clock import ManualClock
from tui.emulator.http.app import create_app
from tui.emulator.service import Emulator

pytestmark = pytest.mark.browser

KEY = "wds-" + "d4" * 16


@pytest.fixture
async def api(backend: ChromiumBackend, serve: Serve) -> AsyncIterator[tuple[Emulator, httpx.AsyncClient]]:
    clock = ManualClock(datetime(2025, 6, 15, 12, 0, tzinfo=UTC))
    emulator = Emulator.from_keys({"delta": [KEY]}, clock=clock, browser_backend=backend, history=False)
    host = await serve(create_app(emulator))
    headers = {"Authorization": f"Bearer {KEY}"}
    async with httpx.AsyncClient(base_url=f"http://{host}", headers=headers, timeout=60) as client:
        yield emulator, client
    await emulator.aclose()


async def _until_destroyed(client: httpx.AsyncClient, session_id: str) -> dict:
    for _ in range(100):
        [listed] = (await client.get("/v2/browser")).json()["sessions"]
        if listed["status"] == "destroyed":
            return listed
        await asyncio.sleep(0.05)
    raise AssertionError("the session still lists as active after its browser died")


async def test_a_killed_browser_ends_its_session(
    api: tuple[Emulator, httpx.AsyncClient], backend: ChromiumBackend, caplog: pytest.LogCaptureFixture
) -> None:
    emulator, client = api
    created = (await client.post("/v2/browser", json={"ttl": 120})).json()
    [pid] = backend.running_pids()
    with caplog.at_level(logging.WARNING, logger="tui.emulator.browser.sessions"):
        os.kill(pid, signal.SIGKILL)
        await _until_destroyed(client, created["id"])
    assert any("exited unexpectedly" in r.getMessage() and created["id"] in r.getMessage() for r in caplog.records)

    executed = await client.post(f"/v2/browser/{created['id']}/execute", json={"code": "1", "language": "python"})
    assert executed.status_code == 410
    assert executed.json() == {"success": False, "error": "Browser session has been destroyed.", "code": "GONE"}

    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(created["cdpUrl"])
    assert refused.value.response.status_code == 410
    assert b"Browser session has been destroyed." in refused.value.response.body
    # a wrong token still learns nothing more than 403
    with pytest.raises(InvalidStatus) as wrong:
        await websockets.connect(created["cdpUrl"].split("?")[0] + "?token=nope")
    assert wrong.value.response.status_code == 403
    assert backend.running_pids() == []


async def test_a_browser_that_dies_during_execute_answers_410(
    api: tuple[Emulator, httpx.AsyncClient], backend: ChromiumBackend
) -> None:
    _, client = api
    created = (await client.post("/v2/browser", json={"ttl": 120})).json()
    [pid] = backend.running_pids()
    code = "print('connected', flush=True)\nawait asyncio.sleep(3)\nawait page.goto('about:blank')"
    running = asyncio.create_task(
        client.post(f"/v2/browser/{created['id']}/execute", json={"code": code, "language": "python"})
    )
    await asyncio.sleep(1.5)  # the runner is connected and sleeping
    os.kill(pid, signal.SIGKILL)
    executed = await running
    assert executed.status_code == 410, executed.text
    assert "\x1b[" not in executed.text and "ECONNREFUSED" not in executed.text
    assert (await _until_destroyed(client, created["id"]))["status"] == "destroyed"
