"""A home of its own for a `wds-tui` process: its state, config and key, none of the user's.

The watch tests and the journal soak benchmark both start `wds-tui` processes that must never read or
write the real home; one place says what such a process needs.
"""

from __future__ import annotations

import os
from pathlib import Path

KEY = "wds-" + "7c" * 16


def environment(home: Path, key: str = KEY) -> dict[str, str]:
    """A clean environment: the home, state and config of `home` only; the key by variable."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(home),
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "WDS_CONFIG": str(home / "config.toml"),
        "WDS_API_KEY": key,
    }
