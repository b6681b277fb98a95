"""CDP over a pipe: no DevTools port, a token-checked gateway, and clients that cannot cross each other."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser


async def call(ws: Any, message_id: int, method: str, params: dict | None = None, session: str | None = None) -> dict:
    message: dict[str, Any] = {"id": message_id, "method": method, "params": params or {}}
    if session is not None:
        message["sessionId"] = session
    await ws.send(json.dumps(message))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if reply.get("id") == message_id:
            return reply


def listening_inodes() -> set[str]:
    """Socket inodes in LISTEN state (TCP, v4 and v6) on this machine's network namespace."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                inodes.add(fields[9])
    return inodes


def socket_inodes_of_processes_mentioning(marker: str) -> set[str]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if marker not in (entry / "cmdline").read_bytes().decode(errors="replace"):
                continue
            for fd in (entry / "fd").iterdir():
                target = fd.readlink().as_posix()
                if target.startswith("socket:["):
                    found.add(target[8:-1])
        except OSError:
            continue
    return found


async def test_the_browser_listens_on_no_tcp_port(backend: ChromiumBackend) -> None:
    handle = await backend.launch("s-pipe", None)
    assert not (handle.user_data_dir / "DevToolsActivePort").exists()
    sockets = socket_inodes_of_processes_mentioning(str(handle.user_data_dir))
    assert sockets, "no browser process found"
    assert not sockets & listening_inodes()
    reply = await call(await websockets.connect(handle.ws_endpoint, max_size=None), 1, "Browser.getVersion")
    assert reply["result"]["product"].startswith("Chrome/")


async def test_the_gateway_wants_the_sessions_token(backend: ChromiumBackend) -> None:
    handle = await backend.launch("s-gate", None)
    base, _, token = handle.ws_endpoint.partition("?token=")
    for url in (base, f"{base}?token=wrong", base.replace("s-gate", "s-other") + f"?token={token}"):
        with pytest.raises(InvalidStatus) as refused:
            await websockets.connect(url)
        assert refused.value.response.status_code == 403
    http_base = "http" + base.removeprefix("ws").split("/devtools")[0]
    async with httpx.AsyncClient() as plain:
        for path in ("/json/list", "/json/version", "/json", "/"):
            assert (await plain.get(http_base + path)).status_code == 403


async def test_clients_share_the_browser_but_not_ids_or_sessions(backend: ChromiumBackend, site: str) -> None:
    handle = await backend.launch("s-two", None)
    async with (
        websockets.connect(handle.ws_endpoint, max_size=None) as first,
        websockets.connect(handle.ws_endpoint, max_size=None) as second,
    ):
        # the same id on both connections at once: each gets its own answer
        version, targets = await asyncio.gather(
            call(first, 1, "Browser.getVersion"), call(second, 1, "Target.getTargets")
        )
        assert "product" in version["result"] and "targetInfos" in targets["result"]
        [page] = [t for t in targets["result"]["targetInfos"] if t["type"] == "page"]
        attached = await call(first, 2, "Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})
        child = attached["result"]["sessionId"]
        await call(first, 3, "Page.navigate", {"url": f"{site}/title/Shared"}, session=child)
        title = await call(first, 4, "Runtime.evaluate", {"expression": "document.title"}, session=child)
        for _ in range(50):
            if title["result"]["result"]["value"] == "Shared":
                break
            await asyncio.sleep(0.1)
            title = await call(first, 4, "Runtime.evaluate", {"expression": "document.title"}, session=child)
        assert title["result"]["result"]["value"] == "Shared"
        # the other client sees the same page, but cannot drive the first one's session
        stolen = await call(second, 2, "Runtime.evaluate", {"expression": "1"}, session=child)
        assert "error" in stolen
        again = await call(second, 3, "Target.getTargets")
        assert any(t.get("title") == "Shared" for t in again["result"]["targetInfos"])
    # a third client after both left still works
    async with websockets.connect(handle.ws_endpoint, max_size=None) as third:
        assert "product" in (await call(third, 1, "Browser.getVersion"))["result"]
