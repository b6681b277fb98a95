"""Starting on a state file: options that name a team are read against the file's teams."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.emulator.test_state_file_refused import saved_state
from tests.support.processes import REPO


def test_a_fault_rule_may_name_a_team_of_the_state_file(tmp_path: Path) -> None:
    state_file = tmp_path / "state.sqlite"
    saved_state(state_file)  # its one team is 'acme'; no key is given on this start
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WDS_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "emulator", "--port", "0", "--no-traffic", "--state-file", str(state_file)]
        + ["--fault", "GET /v2/team/activity status=503 team=acme"],
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
    )
    try:
        assert process.stdout is not None
        said = []
        for line in process.stdout:
            said.append(line.rstrip("\n"))
            if "Press Ctrl+C" in line:
                break
        assert said and "Press Ctrl+C" in said[-1], "\n".join(said)  # served, not refused
        assert any(line.strip() == "1: GET /v2/team/activity status=503 team=acme" for line in said), "\n".join(said)
    finally:
        process.kill()
        process.wait(10)
