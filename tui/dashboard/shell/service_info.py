"""What the dashboard knows of the service it shows: a module of its own, so that the app's mixins can name it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServiceInfo:
    """What the header says about the service; never holds the key itself."""

    host: str
    masked_key: str
    embedded: bool = False
    emulator_log: Path | None = None  # the embedded emulator's log file
    context: str | None = None  # the config file's context in use (None: the unnamed one)
    config_path: Path | None = None  # the config file (where a key typed after a refusal may be saved)
    read_only: bool = False  # every action that changes something is refused
