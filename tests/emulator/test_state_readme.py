"""The README's "State that survives a restart" examples, run as written against a served emulator."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tui.emulator.cli import build_parser
from tui.emulator.server import ServerThread
from tui.emulator.service import Emulator

README = Path(__file__).resolve().parents[2] / "README.md"
ADMIN = "emu-" + "6b" * 16
KEY = "wds-" + "2f" * 16


def section() -> str:
    text = README.read_text()
    start = text.index("### State that survives a restart")
    return text[start:].split("\n## ", 1)[0].split("\n### ", 2)[0]


def test_the_documented_curl_examples_export_import_and_reset(tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    [script] = [block for block in re.findall(r"```sh\n(.*?)```", section(), re.S) if "curl" in block]
    emulator = Emulator.from_keys({"acme": [KEY]}, admin_token=ADMIN)
    with ServerThread(emulator) as url:
        lines = [line for line in script.splitlines() if line.startswith("curl")]
        export, put, reset = (
            subprocess.run(
                ["bash", "-c", line],
                env={**os.environ, "E": url, "ADMIN": ADMIN},
                cwd=tmp_path,
                capture_output=True,
                text=True,
                timeout=60,
                check=True,
            ).stdout
            for line in lines
        )
        exported = json.loads((tmp_path / "state.json").read_text())
        assert exported["format"] == "wds-emulator-state" and exported["parts"]["activity"]
        assert json.loads(put)["success"] is True and json.loads(put)["jobs"] == len(exported["parts"]["jobs"]["order"])
        assert json.loads(reset) == {"success": True, "teams": 1}
        assert emulator.jobs.for_team(emulator.teams.by_name("acme").id) == []  # type: ignore[union-attr]


def test_the_documented_option_exists() -> None:
    assert "wds-tui emulator --state-file" in section()
    arguments = build_parser().parse_args(["--state-file", "x.sqlite"])
    assert arguments.state_file == Path("x.sqlite")
