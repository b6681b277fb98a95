"""Starting and stopping real Chromium processes: CDP answers, nothing outlives its session."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import websockets

from tests.support.processes import processes_mentioning
from tui.emulator.browser import process
from tui.emulator.browser.backend import BrowserStartFailed
from tui.emulator.browser.chromium import ChromiumBackend

pytestmark = pytest.mark.browser


async def cdp_call(ws_endpoint: str, method: str) -> dict:
    async with websockets.connect(ws_endpoint, max_size=None) as ws:
        await ws.send(json.dumps({"id": 1, "method": method}))
        return json.loads(await asyncio.wait_for(ws.recv(), 10))


def group_running(pgid: int) -> bool:
    return process.group_alive(pgid)


async def test_launch_gives_a_browser_that_answers_cdp(backend: ChromiumBackend) -> None:
    handle = await backend.launch("s-1", None)
    assert handle.ws_endpoint.startswith("ws://127.0.0.1:")
    assert handle.user_data_dir.is_dir() and handle.user_data_dir.is_relative_to(backend.root)
    reply = await cdp_call(handle.ws_endpoint, "Browser.getVersion")
    assert reply["id"] == 1 and "Chrome/" in reply["result"]["product"]
    targets = await cdp_call(handle.ws_endpoint, "Target.getTargets")
    pages = [t for t in targets["result"]["targetInfos"] if t["type"] == "page"]
    assert [p["url"] for p in pages] == ["about:blank"]


async def test_each_session_has_its_own_browser_and_profile_dir(backend: ChromiumBackend) -> None:
    first, second = await asyncio.gather(backend.launch("s-1", None), backend.launch("s-2", None))
    assert first.pid != second.pid and first.user_data_dir != second.user_data_dir
    assert sorted(backend.running_pids()) == sorted([first.pid, second.pid])


async def test_close_kills_the_whole_group_and_removes_the_user_data_dir(backend: ChromiumBackend) -> None:
    handle = await backend.launch("s-1", None)
    assert group_running(handle.pid)
    started = time.perf_counter()
    await backend.close(handle, save_profile=False)
    assert time.perf_counter() - started < 2.0
    assert handle.closed.is_set()
    assert not group_running(handle.pid)
    assert not handle.user_data_dir.exists()
    assert handle.pid not in process.live_groups()
    await backend.close(handle, save_profile=False)  # closing twice is harmless


async def test_launching_the_same_session_twice_is_refused(backend: ChromiumBackend) -> None:
    await backend.launch("s-1", None)
    with pytest.raises(ValueError, match="already has a browser"):
        await backend.launch("s-1", None)


async def test_shutdown_kills_every_browser_and_removes_the_temp_root(chromium: Path, tmp_path: Path) -> None:
    backend = ChromiumBackend(chromium, temp_parent=tmp_path)
    handles = [await backend.launch(f"s-{i}", None) for i in range(3)]
    root = backend.root
    await backend.execute(handles[0], "1 + 1", "python", 30)
    await backend.shutdown()
    assert not any(group_running(h.pid) for h in handles)
    assert not root.exists()
    assert list(tmp_path.iterdir()) == []


async def test_a_browser_that_cannot_start_is_reported(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # as Chromium's own directory is: a sandbox's uid must be able to enter it
    fake = tmp_path / "fake-chromium"
    fake.write_text("#!/bin/sh\necho 'cannot open display' >&2\nexit 3\n")
    fake.chmod(0o755)
    backend = ChromiumBackend(fake, temp_parent=tmp_path)
    with pytest.raises(BrowserStartFailed, match="(?s)status 3.*cannot open display"):
        await backend.launch("s-1", None)
    assert not (backend.root / "sessions" / "s-1").exists()
    await backend.shutdown()


async def test_cycles_leave_no_process_and_no_file_behind(chromium: Path, tmp_path: Path) -> None:
    backend = ChromiumBackend(chromium, temp_parent=tmp_path)
    root = backend.root
    for cycle in range(3):
        handle = await backend.launch(f"s-{cycle}", None)
        assert processes_mentioning(str(root))
        outcome = await backend.execute(handle, "sleep 30 &\necho started", "bash", 10)
        assert outcome.stdout == "started\n"
        await backend.close(handle, save_profile=False)
        assert processes_mentioning(str(root)) == []
        assert list((root / "sessions").iterdir()) == [] and list((root / "runs").iterdir()) == []
    await backend.shutdown()
    assert list(tmp_path.iterdir()) == []


_ORPHAN_SCRIPT = """
import asyncio, sys
from tui.emulator.browser.chromium import ChromiumBackend
async def main():
    backend = ChromiumBackend(temp_parent=sys.argv[1])
    handle = await backend.launch("s-1", None)
    print(handle.pid, flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


def test_browsers_die_with_a_killed_emulator(chromium: Path, tmp_path: Path) -> None:
    """SIGKILL leaves no chance for cleanup code: the kernel's parent-death signal must do it."""
    env = {**os.environ, "WDS_CHROMIUM": str(chromium), "PYTHONPATH": str(Path(__file__).parents[2])}
    emulator = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_SCRIPT, str(tmp_path)], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert emulator.stdout is not None
        pgid = int(emulator.stdout.readline())
        assert group_running(pgid)
    finally:
        emulator.kill()
        emulator.wait()
    deadline = time.monotonic() + 10
    while group_running(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not group_running(pgid)
