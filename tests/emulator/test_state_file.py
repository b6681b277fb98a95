"""`wds-tui emulator --state-file`: killed with SIGKILL and started again, it answers as it did."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx

from tests.support.processes import REPO, emulator_with_banner
from tui.emulator.state.state_file import load

KEY = "wds-" + "7e" * 16
ADMIN = "emu-" + "4d" * 16
TEAM = {"Authorization": f"Bearer {KEY}"}
SITE = "https://acme-outdoor.com"


def emulator_on(state_file: Path) -> AbstractContextManager[tuple[str, str, int]]:
    """`wds-tui emulator --state-file` in a child: (its base URL, its banner, its pid), stopped on the way out."""
    keys = {"WDS_EMULATOR_API_KEYS": KEY, "WDS_EMULATOR_ADMIN_TOKEN": ADMIN}
    return emulator_with_banner("--no-traffic", "--state-file", str(state_file), env=keys)


def seen(c: httpx.Client, ids: dict[str, str], cursor: str) -> dict[str, Any]:
    return {
        "first_page": c.get("/v2/team/activity", headers=TEAM, params={"limit": "10"}).json(),
        "cursor_page": c.get("/v2/team/activity", headers=TEAM, params={"cursor": cursor, "limit": "10"}).json(),
        "scrape": c.get(f"/v2/scrape/{ids['scrape']}", headers=TEAM).json(),
        "crawl": c.get(f"/v2/crawl/{ids['crawl']}", headers=TEAM).json(),
        "batch": c.get(f"/v2/batch/scrape/{ids['batch']}", headers=TEAM).json(),
        "usage": c.get("/v2/team/token-usage/historical?byApiKey=true", headers=TEAM).json(),
    }


def saved_as_served(c: httpx.Client, state_file: Path, deadline: float = 10.0) -> None:
    """Wait until the file holds what the emulator serves now (its next save has landed), or fail at the deadline."""
    admin = {"Authorization": f"Bearer {ADMIN}"}
    give_up = time.monotonic() + deadline
    while True:
        served = c.get("/_emulator/state", headers=admin).json()["parts"]
        stored = load(state_file)
        if stored is not None and stored["parts"] == served:
            return
        assert time.monotonic() < give_up, "the state file never caught up with the served state"
        time.sleep(0.1)


def tokens(usage: dict[str, Any]) -> int:
    return sum(period["totalTokens"] for period in usage["periods"])


def test_a_state_file_reloaded_after_kill_9_answers_the_same(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    with emulator_on(state_file) as (url, banner, pid), httpx.Client(base_url=url, timeout=30) as c:
        assert f"state: new file {state_file}" in banner.splitlines()
        assert stat.S_IMODE(state_file.stat().st_mode) == 0o600  # it holds the keys
        scrape = c.post("/v2/scrape", headers=TEAM, json={"url": f"{SITE}/"}).json()
        crawl = c.post("/v2/crawl", headers=TEAM, json={"url": f"{SITE}/", "limit": 3}).json()
        batch = c.post("/v2/batch/scrape", headers=TEAM, json={"urls": [f"{SITE}/", f"{SITE}/about"]}).json()
        ids = {"scrape": scrape["data"]["metadata"]["scrapeId"], "crawl": crawl["id"], "batch": batch["id"]}
        session = c.post("/v2/browser", headers=TEAM, json={"ttl": 120}).json()
        opened = session.get("success") is True  # only where Chromium is installed
        cursor = c.get("/v2/team/activity", headers=TEAM, params={"limit": "3"}).json()["cursor"]
        deadline = time.monotonic() + 30  # the crawl and the batch end on the clock (about 1.5 s; longer under load)
        while any(
            c.get(path, headers=TEAM).json()["status"] != "completed"
            for path in (f"/v2/crawl/{ids['crawl']}", f"/v2/batch/scrape/{ids['batch']}")
        ):
            assert time.monotonic() < deadline, "the crawl and the batch never completed"
            time.sleep(0.2)
        before = seen(c, ids, cursor)
        saved_as_served(c, state_file)  # a status read can bill a batch's pages: wait for that save to land
        os.kill(pid, signal.SIGKILL)  # the helper reaps it on the way out, before the next start

    with emulator_on(state_file) as (url, banner, _), httpx.Client(base_url=url, timeout=30) as c:
        [line] = [line for line in banner.splitlines() if line.startswith("state: ")]
        assert re.fullmatch(
            rf"state: restored from {re.escape(str(state_file))} \(\d+ jobs, \d+ activity entries\)", line
        )
        after = seen(c, ids, cursor)
        billed = tokens(after["usage"]) - tokens(before["usage"])
        assert {**after, "usage": None} == {**before, "usage": None}
        if opened:  # its browser died with the emulator (PR_SET_PDEATHSIG): listed, never reopened
            [listed] = c.get("/v2/browser", headers=TEAM).json()["sessions"]
            assert listed["id"] == session["id"] and listed["status"] == "destroyed"
            assert listed["endReason"] == "the emulator restarted"
            # Billed as any session that ends: its first minute, 2 credits (15 tokens each).
            assert billed == 2 * 15
        else:
            assert billed == 0
        assert {"scrape", "crawl", "batch_scrape"} <= {entry["endpoint"] for entry in before["first_page"]["data"][:4]}
        assert before["cursor_page"]["data"]
        assert before["crawl"]["status"] == before["batch"]["status"] == "completed"


def start_refused(state_file: Path) -> subprocess.CompletedProcess[str]:
    """`wds-tui emulator` on a state file it should refuse: its exit, and what it said."""
    return subprocess.run(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--no-traffic", "--state-file", str(state_file)],
        env={**os.environ, "WDS_EMULATOR_API_KEYS": KEY},
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_a_corrupt_state_file_stops_the_emulator_with_one_line_and_is_left_alone(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    state_file.write_bytes(b"not a database, but someone's notes\n" * 100)
    before = state_file.read_bytes()
    finished = start_refused(state_file)
    assert finished.returncode == 2
    assert finished.stderr.strip().splitlines() == [
        f"wds-tui emulator: state file {state_file}: not a readable SQLite database (file is not a database)"
    ]
    assert state_file.read_bytes() == before


def test_a_state_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    state_file = tmp_path / "other.sqlite"
    with sqlite3.connect(state_file) as db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('format', 'something-else')")
    finished = start_refused(state_file)
    assert finished.returncode == 2
    assert finished.stderr.strip() == f"wds-tui emulator: state file {state_file}: not a wds-tui emulator state file"
