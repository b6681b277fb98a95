"""What the dashboard remembers between runs that is not configuration: the theme chosen in the app.

Kept apart from the config file, which is the operator's to write (and may be
read-only, or shared): a small JSON file in the platform's per-user state
directory. Reading never fails the start: a missing, unreadable or foreign
file means "nothing remembered".
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def default_state_path() -> Path:
    """`~/.local/state/wds-tui/ui.json` on Linux (the platform's user state dir)."""
    from platformdirs import user_state_dir

    return Path(user_state_dir("wds-tui")) / "ui.json"


@dataclass(frozen=True)
class UiState:
    """The remembered choices, in `path`."""

    path: Path

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def theme(self) -> str | None:
        """The theme chosen last time, if any."""
        theme = self._read().get("theme")
        return theme if isinstance(theme, str) and theme else None

    def save_theme(self, theme: str) -> None:
        """Remember `theme`; raises OSError when the file cannot be written."""
        data = {**self._read(), "theme": theme}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Written beside and renamed: a crash mid-write never leaves half a file.
        handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".ui-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                json.dump(data, out)
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
