"""`wds-tui watch` stopping: SIGTERM and SIGINT exit 0 with the journal written; `kill -9` loses at most the
last moments, and a dashboard-side read started afterwards (Journal + HistoryQueries) sees the rest."""

from __future__ import annotations

import signal
import sqlite3
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from tests.support.processes import free_port, served_emulator
from tests.watch.watch_process import KEY, call, journal_file, service_config, watching
from tui.monitor.journal import Journal

pytestmark = pytest.mark.socket

REFRESH = 0.5
LOSS_BOUND = 1.0
"""The journal's promise: a killed writer loses at most the records of its last second."""


def activity_ids(base_url: str) -> dict[str, float]:
    """Every entry of the team's activity (id -> when it was made), as the emulator lists it."""
    found: dict[str, float] = {}
    cursor = None
    while True:
        page = call(
            base_url, "GET", "/v2/team/activity", params={"limit": 100, **({"cursor": cursor} if cursor else {})}
        ).json()
        for entry in page["data"]:
            found[entry["id"]] = datetime.fromisoformat(entry["created_at"].replace("Z", "+00:00")).timestamp()
        cursor = page.get("cursor")
        if not page.get("has_more"):
            return found


def journaled(path: Path) -> set[str]:
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA quick_check").fetchall() == [("ok",)]
        return {row[0] for row in connection.execute("SELECT id FROM activity")}
    finally:
        connection.close()


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_exits_0_with_the_journal_written_and_a_last_line(tmp_path: Path, number: signal.Signals) -> None:
    with served_emulator(KEY, 4) as base_url:
        service_config(tmp_path, base_url)
        with watching(tmp_path, "--refresh", "1") as watch:
            watch.wait_for(lambda line: line["event"] == "watching")
            time.sleep(1.5)  # the first polls are under way
            assert watch.stop(number) == 0
            lines = watch.lines()
        entries = activity_ids(base_url)
    last = lines[-1]
    assert last["event"] == "stop" and last["reason"] == number.name
    assert last["contexts"]["emu"]["journal"] == str(journal_file(tmp_path, "emu"))
    assert journaled(journal_file(tmp_path, "emu")) == set(entries)  # the whole day, flushed before the exit
    assert watch.errors.read_text() == ""


@pytest.mark.serial
def test_kill_9_mid_write_loses_at_most_the_last_moments_and_a_later_reader_sees_the_rest(tmp_path: Path) -> None:
    with served_emulator(KEY, 4) as base_url:
        service_config(tmp_path, base_url)
        stop_calls = threading.Event()

        def keep_calling() -> None:  # new activity all along, so the journal is being written when killed
            while not stop_calls.is_set():
                call(base_url, "POST", "/v2/scrape", json={"url": "https://acme-outdoor.com/"})
                time.sleep(0.1)

        caller = threading.Thread(target=keep_calling, daemon=True)
        with watching(tmp_path, "--refresh", str(REFRESH)) as watch:
            watch.wait_for(lambda line: line["event"] == "watching")
            caller.start()
            time.sleep(4.0)
            watch.stop(signal.SIGKILL)
            killed_at = time.time()
        stop_calls.set()
        caller.join(30)
        entries = activity_ids(base_url)
    path = journal_file(tmp_path, "emu")
    kept = journaled(path)
    # What the watch could have seen a poll and a commit before the kill is there: older than the
    # loss bound, plus the poll interval and a poll's time (it sees an entry only at its next poll).
    settled = {entry for entry, made in entries.items() if made < killed_at - LOSS_BOUND - REFRESH - 0.5}
    assert settled <= kept, f"{len(settled - kept)} entries lost"
    recent = {entry for entry, made in entries.items() if made > killed_at - 3.0}
    assert recent & kept  # the file was being written up to the last seconds, not only at the start
    journal = Journal(path)  # the dashboard's side, started after the kill: it opens clean and reads it all
    try:
        assert journal.disabled is None and journal.notice is None
        calls = journal.read_now(lambda history: history.calls_per_day(days=3))
    finally:
        journal.close()
    assert sum(calls.values()) == len(kept)
    assert calls[(time.strftime("%Y-%m-%d", time.gmtime(killed_at)), "scrape")] > 0


def test_an_unreachable_service_is_one_line_per_endpoint_never_a_crash(tmp_path: Path) -> None:
    service_config(tmp_path, f"http://127.0.0.1:{free_port()}")  # nothing listens there
    with watching(tmp_path, "--refresh", "0.5") as watch:
        watch.wait_for(lambda line: line["event"] == "poll_error" and line["endpoint"] == "sessions")
        time.sleep(2.0)  # several more failed polls of every endpoint
        assert watch.stop() == 0
        lines = watch.lines()
    errors = [line for line in lines if line["event"] == "poll_error"]
    assert len(errors) == len({line["endpoint"] for line in errors})  # one line each, not one per poll
    assert all("reach" in line["problem"].lower() for line in errors)
    summary = lines[-1]["contexts"]["emu"]
    assert summary["poll_errors"] > len(errors) and summary["poll_errors"] == summary["polls"]
