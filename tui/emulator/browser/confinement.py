"""What the host holds for one sandbox while it runs: its uid, its cgroup, its rlimits.

`Sandbox.confine` decides what a sandbox may do and builds its command; a `Confinement`
is that command plus the host resources lent to it, which must be joined before exec,
read when it dies (the limits it ran into) and handed back once its processes are gone.
Its own module because it lives as long as the browser or run it confines, long after
the sandbox's command was made.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.emulator.browser import process
from tui.emulator.browser.cgroups import Cgroup
from tui.emulator.browser.limits import Kind, SandboxLimits, apply_rlimits, human_size

log = logging.getLogger(__name__)


class Confinement:
    """One sandbox's command and what the host keeps for it: its uid, cgroup and rlimits.

    `spawn_options()` for starting it; `release()` once its processes are gone.
    """

    def __init__(
        self,
        command: list[str],
        kind: Kind,
        limits: SandboxLimits,
        *,
        uid: int | None = None,
        cgroup: Cgroup | None = None,
        rlimit_values: dict[int, int] | None = None,
        on_release: Callable[[], None] | None = None,
    ) -> None:
        self.command, self.kind, self.limits = command, kind, limits
        self.uid, self.cgroup = uid, cgroup
        self._rlimits = rlimit_values or {}
        self._on_release = on_release
        self._join_fds: list[int] = []

    def spawn_options(self, fds: dict[int, int] | None = None) -> dict[str, Any]:
        """Keyword arguments for `asyncio.create_subprocess_exec` (a guarded process group that
        joins the cgroup and takes the rlimits before exec); call `started()` after the spawn."""
        self._join_fds = self.cgroup.open_join_files() if self.cgroup is not None else []
        join, values = tuple(self._join_fds), dict(self._rlimits)

        def setup() -> None:
            for fd in join:
                os.write(fd, b"0")  # "0": the writing process itself, before it execs bwrap
            apply_rlimits(values)

        return process.spawn_options(fds, setup=setup)

    def started(self) -> None:
        for fd in self._join_fds:
            os.close(fd)
        self._join_fds = []

    def give(self, path: Path) -> None:
        """Make `path` (and what is in it) the sandbox uid's, so that it can write there."""
        if self.uid is None:
            return
        os.chown(path, self.uid, self.uid, follow_symlinks=False)
        if path.is_dir() and not path.is_symlink():
            for parent, dirs, files in os.walk(path):
                for name in [*dirs, *files]:
                    os.chown(Path(parent) / name, self.uid, self.uid, follow_symlinks=False)

    def limits_hit(self) -> list[str]:
        """The limits the sandbox ran into, in words (for an error or a log line)."""
        hit = []
        if self.cgroup is not None and self.cgroup.oom_kills():
            hit.append(f"memory limit of {human_size(self.limits.memory(self.kind))}")
        if self.cgroup is not None and self.cgroup.task_limit_hits():
            hit.append(f"limit of {self.limits.tasks(self.kind)} processes and threads")
        return hit

    async def release_when_empty(self, timeout: float = 2.0) -> None:
        """`release()` once the cgroup holds no process (a killed PID namespace empties in a moment)."""
        if self.cgroup is not None:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + timeout
            while self.cgroup.pids() and loop.time() < deadline:
                await asyncio.sleep(0.02)
        self.release()

    def release(self) -> None:
        """Remove the cgroup and give the uid back; the sandbox's processes must be gone."""
        self.started()
        if self.cgroup is not None:
            if not self.cgroup.remove():
                log.warning("could not remove the sandbox cgroup %s", self.cgroup.dirs)
            self.cgroup = None
        if self._on_release is not None:
            self._on_release()
            self._on_release = None
