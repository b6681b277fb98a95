"""The state file's saver: writes what changed, nothing when nothing did, and what an import brought."""

from __future__ import annotations

import stat
from pathlib import Path

from tui.contract.requests import ScrapeRequest
from tui.emulator.core.clock import ManualClock
from tui.emulator.core.teams import Caller
from tui.emulator.service import Emulator
from tui.emulator.state.snapshot import SnapshotReader, restore
from tui.emulator.state.state_file import StateSaver, load

KEY = "wds-" + "8d" * 16


def saved_emulator(tmp_path: Path) -> tuple[Emulator, StateSaver]:
    emulator = Emulator.from_keys({"acme": [KEY]}, clock=ManualClock(), history=False)
    saver = StateSaver(emulator, tmp_path / "state.sqlite")
    saver.open()
    return emulator, saver


def scrape(emulator: Emulator, url: str) -> str:
    team = emulator.teams.by_name("acme")
    assert team is not None
    return emulator.jobs.create_scrape(Caller(team, KEY), ScrapeRequest(url=url)).id


def test_a_save_writes_only_when_something_changed_and_the_file_reads_back_the_same(tmp_path: Path) -> None:
    emulator, saver = saved_emulator(tmp_path)
    assert saver.save_now() is True
    assert stat.S_IMODE(saver.path.stat().st_mode) == 0o600
    assert saver.save_now() is False  # nothing happened since
    scrape(emulator, "https://acme-outdoor.com/")
    assert saver.save_now() is True
    saver.close()
    stored = load(saver.path)
    assert stored is not None
    assert stored["parts"] == SnapshotReader(emulator).snapshot()["parts"]


def test_an_imported_job_of_an_id_already_saved_is_written_again(tmp_path: Path) -> None:
    emulator, saver = saved_emulator(tmp_path)
    job_id = scrape(emulator, "https://acme-outdoor.com/")
    saver.save_now()
    snapshot = SnapshotReader(emulator).snapshot()
    snapshot["parts"]["jobs"][f"job:{job_id}"]["v"]["url"] = "https://acme-outdoor.com/imported"
    restore(emulator, snapshot)
    assert saver.save_now() is True
    stored = load(saver.path)
    assert stored is not None and stored["parts"]["jobs"][f"job:{job_id}"]["v"]["url"].endswith("/imported")


def test_a_new_saver_on_an_existing_file_writes_nothing_until_something_changes(tmp_path: Path) -> None:
    emulator, saver = saved_emulator(tmp_path)
    scrape(emulator, "https://acme-outdoor.com/")
    saver.save_now()
    saver.close()
    again = StateSaver(emulator, saver.path)
    again.open()
    assert again.save_now() is False
