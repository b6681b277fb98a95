"""Start-up applies the config file's [keys]: the real `wds-tui` command, run headless, quits on a rebound key.

The factory-level tests (tests/ui/test_key_overrides.py) build the app as
start-up does; this one goes through start-up itself (`cli.main` reads the
config, `launch.run_dashboard` checks the overrides and `_run_app` builds and
runs the app on the embedded emulator), which is where a merge once dropped
`app.set_keymap` unnoticed. Textual's own switches make the run testable
without a terminal: TEXTUAL_DRIVER picks its headless driver, TEXTUAL_PRESS
presses keys once the app is ready (what `textual run --press` sets).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.processes import REPO

HEADLESS = "textual.drivers.headless_driver:HeadlessDriver"


def test_a_key_rebound_in_the_config_file_works_from_start_up(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[keys]\n"app.quit" = "x"\n')
    config.chmod(0o600)
    environment = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "WDS_CONFIG": str(config),  # no service named: the embedded emulator, as on a first run
        "TEXTUAL_DRIVER": HEADLESS,
        "TEXTUAL_PRESS": "x",  # only x: q would quit whether or not x was bound
    }
    with (tmp_path / "run.log").open("wb") as log:
        dashboard = subprocess.Popen(
            [sys.executable, "-m", "tui"],
            env=environment,
            cwd=REPO,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            code = dashboard.wait(60)  # a start takes seconds; a key that does nothing, forever
        except subprocess.TimeoutExpired:
            os.killpg(dashboard.pid, signal.SIGKILL)  # the dashboard and its embedded emulator
            dashboard.wait(10)
            code = None
    output = (tmp_path / "run.log").read_text(errors="replace")
    assert code is not None, f"x did not quit: the [keys] override was not applied at start-up\n{output}"
    assert code == 0, output
    assert "[keys]" not in output, output  # no problem reported with the override
