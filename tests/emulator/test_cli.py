"""`wds-tui emulator` / `python -m tui.emulator`: options, banner, serving, exit codes."""

from __future__ import annotations

import argparse
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tui.emulator.cli import KeySpecError, add_arguments, banner, teams_from_specs
from tui.emulator.service import Emulator

REPO = Path(__file__).resolve().parents[2]
KEY_RE = re.compile(r"^wds-[0-9a-f]{32}$")


def test_each_key_is_a_team_unless_named() -> None:
    assert teams_from_specs(["k1", "ops=k2", "k3", "ops=k4"]) == {
        "team-1": ["k1"],
        "ops": ["k2", "k4"],
        "team-2": ["k3"],
    }


def test_no_keys_gives_a_default_team_with_a_fresh_key() -> None:
    first, second = teams_from_specs([]), teams_from_specs([])
    assert list(first) == ["default"] and KEY_RE.match(first["default"][0])
    assert first != second


@pytest.mark.parametrize("spec", ["=k", "team=", "", "a key", "k=k=k x"])
def test_unusable_keys_are_refused(spec: str) -> None:
    with pytest.raises(KeySpecError):
        teams_from_specs([spec])


def test_a_key_given_twice_is_refused() -> None:
    with pytest.raises(KeySpecError, match="more than once"):
        teams_from_specs(["a=k", "b=k"])


def test_defaults_and_flags() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([])
    assert (args.host, args.port, args.api_key, args.seed, args.allow_remote, args.no_traffic) == (
        "127.0.0.1", 3002, [], 0, False, False,
    )
    args = parser.parse_args(["--port", "0", "--api-key", "a", "--api-key", "t=b", "--seed", "9", "--no-traffic"])
    assert (args.port, args.api_key, args.seed, args.no_traffic) == (0, ["a", "t=b"], 9, True)


def test_banner_prints_full_keys_and_a_curl() -> None:
    emulator = Emulator.from_keys({"ops": ["key-one", "key-two"]}, history=False)
    text = banner("http://127.0.0.1:4000", emulator, live=False)
    assert "http://127.0.0.1:4000" in text and "ops: key-one" in text and "ops: key-two" in text
    assert 'curl -H "Authorization: Bearer key-one" "http://127.0.0.1:4000/v2/team/activity?limit=5"' in text


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.emulator", *args], capture_output=True, text=True, timeout=30, cwd=REPO
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "not a port number"),
        (["--port", "abc"], "not a port number"),
        (["--host", "0.0.0.0"], "--allow-remote"),
        (["--api-key", "=k"], "team name"),
        (["--webhook-secret", " "], "empty"),
        (["--bogus"], "unrecognized arguments"),
    ],
)
def test_bad_flags_exit_2_with_a_message(args: list[str], message: str) -> None:
    result = run_module(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.socket
def test_serves_prints_keys_and_stops_on_ctrl_c() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "tui.emulator", "--port", "0", "--no-traffic", "--seed", "3",
         "--api-key", "ops=wds-" + "1" * 32, "--api-key", "wds-" + "2" * 32],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
    )
    try:
        lines = []
        deadline = time.monotonic() + 20
        assert process.stdout is not None
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "Press Ctrl+C" in line:
                break
        text = "".join(lines)
        base_url = re.search(r"serving (http://127\.0\.0\.1:\d+)", text).group(1)  # type: ignore[union-attr]
        assert "ops: wds-" + "1" * 32 in text and "team-1: wds-" + "2" * 32 in text
        r = httpx.get(f"{base_url}/v2/team/activity", headers={"Authorization": "Bearer wds-" + "2" * 32}, timeout=5)
        assert r.status_code == 200 and len(r.json()["data"]) == 50  # seeded history
        r = httpx.get(f"{base_url}/v2/team/activity", headers={"Authorization": "Bearer nope"}, timeout=5)
        assert r.status_code == 401
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
