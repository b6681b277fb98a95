"""`kill -9` of the emulator: its sandboxes die with it, and the next emulator removes its temp root."""

from __future__ import annotations

import glob
import os
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.browser.test_isolation import ALPHA_KEY
from tests.support.processes import emulator_with_banner, processes_mentioning
from tui.emulator.browser.sandbox import find_bwrap

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(find_bwrap() is None, reason="bubblewrap (bwrap) is not installed: nothing kills detached code"),
]


def _wait_until(condition, timeout: float = 15.0) -> bool:  # noqa: ANN001 - a tiny local helper
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


# Serial: any emulator starting meanwhile (the parallel pass starts many) sweeps the orphaned root
# this test expects to find still there, as a clean-clone run saw.
@pytest.mark.serial
def test_a_killed_emulator_leaves_no_process_and_its_root_goes_at_the_next_start(chromium: Path) -> None:
    flags = ("--no-traffic", "--api-key", f"alpha={ALPHA_KEY}")
    with emulator_with_banner(*flags) as (url, _, pid):
        headers = {"Authorization": f"Bearer {ALPHA_KEY}"}
        with httpx.Client(base_url=url, timeout=60, headers=headers) as http:
            session = http.post("/v2/browser", json={"ttl": 300}).json()
            code = "setsid sleep 30093 >/dev/null 2>&1 < /dev/null &\nsleep 60\n"

            def execute() -> None:
                try:
                    http.post(f"/v2/browser/{session['id']}/execute", json={"code": code, "language": "bash"})
                except httpx.HTTPError:
                    pass  # the emulator is killed under this request

            threading.Thread(target=execute, daemon=True).start()
            assert _wait_until(lambda: bool(processes_mentioning("sleep 30093")))
        roots = glob.glob(f"/tmp/wds-browser-{pid}-*")
        assert len(roots) == 1
        os.kill(pid, signal.SIGKILL)  # the helper reaps it on the way out
    assert _wait_until(lambda: not processes_mentioning("sleep 30093")), "detached user code outlived the emulator"
    assert _wait_until(lambda: not processes_mentioning(roots[0])), "a browser outlived the emulator"
    assert Path(roots[0]).exists()  # nobody was left to remove it...
    with emulator_with_banner(*flags):
        assert not Path(roots[0]).exists()  # ...until the next emulator started
