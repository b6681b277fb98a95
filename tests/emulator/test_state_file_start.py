"""Starting on a state file: options that name a team are read against the file's teams."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.emulator.test_state_file import KEY
from tests.emulator.test_state_file_refused import saved_state
from tests.support.processes import REPO, emulator_with_banner


def test_a_fault_rule_may_name_a_team_of_the_state_file(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    saved_state(state_file)  # its one team is 'acme'; no key is given on this start
    rule = "GET /v2/team/activity status=503 team=acme"
    with emulator_with_banner("--no-traffic", "--state-file", str(state_file), "--fault", rule) as (_, banner, _):
        assert any(line.strip() == f"1: {rule}" for line in banner.splitlines()), banner  # served, not refused


def started(state_file: Path | None, environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    options = ["--state-file", str(state_file)] if state_file is not None else []
    return subprocess.run(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--no-traffic", *options],
        env={**{k: v for k, v in os.environ.items() if not k.startswith("WDS_")}, **environment},
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )


def test_an_admin_token_equal_to_a_given_key_is_refused_at_start() -> None:
    finished = started(None, {"WDS_EMULATOR_API_KEYS": KEY, "WDS_EMULATOR_ADMIN_TOKEN": KEY})
    assert finished.returncode == 2
    assert finished.stderr.strip().splitlines() == [
        "wds-tui emulator: WDS_EMULATOR_ADMIN_TOKEN is also a team's API key: it must differ"
    ]


def test_an_admin_token_equal_to_a_key_of_the_state_file_is_refused_at_start(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    saved_state(state_file)
    before = state_file.read_bytes()
    finished = started(state_file, {"WDS_EMULATOR_ADMIN_TOKEN": KEY})
    assert finished.returncode == 2
    [line] = finished.stderr.strip().splitlines()
    assert "a key is this emulator's admin token" in line
    assert state_file.read_bytes() == before
