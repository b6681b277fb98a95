"""An export written to a file: whole or not at all, never blocking on a pipe, never replacing a file unasked.

The text goes to a new file next to the target (same folder, so the same
file system), which then takes the target's place in one step (`os.replace`):
a write that fails half way (a full disk, a file size limit) leaves a file
that was there whole, and no half-written one. The target must be a regular
file or not exist: a named pipe or a device would block the writer until some
reader came (forever, in a dashboard), and a symbolic link is refused too,
since replacing it would put a file where the link was rather than write
where it points; the message asks for the file's own path. An existing file
is replaced only when asked (`replace`): the caller asks the person first.
Blocking calls all: run it in a thread (`asyncio.to_thread`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path


class ExportError(Exception):
    """A file could not be written; `message` says why in words a person can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ExportExists(ExportError):
    """The file exists and replacing it was not asked for."""


def write_export(path: str, text: str, *, replace: bool = False) -> Path:
    """Write `text` to `path` (`~` is the home folder); raise `ExportError` saying why it could not be written."""
    if not path.strip():
        raise ExportError("Give a file name to write to.")
    target = Path(path.strip()).expanduser()
    mode = _existing_mode(target, replace)
    temp = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: a new file of ours, never one planted under that name; 0o666 less the umask, as any new file.
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise _said(exc, target) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            if mode is not None:
                os.fchmod(file.fileno(), mode)  # the replaced file's permissions stay
            file.write(text)
        _existing_mode(target, replace)  # once more just before: a file may have appeared meanwhile
        os.replace(temp, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            temp.unlink()
        if isinstance(exc, OSError):
            raise _said(exc, target) from None
        raise
    return target


def _existing_mode(target: Path, replace: bool) -> int | None:
    """The permissions of the regular file at `target` (None: nothing there); raise if it may not be replaced."""
    try:
        found = target.lstat()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _said(exc, target) from None
    if stat.S_ISDIR(found.st_mode):
        raise ExportError(f"{target} is a folder; give a file name in it.")
    if stat.S_ISLNK(found.st_mode):
        raise ExportError(f"{target} is a symbolic link; give the path of the file itself. Nothing was written.")
    if not stat.S_ISREG(found.st_mode):
        raise ExportError(f"{target} is not a regular file (a pipe, a device or a socket); nothing was written.")
    if not replace:
        raise ExportExists(f"{target} exists: Export again to replace it.")
    return stat.S_IMODE(found.st_mode)


def _said(exc: OSError, target: Path) -> ExportError:
    """An OS error in words a person can act on."""
    if isinstance(exc, FileNotFoundError):
        return ExportError(f"The folder {target.parent} does not exist; nothing was written.")
    if isinstance(exc, NotADirectoryError):
        return ExportError(f"{target.parent} is not a folder; nothing was written.")
    if isinstance(exc, PermissionError):
        return ExportError(f"No permission to write {target}; nothing was written.")
    return ExportError(f"Could not write {target}: {exc.strerror or exc}; nothing was written.")
