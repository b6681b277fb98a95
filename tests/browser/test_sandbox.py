"""The bubblewrap sandbox: no scratch files on the host, detached processes die, dead roots go, a warning without bwrap."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from tests.support.browser_pages import ORIGIN, PagesBackend
from tests.support.processes import processes_mentioning
from tui.emulator.browser import cgroups, sandbox_paths
from tui.emulator.browser import sandbox as sandbox_module
from tui.emulator.browser.chromium import ChromiumBackend
from tui.emulator.browser.limits import Kind
from tui.emulator.browser.sandbox import NOT_ISOLATED_WARNING, BwrapFeatures, Sandbox, find_bwrap
from tui.emulator.browser.temp_roots import OWNER_FILE, make_root, process_start_time

pytestmark = pytest.mark.browser

needs_bwrap = pytest.mark.skipif(
    find_bwrap() is None, reason="bubblewrap (bwrap) is not installed: nothing to sandbox with"
)


async def gone(marker: str) -> bool:
    for _ in range(50):  # killed processes may take a moment to be reaped
        if not processes_mentioning(marker):
            return True
        await asyncio.sleep(0.1)
    return False


def our_cgroups() -> list[Path]:
    """The sandbox groups this process has made and not removed."""
    support = cgroups.detect()
    if support is None:
        return []
    return [
        group for parent in set(support.parents.values()) for group in parent.glob(f"{cgroups.PREFIX}{os.getpid()}-*")
    ]


@pytest.mark.parametrize("isolated", [True, False], ids=["bwrap", "no-bwrap"])
async def test_scratch_files_of_browsers_and_runners_stay_out_of_the_hosts_tmp(
    chromium: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest, isolated: bool
) -> None:
    if isolated and find_bwrap() is None:
        pytest.skip("bubblewrap (bwrap) is not installed")
    # Stands in for the host's /tmp (other tests write to the real one); short, as Chromium's socket paths must be.
    host_tmp = Path(tempfile.mkdtemp(prefix="wds-t-"))
    request.addfinalizer(lambda: shutil.rmtree(host_tmp, ignore_errors=True))
    (tmp_path / "backend").mkdir()
    monkeypatch.setenv("TMPDIR", str(host_tmp))
    box = Sandbox(find_bwrap()) if isolated else Sandbox(None)
    backend = ChromiumBackend(chromium, temp_parent=tmp_path / "backend", prewarm=False, sandbox=box)
    try:
        for cycle in range(2):
            handle = await backend.launch(f"s-{cycle}", None)
            for language, code in (("python", "await page.title()"), ("node", "await page.title()")):
                outcome = await backend.execute(handle, code, language, 30)
                assert outcome.error is None, outcome.stderr
            await backend.close(handle, save_profile=False)
    finally:
        await backend.shutdown()
    left = sorted(p.name for p in host_tmp.iterdir())
    assert our_cgroups() == []  # each sandbox's group went with it
    if isolated:
        assert left == []
    else:  # what the sandbox prevents: Chromium's and Playwright's leftovers on the host
        assert any(name.startswith(("org.chromium.Chromium.", "playwright-artifacts-")) for name in left), left


@needs_bwrap
@pytest.mark.parametrize("ending", ["exit", "timeout"])
async def test_processes_the_code_detaches_end_with_the_execute(backend: ChromiumBackend, ending: str) -> None:
    handle = await backend.launch("s-detach", None)
    marker = "30071" if ending == "exit" else "30072"
    code = (
        f"setsid sleep {marker} >/dev/null 2>&1 < /dev/null &\n"
        f"( ( sleep {marker}1 >/dev/null 2>&1 < /dev/null & ) & )\n"
        "sleep 0.5\necho started\n"
    )
    if ending == "timeout":
        code += "sleep 60\n"
    outcome = await backend.execute(handle, code, "bash", 3)
    assert outcome.stdout == "started\n"
    assert outcome.killed is (ending == "timeout")
    assert await gone(f"sleep {marker}"), processes_mentioning(f"sleep {marker}")


@needs_bwrap
async def test_a_sandboxed_runner_sees_only_its_own_processes_and_files(backend: ChromiumBackend) -> None:
    handle = await backend.launch("s-seen", None)
    code = (
        "import os, glob\n"
        "pids = [p for p in os.listdir('/proc') if p.isdigit()]\n"
        "mine = [open(f'/proc/{p}/cmdline', 'rb').read() for p in pids]\n"
        "print(len(pids), any(b'--user-data-dir' in c or b'bin/pytest' in c for c in mine))\n"
        "print(glob.glob('/tmp/**/DevToolsActivePort', recursive=True), glob.glob('/tmp/**/wds-browser-*/*'))\n"
        f"print(os.path.exists({str(backend.root / 'sessions')!r}),\n"
        f"      os.listdir({str(backend.root / 'runs')!r}) == [os.path.basename(os.getcwd())])\n"
    )
    outcome = await backend.execute(handle, code, "python", 30)
    assert outcome.error is None, outcome.stderr
    count, saw_others = outcome.stdout.splitlines()[0].split()
    assert int(count) < 10 and saw_others == "False"
    # The paths of the run's own directory exist (bwrap makes the mount point), nothing beside it.
    assert outcome.stdout.splitlines()[1:] == ["[] []", "False True"]


async def test_only_roots_of_dead_owners_are_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    dead_root = tmp_path / f"wds-browser-{dead.pid}-abc"
    dead_root.mkdir()
    (dead_root / OWNER_FILE).write_text(f"{dead.pid} 1\n")
    (dead_root / "sessions").mkdir()
    reused_root = tmp_path / "wds-browser-1-reused"  # pid alive but another process (start time differs)
    reused_root.mkdir()
    (reused_root / OWNER_FILE).write_text(f"{os.getpid()} 0\n")
    live_root = make_root(tmp_path)  # this process: alive
    unmarked = tmp_path / "wds-browser-unmarked"
    unmarked.mkdir()
    assert process_start_time(os.getpid()) not in (None, "0")
    ChromiumBackend(Path("/bin/false"), temp_parent=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([live_root.name, unmarked.name])


async def test_without_bwrap_sessions_run_as_before_and_the_emulator_says_so_once(
    chromium: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("WDS_BWRAP", "")
    monkeypatch.setattr(sandbox_module, "_warned", False)
    backend = ChromiumBackend(chromium, temp_parent=tmp_path, prewarm=False)
    try:
        with caplog.at_level(logging.WARNING, logger="tui.emulator.browser.sandbox"):
            handle = await backend.launch("s-plain", None)
            for _ in range(2):
                outcome = await backend.execute(handle, "echo ok", "bash", 10)
                assert outcome.stdout == "ok\n"
    finally:
        await backend.shutdown()
    assert not backend.sandbox.isolated
    assert [r.getMessage() for r in caplog.records].count(NOT_ISOLATED_WARNING) == 1


async def test_a_bwrap_that_cannot_make_a_sandbox_counts_as_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "bwrap"
    broken.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("WDS_BWRAP", str(broken))
    assert find_bwrap() == broken
    assert not Sandbox.from_environment().isolated


@needs_bwrap
def test_a_hidden_file_such_as_the_emulators_key_file_reads_empty_inside(tmp_path: Path) -> None:
    # A sandbox sees only the runtime's paths; a key file among them (a checkout holding one) is masked.
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    key_file = runtime / "emulator-keys"
    key_file.write_text("ops=wds-secret-key\n")
    (runtime / "tool").write_text("a runtime file")
    sandbox = Sandbox(find_bwrap(), hidden=[key_file], runtime=[runtime])
    command = sandbox.confine(["cat", str(runtime / "tool"), str(key_file)], kind=Kind.RUN).command
    result = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "a runtime file"


@needs_bwrap
def test_a_checkout_or_venv_under_tmp_stays_visible_and_its_hidden_files_hidden(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # CI clones into /tmp: the private /tmp must not take Python, the venv or this package away.
    venv = Path(tempfile.mkdtemp(prefix="wds-venv-", dir="/tmp"))
    try:
        (venv / "marker").write_text("from the venv")
        key_file = venv / "emulator-keys"
        key_file.write_text("ops=wds-secret-key\n")
        monkeypatch.setattr(sandbox_paths.sys, "prefix", str(venv))
        assert venv in sandbox_paths.runtime_paths()
        sandbox = Sandbox(find_bwrap(), hidden=[key_file])
        command = sandbox.confine(["cat", str(venv / "marker"), str(key_file)], kind=Kind.RUN).command
        result = subprocess.run(command, capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
        assert result.stdout == "from the venv"
    finally:
        shutil.rmtree(venv)


@needs_bwrap
async def test_a_bubblewrap_without_network_namespaces_or_sizes_still_sandboxes_and_says_what_is_missing(
    chromium: Path, tmp_path: Path
) -> None:
    # As on a host that refuses bwrap a network namespace, with a bubblewrap older than 0.8.
    box = Sandbox(find_bwrap(), features=BwrapFeatures(network=False, sizes=False))
    backend = PagesBackend(chromium, temp_parent=tmp_path, prewarm=False, sandbox=box)
    try:
        handle = await backend.launch("s-degraded", None)
        for language in ("python", "node"):
            outcome = await backend.execute(
                handle, f"await page.goto('{ORIGIN}/title/Here'); await page.title()", language, 30
            )
            assert outcome.result == "Here", outcome.stderr
        seen = await backend.execute(
            handle, "import os\nprint(len(os.listdir('/proc')) < 80, os.path.exists('/root/.ssh'))", "python", 30
        )
        assert seen.stdout == "True False\n"  # still its own processes and its chosen files
    finally:
        await backend.shutdown()
    _, missing = box.guarantees()
    assert missing[:2] == [
        "a network of its own (bubblewrap cannot make a network namespace here): sandboxes reach this machine's "
        "loopback services",
        "a size cap on /tmp, /dev/shm and a run's directory (bubblewrap before 0.8)",
    ]
