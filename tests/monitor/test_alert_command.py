"""The operator's alert command: the notice as JSON on stdin, a time limit for its whole process group, capped output."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from tests.monitor.notices import notice
from tui.monitor.delivery.command import CommandResult, run_command

PY = sys.executable


async def test_the_command_reads_the_notice_as_json_on_stdin(tmp_path: Path) -> None:
    got = tmp_path / "got.json"
    script = f"import sys; open({str(got)!r}, 'w').write(sys.stdin.read())"
    outcome = await run_command([PY, "-c", script], notice().to_json().encode())
    assert outcome.result is CommandResult.OK and outcome.ok and outcome.returncode == 0
    sent = json.loads(got.read_text())
    assert sent == {
        "rule": "job_failed",
        "subject": "example.com",
        "state": "fired",
        "title": "3 scrapes failed",
        "body": "example.com: 503 within 10 min",
        "severity": "warning",
        "at": "2026-11-27T12:00:00+00:00",
        "context": "prod",
        "details": {},
    }
    assert outcome.message.startswith("alert command python") and " ran in " in outcome.message


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_at_its_time_limit_the_command_and_what_it_started_are_killed(tmp_path: Path) -> None:
    child_pid = tmp_path / "child.pid"
    # a shell that starts a sleeper of its own: killing the shell alone would leave it running
    script = f"sleep 60 & echo $! > {child_pid}; wait"
    outcome = await run_command(["sh", "-c", script], b"{}", timeout=1.0)
    assert outcome.result is CommandResult.TIMED_OUT and not outcome.ok
    assert outcome.message == f"alert command sh was stopped after {outcome.seconds:.1f} s (its time limit)"
    pid = int(child_pid.read_text())
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)  # the killed sleeper is reaped by init a moment later
    assert not alive(pid)


async def test_output_is_capped_and_the_rest_drained_so_the_command_finishes() -> None:
    # 1 MB on each stream: more than a pipe holds, so a reader that stopped reading would hang the command
    script = "import sys; sys.stdout.write('o' * 1_000_000); sys.stderr.write('e' * 1_000_000); sys.exit(3)"
    outcome = await run_command([PY, "-c", script], b"", timeout=30, output_cap=100)
    assert outcome.result is CommandResult.EXIT_CODE and outcome.returncode == 3
    assert (outcome.stdout, outcome.stderr) == (b"o" * 100, b"e" * 100)
    assert outcome.message == f"alert command {os.path.basename(PY)} exited with 3: " + "e" * 100


async def test_a_failing_command_says_what_it_printed_on_one_line() -> None:
    outcome = await run_command([PY, "-c", "import sys; print('hook refused\\x1b[2J\\nmore'); sys.exit(2)"], b"")
    assert outcome.result is CommandResult.EXIT_CODE
    assert outcome.message.endswith("exited with 2: hook refused[2J")


async def test_a_missing_command_is_said_not_raised(tmp_path: Path) -> None:
    outcome = await run_command([str(tmp_path / "no-such-notifier")], b"{}")
    assert outcome.result is CommandResult.NOT_FOUND
    assert outcome.message == "alert command no-such-notifier could not be started: No such file or directory"


async def test_a_command_that_reads_nothing_is_fine() -> None:
    outcome = await run_command(["true"], b"x" * 1_000_000)
    assert outcome.ok
