"""The embedded emulator as the dashboard's child process: it serves, keeps quiet, and dies with its parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tui.dashboard.startup import embedded_emulator as local_emulator
from tui.dashboard.startup.embedded_emulator import LocalEmulator

pytestmark = pytest.mark.socket


def _gone(pid: int, seconds: float = 10.0) -> bool:
    """Whether process `pid` has ended (or is a zombie) within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[LocalEmulator]:
    with LocalEmulator.start(seed=7, log_path=tmp_path / "log" / "emulator.log") as running:
        yield running


def test_the_url_is_known_at_once_and_the_first_request_waits_for_the_child(emulator: LocalEmulator) -> None:
    # No wait for the child here: the request sits in the socket's backlog until it serves.
    answer = httpx.get(
        f"{emulator.base_url}/v2/team/activity?limit=3",
        headers={"Authorization": f"Bearer {emulator.api_key}"},
        timeout=30,
    )
    assert answer.status_code == 200
    assert len(answer.json()["data"]) == 3
    refused = httpx.get(f"{emulator.base_url}/v2/team/activity", headers={"Authorization": "Bearer wds-nope"})
    assert refused.status_code == 401


def test_the_key_is_not_on_the_child_command_line(emulator: LocalEmulator) -> None:
    cmdline = Path(f"/proc/{emulator.process.pid}/cmdline").read_bytes()
    assert emulator.api_key.encode() not in cmdline


def test_the_key_is_gone_from_the_child_environment_once_it_serves(emulator: LocalEmulator) -> None:
    headers = {"Authorization": f"Bearer {emulator.api_key}"}
    assert httpx.get(f"{emulator.base_url}/v2/crawl/active", headers=headers, timeout=30).status_code == 200
    environ = Path(f"/proc/{emulator.process.pid}/environ").read_bytes()
    assert emulator.api_key.encode() not in environ


def test_what_the_child_prints_goes_to_a_private_log_not_the_terminal(emulator: LocalEmulator) -> None:
    httpx.get(f"{emulator.base_url}/v2/crawl/active", headers={"Authorization": f"Bearer {emulator.api_key}"})
    # The line follows the server's start, and the socket may answer a moment before it is written.
    deadline = time.monotonic() + 5
    while "embedded emulator serving" not in emulator.log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "embedded emulator serving" in emulator.log_path.read_text()
    assert emulator.log_path.stat().st_mode & 0o077 == 0


def test_stop_ends_the_child_and_frees_the_port(emulator: LocalEmulator) -> None:
    httpx.get(f"{emulator.base_url}/v2/crawl/active", headers={"Authorization": f"Bearer {emulator.api_key}"})
    emulator.stop()
    assert emulator.exit_status() is not None
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{emulator.base_url}/v2/crawl/active", timeout=2)


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP])
def test_the_child_dies_with_its_parent_however_the_parent_ends(tmp_path: Path, how: signal.Signals) -> None:
    script = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from tui.dashboard.startup.embedded_emulator import LocalEmulator
        running = LocalEmulator.start(log_path=Path({str(tmp_path / "log")!r}))
        print(running.process.pid, flush=True)
        time.sleep(60)
        """
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    # The child as far as serving (its watch on the parent is set up before): its log says so.
    deadline = time.monotonic() + 30
    while "embedded emulator serving" not in (tmp_path / "log").read_text() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert "embedded emulator serving" in (tmp_path / "log").read_text()
    assert not _gone(child, 0.1)
    parent.send_signal(how)
    parent.wait(10)
    assert _gone(child), f"the embedded emulator outlived its parent ({how.name})"


def test_a_missing_extra_is_named_with_the_command_that_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real = local_emulator.importlib.util.find_spec
    monkeypatch.setattr(
        local_emulator.importlib.util, "find_spec", lambda name: None if name == "uvicorn" else real(name)
    )
    message = local_emulator.missing_emulator_message()
    assert message is not None and "uvicorn" in message
    assert "pip install 'wds-tui[emulator]'" in message
    assert "\n" not in message


def test_nothing_installed_is_missing_here() -> None:
    assert local_emulator.missing_emulator_message() is None


def test_the_child_refuses_to_start_without_its_key() -> None:
    env = {k: v for k, v in os.environ.items() if k != local_emulator.KEY_VARIABLE}
    done = subprocess.run(
        [sys.executable, "-m", "tui.emulator.child", "--fd", "99", "--parent", str(os.getpid())],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert local_emulator.KEY_VARIABLE in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the README names the Linux path")
def test_the_log_is_where_the_readme_says(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    assert local_emulator.default_log_path() == tmp_path / ".local/state/wds-tui/log/embedded-emulator.log"


def test_what_runs_before_the_child_starts_stays_light() -> None:
    """The child starts as early as it can: nothing on the way to it imports asyncio, pydantic or Textual."""
    script = (
        "import sys\nimport tui.dashboard.startup.cli, tui.dashboard.startup.config_path, tui.dashboard.startup.embedded_emulator\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('asyncio', 'pydantic', 'textual', 'httpx')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_fault_rules_from_the_environment_reach_the_embedded_emulator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_EMULATOR_FAULTS", "GET /v2/team/activity status=503 retry_after=2; GET /v2/map latency=1")
    with LocalEmulator.start(seed=7, log_path=tmp_path / "emulator.log") as running:
        headers = {"Authorization": f"Bearer {running.api_key}"}
        answer = httpx.get(f"{running.base_url}/v2/team/activity", headers=headers, timeout=30)
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    assert answer.json()["code"] == "SERVICE_UNAVAILABLE"


def test_a_bad_fault_rule_in_the_environment_stops_the_child_with_the_reason_in_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WDS_EMULATOR_FAULTS", "GET /v2/team/* status=503; GET /v2/map team=acme status=500")
    log = tmp_path / "emulator.log"
    with LocalEmulator.start(seed=7, log_path=log) as running:
        assert running.process.wait(30) == 2
        # What the dashboard meets: no answer, so its connection screen points at this log.
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{running.base_url}/v2/team/activity", timeout=5)
    said = log.read_text()
    assert "WDS_EMULATOR_FAULTS 'GET /v2/map team=acme status=500': team 'acme' is not a team" in said
    assert "(its teams: local)" in said and "Traceback" not in said
