"""Sandbox limits: read from the environment with clear refusals, said in the banner, groups cleaned up."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tui.emulator.browser import cgroups
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.limits import GIB, MIB, Kind, LimitsError, SandboxLimits, parse_size
from tui.emulator.browser.sandbox import Sandbox
from tui.emulator.cli import banner
from tui.emulator.service import Emulator

REPO = Path(__file__).resolve().parents[2]


def test_sizes_and_counts_come_from_the_environment() -> None:
    limits = SandboxLimits.from_environment(
        {
            "WDS_RUN_MEMORY": "768M",
            "WDS_BROWSER_MEMORY": "1.5G",
            "WDS_RUN_TASKS": "64",
            "WDS_RUN_CPUS": "0.5",
            "WDS_SANDBOX_TMP": "64m",
            "WDS_SANDBOX_FILE": "10485760",
            "WDS_BROWSER_TASKS": " ",
        }
    )
    assert (limits.run_memory, limits.browser_memory, limits.tmp_size, limits.file_size) == (
        768 * MIB,
        int(1.5 * GIB),
        64 * MIB,
        10 * MIB,
    )
    assert (limits.tasks(Kind.RUN), limits.tasks(Kind.BROWSER), limits.cpus(Kind.RUN)) == (64, 1024, 0.5)
    assert SandboxLimits.from_environment({}) == SandboxLimits()


@pytest.mark.parametrize(
    ("variable", "value", "words"),
    [
        ("WDS_RUN_MEMORY", "lots", "WDS_RUN_MEMORY='lots' is not a size"),
        ("WDS_SANDBOX_TMP", "100K", "WDS_SANDBOX_TMP='100K' is below 1M"),
        ("WDS_RUN_TASKS", "many", "WDS_RUN_TASKS='many' is not a number"),
        ("WDS_BROWSER_CPUS", "0", "WDS_BROWSER_CPUS='0': it must be at least 0.1"),
        ("WDS_RUN_CPUS", "nan", "WDS_RUN_CPUS='nan': it must be at least 0.1"),
    ],
)
def test_a_limit_that_cannot_be_used_is_refused_by_name(variable: str, value: str, words: str) -> None:
    with pytest.raises(LimitsError) as refused:
        SandboxLimits.from_environment({variable: value})
    assert words in str(refused.value)


def test_the_emulator_refuses_to_start_with_a_bad_limit() -> None:
    started = subprocess.run(
        [sys.executable, "-m", "tui.emulator", "--port", "0", "--no-traffic"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "WDS_RUN_MEMORY": "half"},
    )
    assert started.returncode == 2
    assert "wds-tui emulator: WDS_RUN_MEMORY='half' is not a size" in started.stderr


def test_parse_size_takes_the_usual_suffixes() -> None:
    assert [parse_size(text, "X") for text in ("1G", "1GiB", "512MB", "2048k", "1048576")] == [
        GIB,
        GIB,
        512 * MIB,
        2 * MIB,
        MIB,
    ]


def test_a_machine_without_bubblewrap_or_cgroups_is_told_what_does_not_hold(chromium: Path, tmp_path: Path) -> None:
    backend = ChromiumBackend(chromium, temp_parent=tmp_path, sandbox=Sandbox(None), prewarm=False)
    emulator = Emulator.from_keys({"ops": ["wds-" + "2" * 32]}, browser_backend=backend)
    try:
        text = banner("http://127.0.0.1:4000", emulator, live=False)
    finally:
        asyncio.run(backend.shutdown())
    not_held = [line.strip() for line in text.splitlines() if line.startswith("  NOT held here:")]
    assert not_held == [
        "NOT held here: network, file system and /tmp isolation (no bubblewrap)",
        "NOT held here: a memory limit for browsers (no memory cgroup here)",
        "NOT held here: a limit on processes (no pids cgroup, and no uid of their own)",
        "NOT held here: a cap on CPU cores (no cpu cgroup)",
    ]
    assert "  holds: memory: address space of each run process <= 1.75 GiB (RLIMIT_AS)" in text
    assert "  spare runners: off (--no-spares)" in text


def test_what_this_machine_holds_is_in_the_banner(chromium: Path, tmp_path: Path) -> None:
    backend = ChromiumBackend(chromium, temp_parent=tmp_path, prewarm=True)
    emulator = Emulator.from_keys({"ops": ["wds-" + "2" * 32]}, browser_backend=backend)
    try:
        text = banner("http://127.0.0.1:4000", emulator, live=False)
        sandbox = backend.sandbox
    finally:
        asyncio.run(backend.shutdown())
    held, missing = sandbox.guarantees()
    assert [f"  holds: {line}" in text for line in held] == [True] * len(held)
    assert [f"  NOT held here: {line}" in text for line in missing] == [True] * len(missing)
    support = cgroups.detect()
    if support is not None and "memory" in support.controllers:
        assert f"memory: 1 GiB per browser, 512 MiB per run (memory cgroup v{support.version})" in held
    assert "files: 256 MiB at most (RLIMIT_FSIZE); CPU time of a run: its timeout (RLIMIT_CPU)" in held


# Serial: any emulator starting meanwhile (the parallel pass starts many) sweeps the dead group this
# test made before its own sweep counts it, as a clean-clone run saw.
@pytest.mark.serial
def test_groups_of_an_emulator_that_died_are_removed() -> None:
    support = cgroups.detect()
    if support is None:
        pytest.skip("no cgroup can be made here")
    dead = subprocess.Popen(["true"])
    dead.wait()
    parent = next(iter(support.parents.values()))
    left = parent / f"wds-{dead.pid}-1-1"
    left.mkdir()
    mine = cgroups.Cgroup(support, memory=64 * MIB, tasks=32, cpus=1)
    try:
        assert cgroups.remove_dead_groups(support) >= 1
        assert not left.exists()
        assert all(directory.exists() for directory in mine.dirs.values())  # a live emulator's stay
    finally:
        mine.remove()
        if left.exists():
            left.rmdir()
    assert not any(directory.exists() for directory in mine.dirs.values())
