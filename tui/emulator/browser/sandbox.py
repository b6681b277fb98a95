"""The bubblewrap sandbox every session's browser and every code runner runs in.

Code that a team runs in `execute` is arbitrary: it may read any file and any
`/proc/<pid>` it can see, and start processes that try to outlive it. So each
browser and each runner is started as `bwrap ... -- command` with:

- a private PID namespace (`--unshare-pid`): `/proc` (mounted anew) shows only
  the sandbox's own processes, never the emulator's command line or other
  sessions' browsers; and killing bwrap (`--die-with-parent`, and the process
  group kill the backend does anyway) ends every process in the namespace,
  including those user code detached with `setsid` or a double fork;
- a private, empty `/tmp` (`--tmpfs /tmp`): Chromium's and Playwright's scratch
  files (`/tmp/org.chromium.Chromium.*`, `/tmp/playwright-artifacts-*`) vanish
  with the sandbox, and the emulator's temp root (other sessions' profiles,
  runs and DevTools files) is not there;
- the rest of the file system read-only (`--ro-bind / /`), with the emulator's
  own paths (`hidden`) covered by empty tmpfs mounts, and one writable bind:
  the directory the sandboxed process owns (a session's user-data-dir, a run's
  scratch dir).

The network is shared with the host: runners reach the browser through the
emulator's authenticated proxy, and pages may load loopback sites.

Where `bwrap` is missing (or `WDS_BWRAP` names nothing runnable), or cannot make
a sandbox here, commands run as they are, and the emulator logs once that
sessions are not isolated.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path

log = logging.getLogger(__name__)

NOT_ISOLATED_WARNING = (
    "bubblewrap (bwrap) was not found: browser sessions are NOT isolated from each other or from the "
    "emulator. Code run by one team's execute can read other sessions' files and this machine's processes. "
    "Install it (Debian/Ubuntu: `apt-get install bubblewrap`) before letting untrusted code run."
)
_warned = False


def find_bwrap() -> Path | None:
    """The bubblewrap binary: `WDS_BWRAP` when set (empty: none), else `bwrap` on PATH."""
    configured = os.environ.get("WDS_BWRAP")
    if configured is not None:
        found = shutil.which(configured) if configured else None
    else:
        found = shutil.which("bwrap")
    return Path(found) if found else None


def bwrap_works(bwrap: Path) -> bool:
    """Whether `bwrap` can make the sandbox here (not where user namespaces are disabled for
    non-root users, for one): the backend then runs unsandboxed rather than not at all."""
    probe = [str(bwrap), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
             "--unshare-pid", "--die-with-parent", "--", "true"]
    try:
        result = subprocess.run(probe, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("bubblewrap at %s cannot run: %s", bwrap, exc)
        return False
    if result.returncode != 0:
        log.warning("bubblewrap at %s cannot make a sandbox here: %s", bwrap, result.stderr.strip()[:300])
        return False
    return True


def warn_not_isolated() -> None:
    """Say once per process that sessions are not isolated."""
    global _warned
    if not _warned:
        _warned = True
        log.warning(NOT_ISOLATED_WARNING)


def dashboard_config_dir() -> Path:
    """The dashboard's config dir (its config may hold the service's API key); the same
    place as `tui.config_path`, which the emulator does not import."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("wds-tui"))


def runtime_paths() -> list[Path]:
    """Where the sandboxed programs come from: Python and its venv, this package, Playwright's
    driver (node) and Chromium. Those under `/tmp` (a checkout or venv made there, as CI
    does) would vanish under the private `/tmp`, so `wrap` binds them back read-only."""
    found = {Path(sys.prefix), Path(sys.exec_prefix), Path(sys.base_prefix), Path(__file__).resolve().parents[3]}
    playwright = find_spec("playwright")
    if playwright is not None and playwright.origin:
        found.add(Path(playwright.origin).resolve().parent)
    chromium = os.environ.get("WDS_CHROMIUM")
    if chromium:
        found.add(Path(chromium).resolve().parent)
    return sorted(path for path in found if _under(path, Path("/tmp")) and path.exists())


class Sandbox:
    """Wraps commands in bubblewrap (see module doc); a pass-through without `bwrap`."""

    def __init__(self, bwrap: Path | None, hidden: Sequence[Path] = ()) -> None:
        self.bwrap = bwrap
        self.hidden = [Path(p) for p in hidden]

    @classmethod
    def from_environment(cls, hidden: Sequence[Path] = ()) -> Sandbox:
        """A sandbox with the `bwrap` found here, if it works (see `bwrap_works`)."""
        bwrap = find_bwrap()
        return cls(bwrap if bwrap is not None and bwrap_works(bwrap) else None, hidden)

    @property
    def isolated(self) -> bool:
        return self.bwrap is not None

    def wrap(
        self,
        command: Sequence[str],
        *,
        writable: Sequence[Path],
        readable: Sequence[Path] = (),
        cwd: Path | None = None,
        keep_fds: Sequence[int] = (),
    ) -> list[str]:
        """`command` inside a sandbox where only `writable` can be written and `readable` is also seen.

        Without bwrap, `command` itself (and the once-only warning).
        """
        if self.bwrap is None:
            warn_not_isolated()
            return list(command)
        args = [str(self.bwrap), "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
        runtime = runtime_paths()
        for path in runtime:
            args += ["--ro-bind", str(path), str(path)]
        for path in self.hidden:
            if not path.exists():
                continue
            if _under(path, Path("/tmp")) and not any(_under(path, bound) for bound in runtime):
                continue  # gone with the private /tmp already
            # A directory is covered by an empty tmpfs; a file (a key file) by /dev/null
            # (a device node needs --dev-bind: plain binds are nodev).
            args += ["--tmpfs", str(path)] if path.is_dir() else ["--dev-bind", "/dev/null", str(path)]
        for path in readable:
            args += ["--ro-bind", str(path), str(path)]
        for path in writable:
            args += ["--bind", str(path), str(path)]
        args += ["--unshare-pid", "--die-with-parent", "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
        if cwd is not None:
            args += ["--chdir", str(cwd)]
        return [*args, "--", *command]


def _under(path: Path, parent: Path) -> bool:
    try:
        return path.resolve().is_relative_to(parent.resolve())
    except OSError:
        return False
