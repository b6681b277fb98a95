"""Issue 9: `wds-tui emulator` stops on SIGTERM even while bad and heavy requests are in flight.

SIGTERM's handler runs on the event loop, so it did nothing while a backtracking
pattern held the loop. Now the loop is never held, and the heavy work in
worker threads (daemon threads) does not keep the process alive.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.emulator.test_freeze_patterns import EVIL_CRAWL

# They measure how long the event loop stalls, on the wall clock: alone, in the serial pass.
pytestmark = [pytest.mark.socket, pytest.mark.serial]

REPO = Path(__file__).resolve().parents[2]
KEY = "wds-" + "5" * 32
HEADERS = {"Authorization": f"Bearer {KEY}"}
# Seconds a busy emulator may take to stop: uvicorn's 3 s grace for requests in flight, plus start-up slack.
STOP_SECONDS = 8


def start_emulator() -> tuple[subprocess.Popen[str], str]:
    """`wds-tui emulator` on a free port, and its base URL once it serves."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui.dashboard.startup.cli",
            "emulator",
            "--port",
            "0",
            "--no-traffic",
            "--api-key",
            KEY,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    text = ""
    while time.monotonic() < deadline and (line := process.stdout.readline()):
        text += line
        if found := re.search(r"serving (http://127\.0\.0\.1:\d+)", text):
            return process, found.group(1)
    process.kill()
    raise AssertionError(f"the emulator did not start: {text}")


def test_sigterm_stops_the_emulator_during_the_evil_crawl_and_a_heavy_batch() -> None:
    process, base_url = start_emulator()
    try:
        # The crawl: it used to hold the loop for good. Now it answers, and the crawl runs.
        crawl = httpx.post(f"{base_url}/v2/crawl", json=EVIL_CRAWL, headers=HEADERS, timeout=10)
        assert crawl.status_code == 200, crawl.text
        # A batch of 150,000 URLs: seconds of reading, validating and sorting its URLs in a worker
        # thread (nothing is scraped when a batch is accepted), in flight at SIGTERM.
        batch_done = threading.Event()

        def batch() -> None:
            urls = [f"https://sigterm-{i % 1000}.example/page-{i}" for i in range(150_000)]
            try:
                httpx.post(f"{base_url}/v2/batch/scrape", json={"urls": urls}, headers=HEADERS, timeout=60)
            except httpx.HTTPError:
                pass  # the server going away mid-request is what this test does
            batch_done.set()

        threading.Thread(target=batch, daemon=True).start()
        time.sleep(0.5)
        assert httpx.get(f"{base_url}/v2/team/activity", headers=HEADERS, timeout=5).status_code == 200
        assert not batch_done.is_set(), "the batch finished too soon to prove anything"
        process.send_signal(signal.SIGTERM)
        started = time.monotonic()
        assert process.wait(timeout=STOP_SECONDS + 5) == 0
        stopped_after = time.monotonic() - started
        print(f"\nstopped {stopped_after:.2f} s after SIGTERM, the batch still in flight")
        assert stopped_after < STOP_SECONDS
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
