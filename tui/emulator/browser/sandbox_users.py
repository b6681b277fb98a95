"""An unprivileged uid for each live sandbox, when the emulator runs as root.

Code that runs as root, even in bubblewrap's namespaces, keeps every
capability (it could make device nodes and read the disk), owns every
root-owned file it can see, and is exempt from RLIMIT_NPROC. So a root
emulator starts each sandbox's program through `setpriv` as a uid of its own,
with no capabilities, no supplementary groups and `no_new_privs` (a setuid
binary cannot give root back). One uid per sandbox, not one for all: the
kernel counts RLIMIT_NPROC per uid, so each sandbox gets its own process
budget, and no sandbox can signal or ptrace another's processes.

The uids need no entry in /etc/passwd. Each emulator takes them from a block
of its own (chosen by its pid, `WDS_SANDBOX_UID_BASE` moves the whole range),
so that emulators on one machine rarely share one.
"""

from __future__ import annotations

import os

UID_BASE_DEFAULT = 1_600_000_000
BLOCK = 1024
BLOCKS = 1024


class UidsExhausted(RuntimeError):
    """Every uid of this emulator's block belongs to a live sandbox."""


class UidPool:
    """Hands out the lowest free uid of a block; `release` gives it back."""

    def __init__(self, first: int, size: int = BLOCK) -> None:
        self.first, self.size = first, size
        self._taken: set[int] = set()

    @classmethod
    def for_this_process(cls) -> UidPool:
        base = int(os.environ.get("WDS_SANDBOX_UID_BASE") or UID_BASE_DEFAULT)
        return cls(base + (os.getpid() % BLOCKS) * BLOCK)

    def take(self) -> int:
        for uid in range(self.first, self.first + self.size):
            if uid not in self._taken:
                self._taken.add(uid)
                return uid
        raise UidsExhausted(f"all {self.size} sandbox uids from {self.first} are in use")

    def release(self, uid: int) -> None:
        self._taken.discard(uid)

    def describe(self) -> str:
        return f"{self.first}-{self.first + self.size - 1}"
