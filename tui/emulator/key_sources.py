"""Where `wds-tui emulator` takes its API keys from without putting them on its command line.

A process's command line is readable by every user of the machine, and by
code that a browser session runs (`/proc/<pid>/cmdline`): keys given with
`--api-key` are public there. So keys may come instead from

* a file (`--api-key-file PATH`): one `[TEAM=]KEY` a line; blank lines and
  lines starting with `#` are skipped. A warning when others can read it.
* the environment (`WDS_EMULATOR_API_KEYS`): `[TEAM=]KEY` specs separated by
  spaces or newlines. The variable is read, then removed from the process's
  environment, both `os.environ` (so no child process inherits it) and, on
  Linux, the memory that `/proc/<pid>/environ` shows.
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys
from collections.abc import MutableMapping
from pathlib import Path

KEYS_VARIABLE = "WDS_EMULATOR_API_KEYS"


class KeySpecError(ValueError):
    """An `--api-key` value, a key file or `WDS_EMULATOR_API_KEYS` that cannot be used."""


def specs_from_file(path: Path) -> tuple[list[str], list[str]]:
    """The `[TEAM=]KEY` specs of a key file, and warnings to print; `KeySpecError` when unreadable."""
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise KeySpecError(f"--api-key-file {path}: cannot read it: {reason}") from None
    if stat.S_ISDIR(mode):
        raise KeySpecError(f"--api-key-file {path}: it is a directory")
    warnings = []
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        warnings.append(f"the key file {path} is readable by other users; run: chmod 600 {path}")
    specs = [line.strip() for line in text.splitlines()]
    specs = [spec for spec in specs if spec and not spec.startswith("#")]
    if not specs:
        raise KeySpecError(f"--api-key-file {path}: no keys in it (one [TEAM=]KEY a line)")
    return specs, warnings


def take_specs_from_environment(environ: MutableMapping[str, str] = os.environ) -> list[str]:
    """The specs in `WDS_EMULATOR_API_KEYS` (none when unset); the variable is gone afterwards."""
    value = take_from_environment(KEYS_VARIABLE, environ)
    if value is None:
        return []
    specs = value.split()
    if not specs:
        raise KeySpecError(f"{KEYS_VARIABLE} is set but holds no keys")
    return specs


def take_from_environment(name: str, environ: MutableMapping[str, str] = os.environ) -> str | None:
    """The value of the secret variable `name` (None when unset), removed from the environment.

    From `os.environ`, so no child process inherits it, and (Linux) from the
    memory `/proc/<pid>/environ` shows.
    """
    value = environ.get(name)
    if value is None:
        return None
    if environ is os.environ:
        _scrub_process_environment(name)
    environ.pop(name, None)
    return value


def _scrub_process_environment(name: str) -> None:
    """Overwrite the value of `name` in the C environment this process started with.

    `os.environ` is a copy: removing a variable from it (`unsetenv`) drops the
    pointer, but the text stays in the memory `/proc/<pid>/environ` reads.
    Zeroing it there hides the key from anyone allowed to read that file.
    Linux (glibc or musl) only; elsewhere nothing is done.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None)
        environ = ctypes.POINTER(ctypes.c_void_p).in_dll(libc, "environ")
    except (OSError, ValueError, AttributeError):
        return
    prefix = name.encode() + b"="
    index = 0
    while environ[index]:
        address = environ[index]
        entry = ctypes.string_at(address)
        if entry.startswith(prefix):
            ctypes.memset(address + len(prefix), 0, len(entry) - len(prefix))
        index += 1
