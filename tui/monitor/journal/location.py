"""Where a context's journal lives: one SQLite file per context in the user's state directory."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def journal_dir() -> Path:
    """`$XDG_STATE_HOME/wds-tui/journal`, else `~/.local/state/wds-tui/journal` on Linux."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("wds-tui")) / "journal"


def file_name(context: str) -> str:
    """A file name for `context` that no other context shares.

    Characters a file system may refuse are replaced; when anything was replaced
    (or the name is empty or all dots) a short hash of the real name is added, so
    "team/a" and "team?a" never meet in one file.
    """
    safe = _UNSAFE.sub("_", context).strip(".")[:80]
    if safe != context or not safe:
        digest = hashlib.sha256(context.encode("utf-8")).hexdigest()[:10]
        safe = f"{safe or 'context'}-{digest}"
    return f"{safe}.sqlite3"


def journal_path(context: str, directory: Path | None = None) -> Path:
    """The journal file of `context` (in `directory`, default `journal_dir()`)."""
    return (directory or journal_dir()) / file_name(context)
