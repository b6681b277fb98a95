"""How the suite itself is run: the README's test command is what CI runs, in parallel, and the markers select what they say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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


# One small file of each kind keeps these collections quick (a folder's takes a minute on a loaded machine).
BROWSER, E2E, SNAPSHOTS, PLAIN = (
    "tests/browser/test_launch.py",
    "tests/e2e/test_tmux.py",
    "tests/ui/test_snapshots_map.py",
    "tests/test_suite_setup.py",
)


def in_file(tests: set[str], path: str) -> set[str]:
    return {test for test in tests if test.startswith(path + "::")}


def test_markers_select_by_folder_and_the_fast_subset_leaves_out_chromium_and_terminals() -> None:
    files = (BROWSER, E2E, SNAPSHOTS, PLAIN)
    everything = collected(*files)
    assert all(in_file(everything, path) for path in files), "each file has tests"
    assert collected("-m", "browser", *files) == in_file(everything, BROWSER)
    assert collected("-m", "e2e", *files) == in_file(everything, E2E)
    assert collected("-m", "snapshot", *files) == in_file(everything, SNAPSHOTS)
    fast = collected("-m", "not browser and not e2e", *files)
    assert fast == in_file(everything, SNAPSHOTS) | in_file(everything, PLAIN)
