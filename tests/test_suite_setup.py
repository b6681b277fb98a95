"""How the suite itself is run: the README's test command is what CI runs, in parallel, and the markers select what they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"Set up and run the tests:\n\n```sh\n(.*?)\n```", readme, re.DOTALL)
    assert section, "the README's 'Two commands' section has the test command"
    return section.group(1).strip()


def test_ci_runs_the_readmes_test_command_verbatim() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert readme_test_command() in ci


def test_the_test_command_runs_in_parallel_then_the_timed_tests_alone_with_durations() -> None:
    passes = [part for part in readme_test_command().split(" && ") if "pytest" in part]
    assert passes == [
        '.venv/bin/pytest -q -n auto -m "not serial" --durations=25',
        ".venv/bin/pytest -q -m serial --durations=10",
    ]


def collected(*args: str) -> set[str]:
    """Test ids pytest collects with `args` (a subprocess: the markers are set at collection)."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    return {line for line in out.stdout.splitlines() if "::" in line}


@pytest.mark.parametrize(
    ("marker", "where"),
    [("browser", "tests/browser"), ("e2e", "tests/e2e"), ("snapshot", "tests/ui/test_snapshots_map.py")],
)
def test_every_test_of_a_folder_has_its_marker(marker: str, where: str) -> None:
    everything = collected(where)
    assert everything and collected("-m", marker, where) == everything


def test_the_fast_subset_leaves_out_chromium_and_terminals_only() -> None:
    everything = collected("tests/browser", "tests/e2e", "tests/test_suite_setup.py")
    fast = collected("-m", "not browser and not e2e", "tests/browser", "tests/e2e", "tests/test_suite_setup.py")
    assert fast == {test for test in everything if test.startswith("tests/test_suite_setup.py")}
