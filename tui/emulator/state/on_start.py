"""`--state-file` at start: load the file's state into a new emulator, add the keys given, and keep saving.

Keys given on the command line (or in a key file, or the environment) together
with a state file are added to the file's teams: a `TEAM=KEY` whose team the
file has joins that team, any other makes its team. A key the file gives to
another team is refused. Without given keys the file's teams are the teams
(no key is generated on top).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tui.contract.redact import mask_key
from tui.emulator.core.teams import Team
from tui.emulator.state.snapshot import counts, restore
from tui.emulator.state.state_file import StateFileError, StateSaver
from tui.emulator.state.stateful import Stateful
from tui.emulator.state.values import SnapshotError


def add_given_keys(emulator: Stateful, given: dict[str, list[str]]) -> None:
    """Add `given` (team name -> keys) to the restored teams (see the module's docstring)."""
    for name, keys in given.items():
        for key in keys:
            owner = emulator.teams.by_key(key)
            if owner is not None and owner.name != name:
                raise StateFileError(
                    f"the key ending in {mask_key(key)} belongs to team {owner.name!r} in the state file"
                )
        team = emulator.teams.by_name(name)
        if team is None:
            emulator.teams.add(Team.named(name, keys))
            continue
        team.api_keys.extend(key for key in keys if key not in team.api_keys)
        emulator.teams.add(team)  # registers its new keys


def keep_state(
    emulator: Any, path: Path, stored: dict[str, Any] | None, *, given: dict[str, list[str]]
) -> tuple[StateSaver, str]:
    """Restore `stored` (read from `path`) into `emulator`, start saving to `path`; the banner's line."""
    if stored is None:
        line = f"state: new file {path}"
    else:
        try:
            restore(emulator, stored)
        except SnapshotError as exc:
            raise StateFileError(f"state file {path}: {exc}") from None
        add_given_keys(emulator, given)
        jobs, activity = counts(stored)
        line = f"state: restored from {path} ({jobs} jobs, {activity} activity entries)"
    saver = StateSaver(emulator, path)
    saver.open()
    saver.save_now()  # the file holds the state from the start, not a second later
    emulator.background.add(saver.run_loop)
    return saver, line
