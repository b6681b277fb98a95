"""Child process groups that cannot outlive the emulator.

Every browser and every code runner starts in a process group of its own
(`start_new_session=True`), so that one `killpg` ends it with all its
descendants (renderers, the Playwright driver, whatever user code spawned).
Three nets make sure no group outlives the emulator:

1. normal paths: the backend's `close()` / `shutdown()` kill groups;
2. `atexit` (and a SIGTERM handler when no one else handles SIGTERM) kills
   every group still registered here;
3. on Linux the direct child gets `PR_SET_PDEATHSIG(SIGKILL)`, so the kernel
   kills it even when the emulator dies by SIGKILL or a crash; Chromium's own
   helpers notice their browser process is gone and exit.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import fcntl
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1

_live_groups: set[int] = set()
_lock = threading.Lock()
_handlers_installed = False


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl  # resolved now: nothing to look up after fork
    except (OSError, AttributeError):
        return None


_prctl = _load_prctl()


def signal_when_parent_dies(sig: signal.Signals) -> bool:
    """Ask the kernel to send `sig` to this process when its parent dies; False where it cannot (not Linux)."""
    if _prctl is None:
        return False
    return _prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0


def _preexec(fds: dict[int, int], setup: Callable[[], None] | None) -> Callable[[], None] | None:
    """A `preexec_fn` that makes the child die with this process (Linux), places `fds`
    (child number -> our fd) where the child expects them and runs `setup` (a sandbox's
    cgroup and rlimits); None when there is nothing to do."""
    prctl = _prctl
    if prctl is None and not fds and setup is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        if prctl is not None:
            prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
            if os.getppid() != parent:  # the parent died before prctl took effect
                os._exit(1)
        # Out of the way first, so that placing one never overwrites another's source.
        high = {target: fcntl.fcntl(source, fcntl.F_DUPFD, 100) for target, source in fds.items()}
        for target, source in high.items():
            os.dup2(source, target)
        if setup is not None:
            setup()

    return preexec


def spawn_options(fds: dict[int, int] | None = None, setup: Callable[[], None] | None = None) -> dict[str, Any]:
    """Keyword arguments for `asyncio.create_subprocess_exec` that start a guarded group;
    `fds` maps fd numbers in the child to our fds (e.g. Chromium's DevTools pipe on 3 and 4),
    `setup` runs in the child just before exec."""
    options: dict[str, Any] = {"start_new_session": True}
    preexec = _preexec(fds or {}, setup)
    if preexec is not None:
        options["preexec_fn"] = preexec
    if fds:
        options["pass_fds"] = tuple(fds)
    return options


def register(pgid: int) -> None:
    """Remember a group so the exit nets can kill it."""
    _install_exit_nets()
    with _lock:
        _live_groups.add(pgid)


def unregister(pgid: int) -> None:
    with _lock:
        _live_groups.discard(pgid)


def live_groups() -> set[int]:
    """Process groups started here and not yet reaped (for tests and benchmarks)."""
    with _lock:
        return set(_live_groups)


def signal_group(pgid: int, sig: int) -> bool:
    """Send `sig` to a group; False when the group no longer exists."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # pgid reused by someone else's group: not ours to kill
        return False
    return True


def _proc_group_running(pgid: int) -> bool | None:
    """Whether /proc shows a member of the group that is not a zombie; None without /proc."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # exited while we looked
            continue
        # Fields after the parenthesised command: state ppid pgrp ...
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) >= 3 and int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            return True
    return False


def pid_running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (True where /proc cannot tell)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return stat[stat.rfind(")") + 2 :][:1] not in ("Z", "X")


def group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs.

    Killed helpers of a browser are reparented to PID 1, which in containers
    may take seconds to reap them; a zombie holds no memory or files, so it
    does not count as alive.
    """
    if not signal_group(pgid, 0):
        return False
    running = _proc_group_running(pgid)
    return True if running is None else running


async def wait_group_gone(pgid: int, timeout: float, interval: float = 0.02) -> bool:
    """Wait until no process of the group runs; False on timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while group_alive(pgid):
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(interval)
    return True


async def wait_exit(process: asyncio.subprocess.Process, timeout: float | None, interval: float = 0.02) -> bool:
    """Wait until the process itself has exited; False on timeout.

    Not `process.wait()`: on Python 3.11 that also waits until every pipe to
    the process is closed, which a background child of the code (or a
    Chromium helper) holding stdout/stderr delays until it dies.
    """
    loop = asyncio.get_running_loop()
    deadline = None if timeout is None else loop.time() + timeout
    while process.returncode is None:
        if deadline is not None and loop.time() >= deadline:
            return False
        await asyncio.sleep(interval)
    return True


async def stop_process_group(process: asyncio.subprocess.Process, grace: float) -> None:
    """SIGTERM the process's group, SIGKILL it after `grace` seconds, reap the leader."""
    pgid = process.pid
    if process.returncode is None:
        signal_group(pgid, signal.SIGTERM)
        await wait_exit(process, grace)
    # The leader may be gone while helpers of the group still run: kill them too.
    signal_group(pgid, signal.SIGKILL)
    await wait_exit(process, None)
    await wait_group_gone(pgid, timeout=2.0)
    unregister(pgid)


def kill_all_now() -> None:
    """SIGKILL every registered group (exit paths: no event loop needed)."""
    with _lock:
        groups = list(_live_groups)
        _live_groups.clear()
    for pgid in groups:
        signal_group(pgid, signal.SIGKILL)


def _on_sigterm(signum: int, frame: Any) -> None:
    kill_all_now()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def _install_exit_nets() -> None:
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(kill_all_now)
    # Only take SIGTERM when nobody else does: uvicorn installs its own handler,
    # whose graceful shutdown ends in the backend's shutdown() anyway.
    if threading.current_thread() is threading.main_thread():
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
                signal.signal(signal.SIGTERM, _on_sigterm)
