"""How the suite itself is run: the README's test command is what CI runs, in parallel, and the markers select what they say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.support.marker_report import PREFIX

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


def markers_of(*paths: str) -> dict[str, set[str]]:
    """Each test id under `paths` and its markers, from one collection in a subprocess (markers are set then)."""
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + ["-p", "tests.support.marker_report", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    rows = [line.split("\t") for line in out.stdout.splitlines() if line.startswith(PREFIX)]
    return {test: set(filter(None, names.split(","))) for _, test, names in rows}


# One small file of each kind keeps the collection quick.
BROWSER, E2E, SNAPSHOTS, PLAIN = (
    "tests/browser/test_launch.py",
    "tests/e2e/test_tmux.py",
    "tests/ui/test_snapshots_map.py",
    "tests/test_suite_setup.py",
)


def test_markers_are_set_by_folder_and_the_fast_subset_leaves_out_chromium_and_terminals() -> None:
    tests = markers_of(BROWSER, E2E, SNAPSHOTS, PLAIN)

    def in_file(path: str) -> set[str]:
        return {test for test in tests if test.startswith(path + "::")}

    def having(name: str) -> set[str]:
        return {test for test, names in tests.items() if name in names}

    assert all(in_file(path) for path in (BROWSER, E2E, SNAPSHOTS, PLAIN)), "each file has tests"
    assert having("browser") == in_file(BROWSER)
    assert having("e2e") == in_file(E2E)
    assert having("snapshot") == in_file(SNAPSHOTS)
    assert having("socket") >= in_file(BROWSER) | in_file(E2E)
    fast = {test for test, names in tests.items() if not names & {"browser", "e2e"}}  # -m "not browser and not e2e"
    assert fast == in_file(SNAPSHOTS) | in_file(PLAIN)


def run_with_workers(value: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "auto", "-p", "no:cacheprovider", "tests/test_curl.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "WDS_TEST_WORKERS": value},
    )


def test_wds_test_workers_sets_how_many_workers_auto_starts_and_a_bad_value_is_said() -> None:
    three = run_with_workers("3")
    assert three.returncode == 0 and "created: 3/3 workers" in three.stdout, three.stdout[-2000:]
    bad = run_with_workers("many")
    assert bad.returncode != 0
    assert "WDS_TEST_WORKERS must be a whole number, not 'many'" in bad.stdout + bad.stderr
