"""Serving over a real loopback socket: the thread server, the embedded server, curl."""

from __future__ import annotations

import json
import shutil
import subprocess

import httpx
import pytest

from tests.support.emulator_teams import ALPHA_KEY, auth
from tests.support.recording_backend import RecordingBackend
from tui.contract.loopback import is_loopback
from tui.emulator.server import RemoteBindRefused, ServerThread, check_host, running
from tui.emulator.service import Emulator

pytestmark = pytest.mark.socket


def test_server_thread_serves_on_a_free_port(emulator: Emulator) -> None:
    with ServerThread(emulator) as base_url:
        assert base_url.startswith("http://127.0.0.1:") and not base_url.endswith(":0")
        r = httpx.get(f"{base_url}/v2/team/activity", headers=auth(ALPHA_KEY))
        assert r.status_code == 200 and r.json()["success"] is True
        r = httpx.get(f"{base_url}/v2/team/activity")
        assert r.status_code == 401
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{base_url}/v2/team/activity", headers=auth(ALPHA_KEY))


async def test_running_in_the_current_loop_builds_urls_from_the_real_address(
    make_emulator,
    backend: RecordingBackend,  # type: ignore[no-untyped-def]
) -> None:
    emulator = make_emulator(browser_backend=backend)
    async with running(emulator) as base_url:
        host_port = base_url.removeprefix("http://")
        async with httpx.AsyncClient(base_url=base_url, headers=auth(ALPHA_KEY)) as c:
            body = (await c.post("/v2/browser", json={"ttl": 60})).json()
            assert body["cdpUrl"].startswith(f"ws://{host_port}/cdp/{body['id']}?token=")
            assert body["liveViewUrl"].startswith(f"http://{host_port}/live/{body['id']}?token=")
            assert emulator.background.started  # the reaper runs while served
    # Leaving the block stops the server, the loops, and every browser.
    assert backend.open_sessions == set() and backend.shutdowns == 1
    assert not emulator.background.tasks


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_can_use_the_emulator(emulator: Emulator) -> None:
    with ServerThread(emulator) as base_url:
        out = subprocess.run(
            ["curl", "-sS", "-H", f"Authorization: Bearer {ALPHA_KEY}", f"{base_url}/v2/team/token-usage/historical"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        assert json.loads(out.stdout) == {"success": True, "periods": []}
        out = subprocess.run(
            [
                "curl",
                "-sS",
                "-X",
                "POST",
                "-H",
                f"Authorization: Bearer {ALPHA_KEY}",
                "-H",
                "Content-Type: application/json",
                "-d",
                "{not json",
                f"{base_url}/v2/browser",
            ],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        )
        assert json.loads(out.stdout)["code"] == "BAD_REQUEST_INVALID_JSON"


def test_only_loopback_unless_allowed(emulator: Emulator) -> None:
    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost", "[::1]"):
        assert is_loopback(host), host
        check_host(host, allow_remote=False)
    for host in ("0.0.0.0", "192.168.1.10", "::", "example.com"):
        assert not is_loopback(host), host
        with pytest.raises(RemoteBindRefused, match="--allow-remote"):
            check_host(host, allow_remote=False)
        check_host(host, allow_remote=True)
    with pytest.raises(RemoteBindRefused):
        ServerThread(emulator, host="0.0.0.0").start()


def test_a_busy_port_is_reported(emulator: Emulator, make_emulator) -> None:  # type: ignore[no-untyped-def]
    with ServerThread(emulator) as base_url:
        port = int(base_url.rsplit(":", 1)[1])
        with pytest.raises(OSError):
            ServerThread(make_emulator(), port=port).start()
