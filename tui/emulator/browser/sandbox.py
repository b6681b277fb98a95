"""The bubblewrap sandbox every session's browser and every code run runs in, with its limits.

Code that a team runs in `execute` is arbitrary, so each browser and each run
is started as `bwrap ... -- command` with:

- namespaces of its own: PID (`/proc` shows only the sandbox's processes, and
  killing bwrap ends every process in it, detached ones included), network
  (only `lo`: no host loopback service, no internet; Chromium speaks CDP over a
  pipe, runs reach their browser through a unix socket, see `cdp_forward.py`),
  IPC, UTS and cgroup;
- a file system made of a chosen list of host paths, read-only
  (`sandbox_paths.py`), the emulator's own paths (`hidden`) masked where they
  fall inside it, plus what the caller names: `readable` and `writable` binds,
  and `private` directories that are size-capped tmpfs mounts of the sandbox's
  own. `/tmp` and `/dev/shm` are such private mounts too;
- as root, an unprivileged uid of its own and no capabilities (`sandbox_users.py`);
- limits (`limits.py`): a cgroup per sandbox where this machine allows one
  (`cgroups.py`: memory, processes and threads, CPU cores), else what rlimits
  can do; rlimits for file size, core files and CPU time.

Where `bwrap` is missing (or `WDS_BWRAP` names nothing runnable), or cannot make
a sandbox here, commands run as they are (with the cgroup and rlimits still),
and the emulator logs once that sessions are not isolated.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from tui.emulator.browser.cgroups import Cgroup, CgroupSupport, detect, remove_dead_groups
from tui.emulator.browser.confinement import Confinement
from tui.emulator.browser.limits import Kind, SandboxLimits, address_space_for, human_size, rlimits
from tui.emulator.browser.sandbox_paths import ParentDirs, filesystem_args, runtime_paths
from tui.emulator.browser.sandbox_users import UidPool

log = logging.getLogger(__name__)

NOT_ISOLATED_WARNING = (
    "bubblewrap (bwrap) was not found: browser sessions are NOT isolated from each other or from the "
    "emulator. Code run by one team's execute can read other sessions' files and this machine's processes. "
    "Install it (Debian/Ubuntu: `apt-get install bubblewrap`) before letting untrusted code run."
)
_warned = False
_DROP_TO_UID = ("--clear-groups", "--no-new-privs", "--bounding-set", "-all", "--inh-caps", "-all")


def find_bwrap() -> Path | None:
    """The bubblewrap binary: `WDS_BWRAP` when set (empty: none), else `bwrap` on PATH."""
    configured = os.environ.get("WDS_BWRAP")
    if configured is not None:
        found = shutil.which(configured) if configured else None
    else:
        found = shutil.which("bwrap")
    return Path(found) if found else None


def _probe(command: list[str], what: str) -> bool:
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.warning("%s cannot run: %s", what, exc)
        return False
    if result.returncode != 0:
        log.warning("%s cannot make a sandbox here: %s", what, result.stderr.strip()[:300])
        return False
    return True


@dataclass(frozen=True)
class BwrapFeatures:
    """What the bubblewrap found here can do: some hosts refuse it a network namespace, and
    releases before 0.8 have no `--size` (nor, before 0.5, `--perms`)."""

    network: bool = True
    sizes: bool = True  # --size and --perms

    @classmethod
    def of(cls, bwrap: Path) -> BwrapFeatures:
        try:
            text = subprocess.run([str(bwrap), "--help"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return cls()
        return cls(sizes="--size" in text and "--perms" in text)


def bwrap_works(bwrap: Path, features: BwrapFeatures | None = None) -> bool:
    """Whether `bwrap` can make the sandbox here (not where user namespaces are disabled for
    non-root users, for one): the backend then runs unsandboxed rather than not at all."""
    sandbox = Sandbox(bwrap, features=features or BwrapFeatures())
    return _probe(sandbox.confine(["true"], kind=Kind.RUN, uid=None).command, f"bubblewrap at {bwrap}")


def warn_not_isolated() -> None:
    """Say once per process that sessions are not isolated."""
    global _warned
    if not _warned:
        _warned = True
        log.warning(NOT_ISOLATED_WARNING)


def dashboard_config_dir() -> Path:
    """The dashboard's config dir (its config may hold the service's API key); the same
    place as `tui.dashboard.startup.config_path`, which the emulator does not import."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("wds-tui"))


class Sandbox:
    """Wraps commands in bubblewrap with limits (see module doc); a pass-through without `bwrap`."""

    def __init__(
        self,
        bwrap: Path | None,
        hidden: Sequence[Path] = (),
        *,
        limits: SandboxLimits | None = None,
        cgroups: CgroupSupport | None = None,
        uids: UidPool | None = None,
        runtime: Iterable[Path] = (),
        features: BwrapFeatures | None = None,
    ) -> None:
        self.bwrap = bwrap
        self.features = features or BwrapFeatures()
        self.hidden = [Path(p) for p in hidden]
        self.limits = limits or SandboxLimits()
        self.cgroups = cgroups
        self.uids = uids
        self._extra_runtime = list(runtime)
        self.runtime = runtime_paths(self._extra_runtime)
        self._fixed: tuple[list[str], ParentDirs] | None = None

    @classmethod
    def from_environment(
        cls, hidden: Sequence[Path] = (), *, limits: SandboxLimits | None = None, runtime: Iterable[Path] = ()
    ) -> Sandbox:
        """A sandbox with what this machine offers: a working `bwrap` (with a network namespace
        when it can make one), cgroups, sandbox uids."""
        bwrap = find_bwrap()
        features = BwrapFeatures.of(bwrap) if bwrap is not None else BwrapFeatures()
        if bwrap is not None and not bwrap_works(bwrap, features):
            without_network = replace(features, network=False)
            if bwrap_works(bwrap, without_network):
                features = without_network
            else:
                bwrap = None
        cgroups = detect()
        remove_dead_groups(cgroups)
        uids = None
        if bwrap is not None and features.sizes and os.geteuid() == 0 and shutil.which("setpriv"):
            candidate = UidPool.for_this_process()
            probe = Sandbox(bwrap, features=features).confine(["true"], kind=Kind.RUN, uid=candidate.first).command
            uids = candidate if _probe(probe, "setpriv (a uid per sandbox)") else None
        return cls(bwrap, hidden, limits=limits, cgroups=cgroups, uids=uids, runtime=runtime, features=features)

    @property
    def isolated(self) -> bool:
        return self.bwrap is not None

    @property
    def own_network(self) -> bool:
        """Whether sandboxes have a network namespace of their own (only `lo`)."""
        return self.isolated and self.features.network

    def add_runtime(self, paths: Iterable[Path]) -> None:
        """Show `paths` read-only in sandboxes made from now on (a runtime found later: node's)."""
        self._extra_runtime = [*self._extra_runtime, *paths]
        self.runtime = runtime_paths(self._extra_runtime)
        self._fixed = None

    def _fixed_args(self) -> tuple[list[str], ParentDirs]:
        """What every sandbox gets (namespaces, /dev, /proc, /tmp, the read-only view), planned once:
        it is most of the work of building a command, and a command is built for every run."""
        if self._fixed is None:
            planner = ParentDirs()
            network = ["--unshare-net"] if self.features.network else []
            args = self._plan(
                planner,
                [
                    "--die-with-parent",
                    "--unshare-pid",
                    *network,
                    "--unshare-ipc",
                    "--unshare-uts",
                    "--hostname",
                    "wds-sandbox",
                    "--unshare-cgroup-try",
                    "--dev",
                    "/dev",
                    *self._capped("/dev/shm"),
                    "--proc",
                    "/proc",
                    *self._capped("/tmp"),
                    *filesystem_args(self.runtime, self.hidden),
                ],
            )
            self._fixed = (args, planner)
        return self._fixed

    def confine(
        self,
        command: Sequence[str],
        *,
        kind: Kind,
        writable: Sequence[Path] = (),
        readable: Sequence[Path] = (),
        mounts: Mapping[Path, Path] | None = None,
        private: Sequence[Path] = (),
        cwd: Path | None = None,
        cpu_seconds: float | None = None,
        uid: int | None | bool = True,
    ) -> Confinement:
        """`command` in a sandbox of `kind` (see module doc). `readable` and `writable` are bound
        where they are, `mounts` (host path -> path inside) read-only elsewhere, `private` paths
        are tmpfs mounts of the sandbox's own. `uid=True` takes a uid from the pool (when there
        is one), an int uses that uid, None runs as this process's user."""
        if uid is True:
            uid = self.uids.take() if self.uids is not None and self.isolated else None
        assert uid is not True and uid is not False
        uids = self.uids  # a local, so that the lambda keeps the narrowing to a pool
        release = (lambda: uids.release(uid)) if uid is not None and uids is not None else None
        cgroup = None
        try:
            if self.cgroups is not None:
                cgroup = Cgroup(
                    self.cgroups,
                    memory=self.limits.memory(kind),
                    tasks=self.limits.tasks(kind),
                    cpus=self.limits.cpus(kind),
                )
        except OSError as exc:
            log.warning("could not make a cgroup for a sandbox: %s", exc)
        values = rlimits(
            self.limits,
            kind,
            cpu_seconds=cpu_seconds,
            tasks_by_uid=uid is not None,
            address_space=self.cgroups is None or "memory" not in self.cgroups.controllers,
        )
        if self.bwrap is None:
            warn_not_isolated()
            wrapped = list(command)
        else:
            wrapped = self._bwrap_command(command, writable, readable, dict(mounts or {}), private, cwd, uid)
        return Confinement(wrapped, kind, self.limits, uid=uid, cgroup=cgroup, rlimit_values=values, on_release=release)

    def _capped(self, path: str) -> list[str]:
        """A private tmpfs at `path`: size-capped and writable by every uid where bwrap can say so."""
        if not self.features.sizes:
            return ["--tmpfs", path]
        return ["--perms", "1777", "--size", str(self.limits.tmp_size), "--tmpfs", path]

    def _plan(self, planner: ParentDirs, args: list[str]) -> list[str]:
        # Without --perms a uid of its own is never used, and bwrap's 0700 parents are ours to enter.
        return planner.plan(args) if self.features.sizes else args

    def _bwrap_command(
        self,
        command: Sequence[str],
        writable: Sequence[Path],
        readable: Sequence[Path],
        mounts: dict[Path, Path],
        private: Sequence[Path],
        cwd: Path | None,
        uid: int | None,
    ) -> list[str]:
        fixed, planner = self._fixed_args()
        planner = planner.copy()
        args: list[str] = []
        for path in readable:
            args += ["--ro-bind", str(path), str(path)]
        for source, target in mounts.items():
            args += ["--ro-bind", str(source), str(target)]
        for path in writable:
            args += ["--bind", str(path), str(path)]
        for path in private:
            args += self._capped(str(path))
        args += ["--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp"]
        if cwd is not None:
            args += ["--chdir", str(cwd)]
        if os.geteuid() == 0:
            # bwrap run by root keeps every capability for the command unless told otherwise.
            args += ["--cap-drop", "ALL"]
            if uid is not None:
                args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
        args = [str(self.bwrap), *fixed, *self._plan(planner, args)]
        if uid is not None:
            return [*args, "--", "setpriv", f"--reuid={uid}", f"--regid={uid}", *_DROP_TO_UID, "--", *command]
        return [*args, "--", *command]

    def guarantees(self) -> tuple[list[str], list[str]]:
        """(what holds, what does not) for every sandbox here, in words for the banner."""
        held: list[str] = []
        missing: list[str] = []
        limits, controllers = self.limits, self.cgroups.controllers if self.cgroups else frozenset()
        version = self.cgroups.describe() if self.cgroups else ""

        def per_kind(value: Callable[[Kind], object], unit: str = "") -> str:
            return f"{value(Kind.BROWSER)}{unit} per browser, {value(Kind.RUN)}{unit} per run"

        if self.isolated:
            held.append(
                ("own network namespace (lo only), " if self.own_network else "")
                + "read-only system paths, private /tmp"
            )
            if not self.own_network:
                missing.append(
                    "a network of its own (bubblewrap cannot make a network namespace here): "
                    "sandboxes reach this machine's loopback services"
                )
            if self.features.sizes:
                held.append(f"/tmp, /dev/shm and a run's directory: {human_size(limits.tmp_size)} each (tmpfs)")
            else:
                missing.append("a size cap on /tmp, /dev/shm and a run's directory (bubblewrap before 0.8)")
            if self.uids is not None:
                held.append(f"a uid of its own per sandbox ({self.uids.describe()}), no capabilities")
        else:
            missing.append("network, file system and /tmp isolation (no bubblewrap)")
        memory = per_kind(lambda k: human_size(limits.memory(k)))
        if "memory" in controllers:
            held.append(f"memory: {memory} (memory {version})")
        else:
            held.append(
                f"memory: address space of each run process <= "
                f"{human_size(address_space_for(limits.run_memory))} (RLIMIT_AS)"
            )
            missing.append("a memory limit for browsers (no memory cgroup here)")
        tasks = per_kind(limits.tasks)
        if "pids" in controllers:
            also = " and RLIMIT_NPROC of the sandbox's uid" if self.uids is not None else ""
            held.append(f"processes and threads: {tasks} (pids {version}{also})")
        elif self.uids is not None:
            held.append(f"processes and threads: {tasks} (RLIMIT_NPROC of the sandbox's uid)")
        else:
            missing.append("a limit on processes (no pids cgroup, and no uid of their own)")
        if "cpu" in controllers:
            held.append(f"CPU cores: {per_kind(lambda k: f'{limits.cpus(k):g}')} (cpu {version})")
        else:
            missing.append("a cap on CPU cores (no cpu cgroup)")
        held.append(
            f"files: {human_size(limits.file_size)} at most (RLIMIT_FSIZE); CPU time of a run: its timeout (RLIMIT_CPU)"
        )
        return held, missing
