"""Where the config file is, and whether anything names a service: answered without loading the settings.

Light on purpose (no pydantic): the dashboard asks `names_no_service` before
it loads its settings, so that with nothing configured the embedded emulator
can start building on the other core while the rest of the program imports.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP_NAME = "wds-tui"
CONFIG_ENV = "WDS_CONFIG"
BASE_URL_ENV = "WDS_BASE_URL"


def default_config_path() -> Path:
    """`config.toml` in the platform's user config dir (XDG on Linux)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir(APP_NAME)) / "config.toml"


def config_file_path(flag: Path | None, environ: Mapping[str, str] = os.environ) -> Path:
    """The config file to read: `--config`, else `$WDS_CONFIG`, else the default."""
    return flag or Path(environ.get(CONFIG_ENV) or default_config_path())


def names_no_service(base_url_flag: str | None, config_flag: Path | None, environ: Mapping[str, str]) -> bool:
    """True when no flag, environment variable or config file mentions a base URL.

    Conservative: a config file that merely contains the word `base_url`
    counts as naming a service, so True always means that the settings will
    pick the embedded emulator (tests/test_config_path.py holds it to that).
    """
    if base_url_flag:
        return False
    if any(name.upper() == BASE_URL_ENV and value.strip() for name, value in environ.items()):
        return False
    try:
        text = config_file_path(config_flag, environ).read_text(errors="replace")
    except FileNotFoundError:
        return config_flag is None  # a --config that is not there is an error the settings will report
    except OSError:
        return False  # unreadable: let the settings say what is wrong
    return "base_url" not in text
