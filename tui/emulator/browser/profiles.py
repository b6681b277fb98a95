"""Persistent browser profiles: a profile name maps to a saved user-data-dir.

A session never runs on the saved directory itself. It gets a working copy;
a saver's copy replaces the saved directory after its browser has exited (so
cookies and localStorage are flushed to disk), a loader's copy is discarded.
Running on copies keeps a saved profile intact when a session crashes, and lets
loaders start from the last saved state while a saver is running.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import uuid
from pathlib import Path

from tui.emulator.browser.backend import ProfileBusy

# Caches and locks that are large, rebuilt by Chromium on start, or only valid
# for the process that made them: not worth copying around.
_NOT_COPIED = (
    "SingletonLock",
    "SingletonSocket",
    "SingletonCookie",
    "DevToolsActivePort",
    "Cache",
    "Code Cache",
    "GPUCache",
    "GrShaderCache",
    "GraphiteDawnCache",
    "ShaderCache",
    "DawnGraphiteCache",
    "DawnWebGPUCache",
    "component_crx_cache",
    "Crashpad",
)

_SLUG_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def profile_dir_name(name: str) -> str:
    """A safe, unique directory name for any non-empty profile key.

    A readable slug for people browsing the directory, plus a hash of the exact
    name so that names differing only in unsafe characters never collide. The
    key may be longer than the API's 128-character name: the emulator scopes
    names per team as `<team id>/<name>`, and the request model has already
    enforced the API's limit on the name itself.
    """
    if not name:
        raise ValueError("A profile name must not be empty.")
    slug = _SLUG_UNSAFE.sub("-", name).strip("-.")[:40] or "profile"
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:16]
    return f"{slug}-{digest}"


def _copy_tree(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(*_NOT_COPIED), symlinks=True)


class ProfileStore:
    """Saved profiles under one directory, and the rule of one saver per profile."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._savers: dict[str, str] = {}

    def path_for(self, name: str) -> Path:
        """Where the profile `name` is saved (it may not exist yet)."""
        return self.root / profile_dir_name(name)

    def exists(self, name: str) -> bool:
        return self.path_for(name).is_dir()

    def saver_of(self, name: str) -> str | None:
        """The session currently saving into `name`, if any."""
        return self._savers.get(name)

    def check_out(self, name: str, session_id: str, save_changes: bool, working_dir: Path) -> None:
        """Fill `working_dir` (must not exist) with the profile's saved state.

        A saver is recorded until `check_in`/`release`; a second saver raises
        `ProfileBusy`. A profile never saved starts empty.
        """
        if save_changes:
            holder = self._savers.get(name)
            if holder is not None and holder != session_id:
                raise ProfileBusy(f"Profile '{name}' is already in use by another session that saves changes to it.")
        saved = self.path_for(name)
        if saved.is_dir():
            _copy_tree(saved, working_dir)
        else:
            working_dir.mkdir(parents=True)
        if save_changes:
            self._savers[name] = session_id

    def check_in(self, name: str, session_id: str, working_dir: Path) -> None:
        """Make `working_dir` the profile's saved state (the browser must have exited).

        The working dir is moved, not copied, when it is on the same file system;
        the previous saved state is removed only after the new one is in place.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        saved = self.path_for(name)
        incoming = self.root / f".incoming-{uuid.uuid4().hex}"
        for leftover in _NOT_COPIED:
            stale = working_dir / leftover
            if stale.is_dir() and not stale.is_symlink():
                shutil.rmtree(stale, ignore_errors=True)
            elif stale.exists() or stale.is_symlink():
                stale.unlink(missing_ok=True)
        shutil.move(str(working_dir), str(incoming))
        previous = self.root / f".previous-{uuid.uuid4().hex}"
        if saved.exists():
            saved.rename(previous)
        incoming.rename(saved)
        shutil.rmtree(previous, ignore_errors=True)
        self.release(name, session_id)

    def release(self, name: str, session_id: str) -> None:
        """Forget `session_id` as the saver of `name` (no-op for loaders)."""
        if self._savers.get(name) == session_id:
            del self._savers[name]
