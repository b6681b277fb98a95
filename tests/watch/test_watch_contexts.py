"""`wds-tui watch --context a,b`: two services watched at once, each into its own journal (a broken one
moved aside and said in the log), both in one /metrics; and, with no service configured, the embedded emulator."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from tests.support.processes import children_of, free_port, served_emulator
from tests.watch.watch_process import KEY, call, environment, journal_file, watching, write_config

pytestmark = pytest.mark.socket


def activity(base_url: str) -> set[str]:
    return {entry["id"] for entry in call(base_url, "GET", "/v2/team/activity", params={"limit": 100}).json()["data"]}


def journaled(path: Path) -> set[str]:
    with sqlite3.connect(path) as connection:
        return {row[0] for row in connection.execute("SELECT id FROM activity")}


def test_two_contexts_keep_two_journals_and_share_one_metrics_page(tmp_path: Path) -> None:
    port = free_port()
    with served_emulator(KEY, 2) as first, served_emulator(KEY, 6) as second:
        write_config(
            tmp_path,
            f'[contexts.a]\nbase_url = "{first}"\napi_key = "{KEY}"\n\n[contexts.b]\nbase_url = "{second}"\napi_key = "{KEY}"\n',
        )
        broken = journal_file(tmp_path, "b")
        broken.parent.mkdir(parents=True)
        broken.write_bytes(b"not a database" * 100)
        with watching(tmp_path, "--context", "a,b", "--refresh", "1", "--metrics", str(port)) as watch:
            start = watch.wait_for(lambda line: line["event"] == "start")
            assert start["contexts"] == ["a", "b"]
            notice = watch.wait_for(lambda line: line["event"] == "journal")
            assert notice["context"] == "b"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
                if all(f'wds_polls_total{{context="{name}",endpoint="job_status"}}' in text for name in "ab"):
                    break
                time.sleep(0.5)
            else:
                raise AssertionError("both contexts never polled")
            assert watch.stop() == 0
            last = watch.lines()[-1]
        wanted = {"a": activity(first), "b": activity(second)}
    assert set(last["contexts"]) == {"a", "b"}
    assert not wanted["a"] & wanted["b"]
    for name in "ab":
        assert wanted[name] <= journaled(journal_file(tmp_path, name))  # each its own, no mixing
        assert not journaled(journal_file(tmp_path, name)) & wanted["b" if name == "a" else "a"]
    assert list(broken.parent.glob("b.sqlite3.corrupt-*"))


def test_with_no_service_configured_it_watches_the_embedded_emulator_and_stops_it(tmp_path: Path) -> None:
    env = {name: value for name, value in environment(tmp_path).items() if name != "WDS_API_KEY"}
    with watching(tmp_path, "--refresh", "1", env=env) as watch:
        start = watch.wait_for(lambda line: line["event"] == "start")
        assert start["services"]["default"].endswith("(embedded emulator)")
        time.sleep(2.0)
        children = children_of(watch.process.pid)
        assert children  # the emulator's process
        assert watch.stop() == 0
        last = watch.lines()[-1]
    assert last["event"] == "stop" and last["contexts"]["default"]["polls"] > 0
    assert last["contexts"]["default"]["poll_errors"] == 0
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in children if _alive(pid)]
    assert journaled(journal_file(tmp_path, "default"))


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")
