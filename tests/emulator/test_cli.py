"""`wds-tui emulator` / `python -m tui.emulator`: options, banner, serving, exit codes."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tui.emulator.cli import KeySpecError, add_arguments, banner, teams_from_specs
from tui.emulator.key_sources import KEYS_VARIABLE, specs_from_file, take_specs_from_environment
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
        "127.0.0.1",
        3002,
        [],
        0,
        False,
        False,
    )
    args = parser.parse_args(["--port", "0", "--api-key", "a", "--api-key", "t=b", "--seed", "9", "--no-traffic"])
    assert (args.port, args.api_key, args.seed, args.no_traffic) == (0, ["a", "t=b"], 9, True)


def test_banner_prints_full_keys_and_a_curl() -> None:
    emulator = Emulator.from_keys({"ops": ["key-one", "key-two"]}, history=False)
    text = banner("http://127.0.0.1:4000", emulator, live=False)
    assert "http://127.0.0.1:4000" in text and "ops: key-one" in text and "ops: key-two" in text
    assert 'curl -H "Authorization: Bearer key-one" "http://127.0.0.1:4000/v2/team/activity?limit=5"' in text


def run_module(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui.emulator", *args], capture_output=True, text=True, timeout=30, cwd=REPO, env=env
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
    process, base_url, text = start_emulator(
        "--seed", "3", "--api-key", "ops=wds-" + "1" * 32, "--api-key", "wds-" + "2" * 32, entry=("tui.emulator",)
    )
    try:
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


SECRET_ONE, SECRET_TWO = "wds-" + "a" * 28 + "1111", "wds-" + "b" * 28 + "2222"


def write_key_file(tmp_path: Path, text: str, mode: int = 0o600) -> Path:
    path = tmp_path / "keys"
    path.write_text(text)
    path.chmod(mode)
    return path


def test_a_key_file_holds_one_spec_a_line_with_comments(tmp_path: Path) -> None:
    path = write_key_file(tmp_path, f"# the ops team\nops={SECRET_ONE}\n\n  {SECRET_TWO}  \n")
    assert specs_from_file(path) == ([f"ops={SECRET_ONE}", SECRET_TWO], [])


def test_a_key_file_others_can_read_is_warned_about(tmp_path: Path) -> None:
    _, warnings = specs_from_file(write_key_file(tmp_path, SECRET_ONE, mode=0o644))
    assert warnings and "chmod 600" in warnings[0]


@pytest.mark.parametrize("text", ["", "# only a comment\n"])
def test_an_empty_key_file_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(KeySpecError, match="no keys"):
        specs_from_file(write_key_file(tmp_path, text))


def test_a_missing_key_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KeySpecError, match="cannot read it"):
        specs_from_file(tmp_path / "absent")


def test_keys_from_the_environment_are_taken_out_of_it() -> None:
    environ = {KEYS_VARIABLE: f"ops={SECRET_ONE}\n{SECRET_TWO}", "OTHER": "x"}
    assert take_specs_from_environment(environ) == [f"ops={SECRET_ONE}", SECRET_TWO]
    assert environ == {"OTHER": "x"}
    assert take_specs_from_environment(environ) == []


def test_a_refused_key_is_never_quoted_whole() -> None:
    for spec in (f"={SECRET_ONE}", f"ops={SECRET_ONE} x"):
        with pytest.raises(KeySpecError) as caught:
            teams_from_specs([spec])
        assert SECRET_ONE not in str(caught.value)


def test_the_banner_masks_keys_that_came_from_a_file_or_the_environment() -> None:
    emulator = Emulator.from_keys({"ops": [SECRET_ONE], "dev": [SECRET_TWO]}, history=False)
    text = banner("http://127.0.0.1:4000", emulator, live=False, masked=frozenset({SECRET_ONE}))
    assert SECRET_ONE not in text and "ops: …1111" in text
    assert "dev: " + SECRET_TWO in text  # a key given on the command line is no secret any more
    assert 'Bearer $WDS_API_KEY"' in text


def test_bad_keys_from_the_environment_exit_2_without_quoting_them() -> None:
    result = run_module("--port", "0", env={**os.environ, KEYS_VARIABLE: f"={SECRET_ONE}"})
    assert result.returncode == 2 and "team name" in result.stderr
    assert SECRET_ONE not in result.stderr + result.stdout


def start_emulator(
    *args: str, env: dict[str, str] | None = None, entry: tuple[str, ...] = ("tui", "emulator")
) -> tuple[subprocess.Popen[str], str, str]:
    """`python -m <entry> ARGS` (`wds-tui emulator` by default) on a free port: the process, its base URL
    and its banner."""
    process = subprocess.Popen(
        [sys.executable, "-m", *entry, "--port", "0", "--no-traffic", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    lines = []
    deadline = time.monotonic() + 30
    assert process.stdout is not None
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line)
        if "Press Ctrl+C" in line:
            break
    text = "".join(lines)
    found = re.search(r"serving (http://127\.0\.0\.1:\d+)", text)
    if found is None:
        process.kill()
        raise AssertionError(f"the emulator did not start: {text}{process.communicate()[1]}")
    return process, found.group(1), text


def stop(process: subprocess.Popen[str]) -> str:
    """Ctrl+C the emulator; what it wrote on stderr."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
    return process.communicate()[1]


def answers_to(base_url: str, key: str) -> int:
    headers = {"Authorization": f"Bearer {key}"}
    return httpx.get(f"{base_url}/v2/team/activity", headers=headers, timeout=5).status_code


def proc_text(pid: int, name: str) -> str:
    return (Path("/proc") / str(pid) / name).read_bytes().replace(b"\0", b" ").decode(errors="replace")


@pytest.mark.socket
def test_keys_from_a_file_are_accepted_and_never_on_the_command_line(tmp_path: Path) -> None:
    path = write_key_file(tmp_path, f"ops={SECRET_ONE}\n{SECRET_TWO}\n")
    process, base_url, text = start_emulator("--api-key-file", str(path))
    try:
        assert answers_to(base_url, SECRET_ONE) == 200 and answers_to(base_url, SECRET_TWO) == 200
        assert answers_to(base_url, "wds-nope") == 401
        assert SECRET_ONE not in proc_text(process.pid, "cmdline")
        assert SECRET_ONE not in text and "ops: …1111" in text  # the banner may be logged
    finally:
        stderr = stop(process)
    assert "readable by other users" not in stderr


@pytest.mark.socket
def test_keys_from_the_environment_are_accepted_then_cleared_from_it() -> None:
    env = {**os.environ, KEYS_VARIABLE: f"ops={SECRET_ONE} {SECRET_TWO}"}
    process, base_url, text = start_emulator(env=env)
    try:
        assert answers_to(base_url, SECRET_ONE) == 200 and answers_to(base_url, SECRET_TWO) == 200
        for name in ("cmdline", "environ"):
            shown = proc_text(process.pid, name)
            assert SECRET_ONE not in shown and SECRET_TWO not in shown, f"a key is in /proc/<pid>/{name}"
        assert SECRET_ONE not in text and SECRET_TWO not in text
    finally:
        stop(process)


@pytest.mark.socket
def test_a_key_file_others_can_read_is_warned_about_at_start(tmp_path: Path) -> None:
    process, base_url, _ = start_emulator("--api-key-file", str(write_key_file(tmp_path, SECRET_ONE, mode=0o640)))
    try:
        assert answers_to(base_url, SECRET_ONE) == 200
    finally:
        stderr = stop(process)
    assert "readable by other users" in stderr and "chmod 600" in stderr


@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "no-bwrap"])
def test_the_banner_says_whether_sessions_are_isolated(bwrap: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.emulator.browser.chromium import ChromiumBackend
    from tui.emulator.browser.sandbox import find_bwrap

    if bwrap and find_bwrap() is None:
        pytest.skip("bubblewrap is not installed")
    if not bwrap:
        monkeypatch.setenv("WDS_BWRAP", "")  # names no bwrap: the sandbox is a pass-through
    backend = ChromiumBackend()
    if not backend.available:
        pytest.skip("no Chromium")
    emulator = Emulator.from_keys({"ops": ["wds-" + "1" * 32]}, browser_backend=backend)
    try:
        text = banner("http://127.0.0.1:4000", emulator, live=False)
    finally:
        asyncio.run(backend.shutdown())  # removes the temp root the sandbox's hidden list made
    expected = "each session in its own sandbox (bubblewrap)" if bwrap else "sessions NOT isolated (install bubblewrap)"
    assert f"Browser sessions: Chromium, {expected}" in text


@pytest.mark.parametrize(
    ("args", "env", "message"),
    [
        (["--fault", "GET /v2/x stauts=503"], {}, "--fault 'GET /v2/x stauts=503': unknown key 'stauts'"),
        (
            ["--api-key", "ops=wds-" + "3" * 32, "--fault", "GET /v2/x status=503 team=acme"],
            {},
            "team 'acme' is not a team of this emulator (its teams: ops)",
        ),
        ([], {"WDS_EMULATOR_FAULTS": "GET /v2/x status=503; GET /v2/y p=2 status=500"}, "p must be above 0"),
    ],
)
def test_a_bad_fault_rule_exits_2_with_one_line(args: list[str], env: dict[str, str], message: str) -> None:
    result = run_module(*args, env={**os.environ, **env})
    assert result.returncode == 2
    assert message in result.stderr and result.stderr.count("\n") == 1


@pytest.mark.socket
def test_fault_rules_from_the_command_line_and_environment_are_served_and_in_the_banner() -> None:
    key = "wds-" + "4" * 32
    env = {**os.environ, "WDS_EMULATOR_FAULTS": "GET /v2/crawl/active latency=1"}
    process, base_url, text = start_emulator(
        "--api-key", f"ops={key}", "--fault", "GET /v2/team/activity status=429 retry_after=3 times=1", env=env
    )
    try:
        assert "Fault rules (GET /_emulator/faults lists them with their firings):" in text
        assert "  1: GET /v2/team/activity status=429 retry_after=3 times=1" in text
        assert "  2: GET /v2/crawl/active latency=1" in text
        headers = {"Authorization": f"Bearer {key}"}
        first = httpx.get(f"{base_url}/v2/team/activity", headers=headers, timeout=5)
        assert first.status_code == 429 and first.headers["Retry-After"] == "3"
        assert httpx.get(f"{base_url}/v2/team/activity", headers=headers, timeout=5).status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=15)
