"""A context's `api_key_command` is read for one line, within bounds, and leaves nothing running (issue 18, 6).

Real commands in a real shell. What a command started is found by its
process group in /proc, so "nothing left" means no live process of the group
(a zombie counts as ended: reaping orphans is init's business, and slow here).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.processes import processes_in_group
from tui.dashboard.startup import key_command
from tui.dashboard.startup.key_command import KEY_MAX_BYTES, KeyCommandError, key_from_command

REPO = Path(__file__).resolve().parents[1]
# a bounded wait for the kernel to finish what was signalled, not a speed target
SETTLE_SECONDS = 5.0


def _assert_nothing_left(pgid: int) -> None:
    deadline = time.monotonic() + SETTLE_SECONDS
    while (left := processes_in_group(pgid)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not left, f"processes of the key command still run: {left}"


@pytest.mark.parametrize(
    "rest",
    [
        "echo KEY; sleep 60 &",  # a child holds its stdout after it ended: no end of file for a minute
        "sleep 60 & echo KEY",
        "yes KEY",  # never ends, never stops printing
        "trap '' TERM; echo KEY; exec sleep 60",  # still running after its line, deaf to SIGTERM
    ],
)
def test_the_key_is_its_first_line_and_nothing_of_the_command_is_left(tmp_path: Path, rest: str) -> None:
    group = tmp_path / "group"
    # before: the first two waited for the end of file and failed after 15 s ("did not finish")
    assert key_from_command(f"echo $$ > {group}; {rest}", "prod") == "KEY"
    _assert_nothing_left(int(group.read_text()))


def test_a_first_line_longer_than_any_key_is_refused(tmp_path: Path) -> None:
    group = tmp_path / "group"
    # before: a megabyte of x was the key, sent as an Authorization header
    command = f"echo $$ > {group}; head -c 1000000 /dev/zero | tr '\\0' x; echo; sleep 60"
    with pytest.raises(KeyCommandError, match=f"first line longer than {KEY_MAX_BYTES:,} bytes, which no API key is"):
        key_from_command(command, "prod")
    _assert_nothing_left(int(group.read_text()))


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ('echo "no such entry"; exit 1', r"failed \(exit 1\): \(nothing on stderr\)"),  # a line, then a failure
        ("kill -9 $$", r"failed \(killed by SIGKILL\)"),
        (
            "printf 'why\\n\\033]0;owned\\007\\033[2Jlast words\\n' >&2; exit 4",
            r"failed \(exit 4\): \?\]0;owned\?\?\[2Jlast words$",
        ),
    ],
)
def test_a_command_that_fails_says_how_in_plain_text(command: str, said: str) -> None:
    with pytest.raises(KeyCommandError, match=said) as caught:
        key_from_command(command, "prod")
    assert "\x1b" not in str(caught.value) and "\x07" not in str(caught.value)


def test_a_command_that_prints_no_key_in_time_is_ended(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(key_command, "COMMAND_SECONDS", 0.5)
    group = tmp_path / "group"
    with pytest.raises(KeyCommandError, match=r"printed no key within 0.5 s; its last words: unlocking"):
        key_from_command(f"echo $$ > {group}; echo unlocking >&2; sleep 60", "prod")
    _assert_nothing_left(int(group.read_text()))


# `wds-tui check` with such a command, in a process whose peak memory is measured
CHECK_PROBE = """
import json, resource, subprocess, sys
done = subprocess.run([sys.executable, "-m", "tui", "check"], capture_output=True, text=True, timeout=120)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"status": done.returncode, "stderr": done.stderr, "peak": peak}))
"""


def _check_with(tmp_path: Path, command: str) -> dict[str, object]:
    config = tmp_path / "config.toml"
    config.write_text(f'[service]\nbase_url = "http://127.0.0.1:9"\napi_key_command = "{command}"\n')
    env = {key: value for key, value in os.environ.items() if not key.startswith("WDS_")}
    env.update(WDS_CONFIG=str(config), PYTHONPATH=str(REPO))
    result = subprocess.run(
        [sys.executable, "-c", CHECK_PROBE], capture_output=True, text=True, timeout=180, cwd=REPO, env=env, check=True
    )
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("command", "said"),
    [
        # 400 MB on one line; before: 5.5 GB of memory, and the 400 MB went out as the key
        ("head -c 400000000 /dev/zero | tr '\\\\0' x", "printed a first line longer than"),
        # 400 MB on stderr before failing: only its tail is kept
        (
            "head -c 400000000 /dev/zero | tr '\\\\0' e >&2; echo >&2; echo locked >&2; exit 3",
            r"failed (exit 3): locked",
        ),
    ],
)
@pytest.mark.serial  # a 400 MB flood read within the key command's 15 s, on the wall clock
def test_check_with_a_flooding_key_command_stays_small(tmp_path: Path, command: str, said: str) -> None:
    seen = _check_with(tmp_path, command)
    assert seen["status"] == 2
    assert said in str(seen["stderr"])
    peak = int(seen["peak"])  # type: ignore[call-overload]
    # `wds-tui check` itself, imports and all, peaks at some 45 MiB; the flood must add next to nothing
    assert peak < 100 * 2**20, f"wds-tui check peaked at {peak // 2**20} MiB"
