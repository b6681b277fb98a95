"""How much one sandbox may use: the numbers, where they come from, and the rlimits they become.

Two kinds of sandbox get limits of their own: a session's browser (Chromium
needs room: several processes, each with many threads) and one `execute` run
(a runner, Playwright's driver and whatever the code starts). The numbers are
set once per emulator from the environment:

    WDS_BROWSER_MEMORY   memory of a session's browser          default 1G
    WDS_RUN_MEMORY       memory of one execute run              default 512M
    WDS_BROWSER_TASKS    processes + threads of a browser       default 1024
    WDS_RUN_TASKS        processes + threads of a run           default 256
    WDS_BROWSER_CPUS     CPU cores a browser may keep busy      default 2
    WDS_RUN_CPUS         CPU cores a run may keep busy          default 1
    WDS_SANDBOX_TMP      size of each private tmpfs (/tmp, /dev/shm, a run's directory)   default 256M
    WDS_SANDBOX_FILE     largest file a sandboxed process may write   default 256M

Sizes take K, M or G (powers of 1024). Which of them the kernel can really
enforce depends on the machine (`cgroups.py`, `sandbox.py`); the emulator's
banner says which hold.
"""

from __future__ import annotations

import math
import os
import re
import resource
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

KIB, MIB, GIB = 1024, 1024**2, 1024**3
# A run's code may start at most this many CPU-seconds past its timeout in any one process
# (RLIMIT_CPU is per process): the timeout itself is the wall-clock bound of the whole run.
CPU_GRACE_SECONDS = 2
# What a spare runner (started before its job, so before its timeout is known) may spend.
SPARE_CPU_SECONDS = 300 + 30


class Kind(Enum):
    """What a sandbox holds."""

    BROWSER = "browser"
    RUN = "run"


class LimitsError(ValueError):
    """A limit in the environment that cannot be used; the message names the variable."""


_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMG]i?B?)?\s*$", re.IGNORECASE)


def parse_size(text: str, name: str) -> int:
    """`512M`, `1G`, `1.5G`, `65536` (bytes) -> bytes; LimitsError naming `name` otherwise."""
    found = _SIZE.match(text)
    if not found:
        raise LimitsError(f"{name}={text!r} is not a size: write a number of bytes or one with K, M or G (e.g. 512M)")
    unit = (found.group(2) or "").upper()[:1]
    value = float(found.group(1)) * {"": 1, "K": KIB, "M": MIB, "G": GIB}[unit]
    if value < MIB:
        raise LimitsError(f"{name}={text!r} is below 1M: no sandbox would start")
    return int(value)


def _parse_count(text: str, name: str, low: float, kind: type[int] | type[float]) -> int | float:
    try:
        value = kind(text.strip())
    except ValueError:
        raise LimitsError(f"{name}={text!r} is not a number") from None
    if not math.isfinite(value) or value < low:
        raise LimitsError(f"{name}={text!r}: it must be at least {low:g}")
    return value


def human_size(size: int) -> str:
    """1073741824 -> '1 GiB', 268435456 -> '256 MiB'."""
    for unit, name in ((GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")):
        if size >= unit:
            value = size / unit
            return f"{value:.3g} {name}" if value != int(value) else f"{int(value)} {name}"
    return f"{size} B"


@dataclass(frozen=True)
class SandboxLimits:
    """The limits of the two kinds of sandbox (see module doc)."""

    browser_memory: int = 1 * GIB
    run_memory: int = 512 * MIB
    browser_tasks: int = 1024
    run_tasks: int = 256
    browser_cpus: float = 2.0
    run_cpus: float = 1.0
    tmp_size: int = 256 * MIB
    file_size: int = 256 * MIB

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> SandboxLimits:
        """The defaults, with whatever `WDS_*` variables are set; LimitsError for a bad one."""
        env = os.environ if environ is None else environ
        values: dict[str, int | float] = {}
        for field, name in _SIZES.items():
            if env.get(name, "").strip():
                values[field] = parse_size(env[name], name)
        for field, (name, low, kind) in _COUNTS.items():
            if env.get(name, "").strip():
                values[field] = _parse_count(env[name], name, low, kind)
        return cls(**values)  # type: ignore[arg-type]  # each value was parsed to its own field's kind above

    def memory(self, kind: Kind) -> int:
        return self.browser_memory if kind is Kind.BROWSER else self.run_memory

    def tasks(self, kind: Kind) -> int:
        return self.browser_tasks if kind is Kind.BROWSER else self.run_tasks

    def cpus(self, kind: Kind) -> float:
        return self.browser_cpus if kind is Kind.BROWSER else self.run_cpus


_SIZES = {
    "browser_memory": "WDS_BROWSER_MEMORY",
    "run_memory": "WDS_RUN_MEMORY",
    "tmp_size": "WDS_SANDBOX_TMP",
    "file_size": "WDS_SANDBOX_FILE",
}
_COUNTS: dict[str, tuple[str, float, type[int] | type[float]]] = {
    "browser_tasks": ("WDS_BROWSER_TASKS", 16, int),
    "run_tasks": ("WDS_RUN_TASKS", 16, int),
    "browser_cpus": ("WDS_BROWSER_CPUS", 0.1, float),
    "run_cpus": ("WDS_RUN_CPUS", 0.1, float),
}


def rlimits(
    limits: SandboxLimits, kind: Kind, *, cpu_seconds: float | None, tasks_by_uid: bool, address_space: bool
) -> dict[int, int]:
    """The rlimits a sandboxed process starts with (inherited by everything it starts).

    - RLIMIT_FSIZE: no file beyond `file_size` (Python and node see EFBIG; others SIGXFSZ).
    - RLIMIT_CORE 0: a crash writes no core file anywhere.
    - RLIMIT_CPU: `cpu_seconds` of CPU per process, when given (runs: their timeout).
    - RLIMIT_NPROC: only with a sandbox uid of its own (`tasks_by_uid`): the kernel counts
      a uid's processes and threads, and does not count them for root at all.
    - RLIMIT_AS: only where no memory cgroup holds (`address_space`), and never for the
      browser, whose V8 heaps and renderers reserve far more address space than they use.
    """
    found = {resource.RLIMIT_FSIZE: limits.file_size, resource.RLIMIT_CORE: 0}
    if cpu_seconds is not None:
        found[resource.RLIMIT_CPU] = max(1, math.ceil(cpu_seconds))
    if tasks_by_uid:
        found[resource.RLIMIT_NPROC] = limits.tasks(kind)
    if address_space and kind is Kind.RUN:
        found[resource.RLIMIT_AS] = address_space_for(limits.run_memory)
    return found


def address_space_for(memory: int) -> int:
    """RLIMIT_AS standing in for a run's memory limit. It counts address space, not memory, and
    node (Playwright's driver) reserves about 1.5 GiB it never touches: it does not start under
    1.2 GiB. So the limit is 1.25 GiB above `memory` (1.75 GiB by default: a 2 GB allocation fails)."""
    return memory + 1280 * MIB


def apply_rlimits(values: Mapping[int, int]) -> None:
    """Set each limit (soft and hard) in this process; for a `preexec_fn`: no allocation-heavy work."""
    for which, value in values.items():
        resource.setrlimit(which, (value, value))


def run_cpu_seconds(timeout: float) -> float:
    """RLIMIT_CPU of a run started for one job of `timeout` seconds."""
    return timeout + CPU_GRACE_SECONDS
