"""A state file whose rows cannot be read stops the start with one line and exit 2, and is left as it was."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import pytest

from tests.emulator.test_state_file import KEY, emulator_on, start_refused
from tui.emulator.service import Emulator
from tui.emulator.state.state_file import StateSaver


def saved_state(path: Path) -> None:
    """A good state file of an emulator with one team that holds KEY."""
    saver = StateSaver(Emulator.from_keys({"acme": [KEY]}, history=False), path)
    saver.open()
    saver.save_now()
    saver.close()


@pytest.mark.parametrize(
    ("part", "key", "body"),
    [
        ("activity", "log", '{"next_seq":1,"pruned":[[[1],null,3]],"job_entries":[]}'),
        ("activity", "log", '{"next_seq":1,"pruned":[],"job_entries":[[1]]}'),
        ("activity", "log", '{"next_seq":NaN,"pruned":[],"job_entries":[]}'),
        ("progression", "modes", '{"teams":{},"jobs":{"j":{"mode":{"mode":"clock"},"polls":Infinity}}}'),
        ("progression", "modes", "[" * 100_000),
    ],
    ids=["unhashable pruned", "unhashable job entry", "NaN", "Infinity polls", "100k nested"],
)
def test_a_bad_row_in_a_state_file_is_one_line_and_exit_2(tmp_path: Path, part: str, key: str, body: str) -> None:
    state_file = tmp_path / "state.sqlite"
    saved_state(state_file)
    with sqlite3.connect(state_file) as db:
        db.execute(f"INSERT OR REPLACE INTO part_{part} (key, body) VALUES (?, ?)", (key, body))  # noqa: S608
    db.close()
    before = state_file.read_bytes()
    finished = start_refused(state_file)
    assert finished.returncode == 2, finished.stderr
    [line] = finished.stderr.strip().splitlines()
    assert line.startswith(f"wds-tui emulator: state file {state_file}: ")
    assert state_file.read_bytes() == before


def test_a_second_emulator_on_the_same_state_file_is_refused_naming_the_first(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    with emulator_on(state_file) as (_, _, pid):
        finished = start_refused(state_file)
        assert finished.returncode == 2
        assert finished.stderr.strip().splitlines() == [
            f"wds-tui emulator: state file {state_file} is in use by another emulator (pid {pid})"
        ]
        lock = state_file.with_name(state_file.name + ".lock")
        assert stat.S_IMODE(lock.stat().st_mode) == 0o600
