"""Finding a Chromium or Chrome binary to run sessions with.

Order: `WDS_CHROMIUM` (an explicit choice: an error when it is wrong, never a
silent fallback), then Debian's real binary `/usr/lib/chromium/chromium`
(calling it directly skips the `/usr/bin/chromium` wrapper script, which reads
config files and prints noise on every start), then the usual names on PATH.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from tui.emulator.browser.backend import BrowserUnavailable

ENV_VAR = "WDS_CHROMIUM"
DEBIAN_BINARY = Path("/usr/lib/chromium/chromium")
PATH_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

INSTALL_HINT = (
    "Install one (Debian/Ubuntu: `apt-get install chromium`) or set WDS_CHROMIUM "
    "to the path of a Chromium or Chrome binary."
)


def _is_executable(path: Path) -> bool:
    return path.is_file() and os.access(path, os.X_OK)


def find_chromium(
    environ: Mapping[str, str] | None = None,
    which: Callable[[str], str | None] = shutil.which,
    debian_binary: Path = DEBIAN_BINARY,
) -> Path:
    """The browser binary to use; raises `BrowserUnavailable` (with install advice) if none.

    `environ`, `which` and `debian_binary` exist so tests can describe a machine
    without touching the real one.
    """
    env = os.environ if environ is None else environ
    chosen = env.get(ENV_VAR, "").strip()
    if chosen:
        path = Path(chosen).expanduser()
        if not path.exists():
            raise BrowserUnavailable(
                f"Browser feature not configured: {ENV_VAR}={chosen} does not exist. {INSTALL_HINT}"
            )
        if not _is_executable(path):
            raise BrowserUnavailable(
                f"Browser feature not configured: {ENV_VAR}={chosen} is not an executable file. {INSTALL_HINT}"
            )
        return path
    if _is_executable(debian_binary):
        return debian_binary
    for name in PATH_NAMES:
        found = which(name)
        if found:
            return Path(found)
    raise BrowserUnavailable(f"Browser feature not configured: no Chromium or Chrome was found. {INSTALL_HINT}")
