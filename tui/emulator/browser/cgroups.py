"""A control group per sandbox, where this machine lets the emulator make them.

A cgroup is the only limit the kernel enforces on a whole sandbox at once,
whatever uid it runs as and however many processes it starts: memory (the
OOM killer ends a process of that group, nobody else's), the number of
processes and threads (`fork` fails with EAGAIN), and CPU bandwidth (a busy
sandbox gets its share of cores, so the emulator keeps answering).

Where they can be made is found out at run time (`detect`), never assumed:

- cgroup v1 (one hierarchy per controller, as in many containers): a group
  is made under the emulator's own group of each of the `memory`, `pids` and
  `cpu` hierarchies that is mounted and lets us create a child there;
- cgroup v2: under the emulator's own group, once the controllers are enabled
  for its children. The kernel allows that only for a group without processes
  of its own, so when the emulator is alone in its group (a service, a
  container's only process) it first moves itself into a leaf `wds-emulator`;
  when it shares the group (started from a shell), v2 cannot be used.

Groups are named `wds-<pid>-<start time>-<n>`; a new emulator removes the empty
groups of emulators that died (`remove_dead_groups`).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from tui.emulator.browser.temp_roots import process_start_time

log = logging.getLogger(__name__)

CONTROLLERS = ("memory", "pids", "cpu")
PREFIX = "wds-"
_CPU_PERIOD_US = 100_000
_OPTIONAL = ("memory.memsw.limit_in_bytes", "memory.swap.max")
_counter = itertools.count(1)


@dataclass(frozen=True)
class CgroupSupport:
    """Where this emulator makes sandboxes' groups: per controller, the parent directory."""

    version: int
    parents: dict[str, Path] = field(default_factory=dict)

    @property
    def controllers(self) -> frozenset[str]:
        return frozenset(self.parents)

    def describe(self) -> str:
        return f"cgroup v{self.version}"


def _mounts() -> list[tuple[str, Path, str, set[str]]]:
    """(root within the hierarchy, mount point, fs type, super options) of each cgroup mount."""
    found = []
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((fields[3], Path(fields[4]), tail[0], set(tail[2].split(","))))
    return found


def _own_groups() -> dict[str, str]:
    """Controller (or "" for v2) -> this process's group path, from /proc/self/cgroup."""
    groups: dict[str, str] = {}
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return groups
    for line in lines:
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            groups[controller] = path
    return groups


def _join(mount_root: str, mount_point: Path, path: str) -> Path:
    if mount_root != "/" and path.startswith(mount_root):
        path = path[len(mount_root) :]
    return mount_point / path.lstrip("/")


def _can_make_child(parent: Path, probe_file: str) -> bool:
    probe = parent / f"{PREFIX}probe-{os.getpid()}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        return (probe / probe_file).exists()
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()


_LIMIT_FILES = {
    1: {"memory": "memory.limit_in_bytes", "pids": "pids.max", "cpu": "cpu.cfs_quota_us"},
    2: {"memory": "memory.max", "pids": "pids.max", "cpu": "cpu.max"},
}


def detect() -> CgroupSupport | None:
    """Where sandboxes' groups can be made here (see module doc); None when nowhere."""
    mounts, own = _mounts(), _own_groups()
    v1: dict[str, Path] = {}
    for root, point, fstype, options in mounts:
        for controller in CONTROLLERS:
            if fstype == "cgroup" and controller in options and controller in own and controller not in v1:
                parent = _join(root, point, own[controller])
                if _can_make_child(parent, _LIMIT_FILES[1][controller]):
                    v1[controller] = parent
    if v1:
        return CgroupSupport(1, v1)
    for root, point, fstype, _ in mounts:
        if fstype == "cgroup2" and "" in own:
            support = _delegate_v2(_join(root, point, own[""]))
            if support is not None:
                return support
    return None


def _delegate_v2(group: Path) -> CgroupSupport | None:
    """Enable our controllers for the children of `group` (moving this process into a leaf first)."""
    try:
        available = set((group / "cgroup.controllers").read_text().split())
        wanted = [c for c in CONTROLLERS if c in available]
        if not wanted:
            return None
        enabled = set((group / "cgroup.subtree_control").read_text().split())
        if not set(wanted) <= enabled:
            members = {int(p) for p in (group / "cgroup.procs").read_text().split()}
            if members - {os.getpid()}:
                return None  # others live in our group: their group is not ours to reorganise
            if members:
                leaf = group / "wds-emulator"
                leaf.mkdir(exist_ok=True)
                (leaf / "cgroup.procs").write_text(str(os.getpid()))
            (group / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in wanted))
            enabled = set((group / "cgroup.subtree_control").read_text().split())
    except OSError:
        return None
    parents = {c: group for c in wanted if c in enabled}
    if not parents or not _can_make_child(group, _LIMIT_FILES[2][next(iter(parents))]):
        return None
    return CgroupSupport(2, parents)


class Cgroup:
    """One sandbox's group(s): limits written on creation, removed by `remove()` once it is empty."""

    def __init__(self, support: CgroupSupport, *, memory: int, tasks: int, cpus: float) -> None:
        self.support = support
        name = f"{PREFIX}{os.getpid()}-{process_start_time(os.getpid()) or 0}-{next(_counter)}"
        self.dirs: dict[str, Path] = {}
        try:
            for controller, parent in support.parents.items():
                directory = parent / name
                if directory not in self.dirs.values():
                    directory.mkdir()
                self.dirs[controller] = directory
            self._write_limits(memory, tasks, cpus)
        except OSError:
            self.remove()
            raise

    def _write_limits(self, memory: int, tasks: int, cpus: float) -> None:
        # The quota caps the group at `cpus` cores; the weight gives it, under contention, the share of
        # that many busy processes (a new group weighs as one process, however many it runs).
        quota = max(1000, int(cpus * _CPU_PERIOD_US))
        writes: dict[str, list[tuple[str, int | str]]]
        if self.support.version == 1:
            writes = {
                "memory": [("memory.limit_in_bytes", memory), ("memory.memsw.limit_in_bytes", memory)],
                "pids": [("pids.max", tasks)],
                "cpu": [
                    ("cpu.cfs_period_us", _CPU_PERIOD_US),
                    ("cpu.cfs_quota_us", quota),
                    ("cpu.shares", max(2, int(cpus * 1024))),
                ],
            }
        else:
            writes = {
                "memory": [("memory.max", memory), ("memory.swap.max", 0)],
                "pids": [("pids.max", tasks)],
                "cpu": [("cpu.max", f"{quota} {_CPU_PERIOD_US}"), ("cpu.weight", max(1, min(10000, int(cpus * 100))))],
            }
        for controller, directory in self.dirs.items():
            for name, value in writes[controller]:
                path = directory / name
                if name in _OPTIONAL and not path.exists():
                    continue  # there only with swap accounting
                path.write_text(str(value))

    def open_join_files(self) -> list[int]:
        """Descriptors of each `cgroup.procs`, for the child to write "0" (itself) to before exec."""
        return [os.open(d / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC) for d in dict.fromkeys(self.dirs.values())]

    def _counter(self, controller: str, file: str, key: str) -> int:
        directory = self.dirs.get(controller)
        if directory is None:
            return 0
        try:
            for line in (directory / file).read_text().splitlines():
                name, _, value = line.partition(" ")
                if name == key:
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def oom_kills(self) -> int:
        """How many processes of the group the kernel killed for going over its memory limit."""
        return self._counter(
            "memory", "memory.oom_control" if self.support.version == 1 else "memory.events", "oom_kill"
        )

    def task_limit_hits(self) -> int:
        """How many times a fork or thread was refused at the group's task limit."""
        return self._counter("pids", "pids.events", "max")

    def pids(self) -> list[int]:
        found: set[int] = set()
        for directory in self.dirs.values():
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (directory / "cgroup.procs").read_text().split())
        return sorted(found)

    def remove(self) -> bool:
        """Kill whatever is left in the group and remove it; False when a directory stays."""
        for pid in self.pids():
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        removed = True
        for directory in dict.fromkeys(self.dirs.values()):
            try:
                directory.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                removed = False
        return removed


def remove_dead_groups(support: CgroupSupport | None) -> int:
    """Remove the (empty) groups that emulators which died left behind; how many."""
    if support is None:
        return 0
    removed = 0
    for parent in set(support.parents.values()):
        with contextlib.suppress(OSError):
            for directory in parent.iterdir():
                if not directory.name.startswith(PREFIX) or not directory.is_dir():
                    continue
                parts = directory.name[len(PREFIX) :].split("-")
                if len(parts) != 3 or not parts[0].isdigit():
                    continue  # the probe, wds-emulator, or not ours
                if process_start_time(int(parts[0])) == parts[1]:
                    continue  # its emulator still runs
                with contextlib.suppress(OSError):
                    directory.rmdir()
                    removed += 1
    return removed
