"""Starting on a state file: keys given as well join the file's teams, a fast clock resumes where it was."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tui.emulator.cli import resumed_at
from tui.emulator.core.clock import ManualClock
from tui.emulator.service import Emulator
from tui.emulator.state.on_start import add_given_keys
from tui.emulator.state.snapshot import SnapshotReader, restore
from tui.emulator.state.state_file import StateFileError

FILE_KEY = "wds-" + "1a" * 16


def restored() -> Emulator:
    saved = SnapshotReader(Emulator.from_keys({"acme": [FILE_KEY]}, clock=ManualClock(), history=False)).snapshot()
    emulator = Emulator.from_keys({"given": ["wds-unused"]}, clock=ManualClock(), history=False)
    restore(emulator, saved)
    return emulator


def test_a_given_key_joins_the_files_team_of_its_name_or_makes_its_own() -> None:
    emulator = restored()
    add_given_keys(emulator, {"acme": ["wds-second"], "other": ["wds-third"]})
    acme, other = emulator.teams.by_name("acme"), emulator.teams.by_name("other")
    assert acme is not None and acme.api_keys == [FILE_KEY, "wds-second"]
    assert emulator.team_by_key("wds-second") is acme
    assert other is not None and emulator.team_by_key("wds-third") is other
    assert emulator.team_by_key("wds-unused") is None  # the teams built before the restore are gone


def test_a_given_key_the_file_gives_to_another_team_is_refused() -> None:
    with pytest.raises(StateFileError, match="belongs to team 'acme' in the state file"):
        add_given_keys(restored(), {"other": [FILE_KEY]})


def test_a_fast_clock_goes_on_from_where_the_file_left_off_when_that_is_ahead_of_now() -> None:
    ahead = datetime.now(UTC) + timedelta(days=3)
    assert resumed_at({"saved_at": ahead.isoformat()}) == ahead
    assert resumed_at({"saved_at": (datetime.now(UTC) - timedelta(days=3)).isoformat()}) is None
    assert resumed_at({"saved_at": "not a time"}) is None
    assert resumed_at(None) is None
