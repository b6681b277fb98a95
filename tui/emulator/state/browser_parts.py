"""The snapshot's browser part: sessions (never reopened) and saved browser profiles.

A session's Chromium does not outlive the emulator, so a restored session is
never active: one that was active when the snapshot was taken is listed as
`destroyed`, ended at that moment for the reason given (`RESTARTED`), and
billed for the life it had, as a session that ends is. Its id, its calls'
activity and its bound job stay as they were.

A saved profile is the user-data directory Chromium left (`ProfileStore`),
kept as a gzipped tar; it is restored only where the emulator has a browser
backend with a profile store.
"""

from __future__ import annotations

import base64
import binascii
import dataclasses
import io
import shutil
import tarfile
import tempfile
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from tui.emulator.browser.model import BrowserSession, credits_for
from tui.emulator.state.core_parts import Apply, Deferred, Rows, need
from tui.emulator.state.values import SnapshotError, StateContext, decode, encode

if TYPE_CHECKING:
    from tui.emulator.state.stateful import Stateful

RESTARTED = "the emulator restarted"
BY_JOB_ROW = "by_job"


def read_sessions(emulator: Stateful) -> Rows:
    manager = emulator.browser
    rows: Rows = {BY_JOB_ROW: dict(manager._by_job)}
    for session_id, session in manager._sessions.items():
        # A running browser is not state: it is gone with the process.
        rows[f"session:{session_id}"] = encode(dataclasses.replace(session, handle=None))
    return rows


def parse_sessions(rows: Rows, emulator: Stateful, context: StateContext, saved_at: datetime, reason: str) -> Apply:
    sessions: dict[str, BrowserSession] = {}
    for key, raw in rows.items():
        if key == BY_JOB_ROW:
            continue
        if not key.startswith("session:"):
            raise SnapshotError(f"browser: unknown row {key!r} (expected 'by_job' or 'session:<id>')")
        session = decode(raw, context, f"browser[{key!r}]")
        if not isinstance(session, BrowserSession):
            raise SnapshotError(f"browser[{key!r}]: not a browser session")
        sessions[session.id] = session
    by_job = need(rows.get(BY_JOB_ROW, {}), dict, f"browser.{BY_JOB_ROW}")
    if not all(isinstance(job, str) and session in sessions for job, session in by_job.items()):
        raise SnapshotError(f"browser.{BY_JOB_ROW}: expected job id -> the id of a session in the snapshot")

    def apply() -> None:
        manager = emulator.browser
        for session in sessions.values():
            if session.active:
                _ended(emulator, session, saved_at, reason)
        manager._sessions = sessions
        manager._by_job = dict(by_job)
        manager._savers = {}

    return apply


def _ended(emulator: Stateful, session: BrowserSession, saved_at: datetime, reason: str) -> None:
    """A session the snapshot saw running: ended when it was taken (or at its own expiry, if sooner), billed."""
    due, due_reason = session.due_at()
    at, session.end_reason = (due, due_reason) if due <= saved_at else (max(saved_at, session.created_at), reason)
    session.status = "destroyed"
    session.destroyed_at = at
    session.credits_billed = credits_for(session.duration_ms(at))
    team = emulator.teams.get(session.team_id)
    if team is not None:
        emulator.billing.charge(team, session.api_key, session.credits_billed, at=at)


# --- saved profiles -----------------------------------------------------------------


def _profile_root(emulator: Stateful) -> Path | None:
    backend = emulator.browser.backend
    if not backend.available:
        return None
    store = getattr(backend, "profiles", None)
    return getattr(store, "root", None)


class ProfileRows:
    """Saved profiles as rows, each packed again only when its directory has changed."""

    def __init__(self) -> None:
        # A check-in moves a new directory into place (`ProfileStore.check_in`): a new inode.
        self._packed: dict[str, tuple[tuple[int, int], Deferred]] = {}

    def read(self, emulator: Stateful) -> Rows:
        root = _profile_root(emulator)
        if root is None or not root.is_dir():
            return {}
        rows: Rows = {}
        packed: dict[str, tuple[tuple[int, int], Deferred]] = {}
        for folder in sorted(root.iterdir()):
            if not folder.is_dir() or folder.name.startswith("."):
                continue  # `.incoming-*` and `.previous-*` are a check-in under way
            found = folder.stat()
            stamp = (found.st_ino, found.st_mtime_ns)
            kept = self._packed.get(folder.name)
            # Packed off the loop, once per version of the directory.
            row = kept[1] if kept is not None and kept[0] == stamp else Deferred(partial(_packed_row, folder))
            packed[folder.name] = (stamp, row)
            rows[folder.name] = row
        self._packed = packed
        return rows


def _packed_row(folder: Path) -> dict[str, str]:
    return {"tar_gz": _pack(folder)}


def _pack(folder: Path) -> str:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(folder, arcname=".")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


NAME_BYTES_MAX = 255  # a directory name's limit on the file systems the emulator runs on


def profile_name_problem(name: str) -> str | None:
    """Why `name` cannot be a profile directory's name here, or None."""
    if not name or name in (".", "..") or name.startswith("."):
        return "empty, or starting with '.'"
    if "/" in name or "\0" in name:
        return "it holds '/' or a NUL"
    if len(name.encode("utf-8", "surrogatepass")) > NAME_BYTES_MAX:
        return f"longer than {NAME_BYTES_MAX} bytes"
    return None


def parse_profiles(rows: Rows, emulator: Stateful) -> Apply:
    """Unpack the profiles now, beside the live ones; applying only swaps directories (renames, nothing to refuse).

    Call it last of the parts: what it unpacks is removed again if it is refused, not if a later part is.
    """
    archives: dict[str, bytes] = {}
    for name, row in rows.items():
        where = f"profiles[{name!r}]"
        problem = profile_name_problem(name)
        if problem is not None:
            raise SnapshotError(f"{where}: not a profile directory's name ({problem})")
        try:
            archives[name] = base64.b64decode(need(need(row, dict, where).get("tar_gz"), str, where), validate=True)
            with tarfile.open(fileobj=io.BytesIO(archives[name]), mode="r:gz") as archive:
                archive.getmembers()  # read through once: a broken archive is refused before anything changes
        except (binascii.Error, tarfile.TarError, EOFError, OSError):
            raise SnapshotError(f"{where}.tar_gz: not a base64 gzipped tar archive") from None
    root = _profile_root(emulator)
    if root is None:
        return lambda: None  # no browser here: nothing could use them
    staging = _staged(archives, root)

    def apply() -> None:
        # Renames within one directory: the old profiles go aside, the staged ones in, then the old are removed.
        previous = Path(tempfile.mkdtemp(prefix=".previous-restore-", dir=root))
        for folder in list(root.iterdir()):
            if folder.is_dir() and not folder.name.startswith("."):
                folder.rename(previous / folder.name)
        for folder in list(staging.iterdir()):
            folder.rename(root / folder.name)
        shutil.rmtree(staging, ignore_errors=True)
        shutil.rmtree(previous, ignore_errors=True)

    return apply


def _staged(archives: dict[str, bytes], root: Path) -> Path:
    """Each archive unpacked in a hidden directory under `root` (the profile store skips hidden names)."""
    root.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".incoming-restore-", dir=root))
    for name, data in archives.items():
        try:
            _unpack(data, staging / name)
        except SnapshotError:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return staging


def _unpack(data: bytes, target: Path) -> None:
    try:
        target.mkdir()
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            archive.extractall(target, filter="data")  # no paths outside, no devices
    except (tarfile.TarError, OSError) as exc:
        raise SnapshotError(f"profile {target.name!r}: its archive cannot be unpacked ({exc})") from None
