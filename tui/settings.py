"""Where the dashboard finds its service: flags, then environment, then a TOML file.

One `Settings` object, built once at start-up (posting's `config.py` is the
model) and handed down; nothing deeper in the app reads the environment.
The API key is a `SecretStr`: it is never printed whole and never logged.
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import platformdirs
from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from tui.api.loopback import is_loopback
from tui.api.redact import mask_key
from tui.api.client import check_api_key, check_base_url
from tui.api.validation import validation_summary

APP_NAME = "wds-tui"
CONFIG_ENV = "WDS_CONFIG"


class SettingsError(Exception):
    """The configuration cannot be used; the message says what to change."""


def default_config_path() -> Path:
    """`config.toml` in the platform's user config dir (XDG on Linux)."""
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


class Settings(BaseSettings):
    """The resolved configuration of one run."""

    model_config = SettingsConfigDict(env_prefix="WDS_", extra="ignore")

    base_url: str | None = Field(None, description="The service's base address, without /v2")
    api_key: SecretStr | None = Field(None, description="The team's API key")
    timeout: float = Field(30.0, gt=0, le=600, description="Seconds before a request gives up")
    refresh: float | None = Field(
        None, ge=0.5, le=3600, description="Seconds between polls of every pane (default: per pane)"
    )

    @field_validator("base_url")
    @classmethod
    def _check_base_url(cls, value: str | None) -> str | None:
        if value is None or value.strip() == "":
            return None
        # The client's own rule, so a URL accepted here is never refused at start-up.
        return check_base_url(value).removesuffix("/v2")

    @field_validator("api_key")
    @classmethod
    def _check_api_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        return check_api_key(value)  # the client's own rule

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Flags (init) beat the environment; the file is read by load_settings
        # and passed in as the lowest layer, so no .env or secrets dir is consulted.
        return (init_settings, env_settings)

    @property
    def uses_embedded_emulator(self) -> bool:
        """No service configured: the dashboard runs on its own emulator."""
        return self.base_url is None

    @property
    def masked_key(self) -> str:
        return mask_key(self.api_key.get_secret_value() if self.api_key else None)

    def describe(self) -> str:
        """A printable summary that never shows the key."""
        return (
            f"base URL: {self.base_url or '(none: the embedded local emulator)'}\n"
            f"API key:  {self.masked_key}\n"
            f"timeout:  {self.timeout:g} s\n"
            f"refresh:  {f'every {self.refresh:g} s' if self.refresh else 'per pane (the dashboard defaults)'}"
        )


def _read_config_file(path: Path, warnings: list[str]) -> dict[str, Any]:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise SettingsError(f"Cannot read the config file {path}: {exc.strerror}") from exc
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        # As ssh does for keys: a secret in a file others can read is a leak waiting to happen.
        warnings.append(
            f"The config file {path} is readable by other users and may hold your API key; "
            f"run: chmod 600 {path}"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"The config file {path} is not valid TOML: {exc}") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise SettingsError(f"Cannot read the config file {path}: {exc}") from exc
    section = data.get("service", data)
    if not isinstance(section, dict):
        raise SettingsError(f"The config file {path}: [service] must be a table")
    known = set(Settings.model_fields)
    unknown = sorted(set(section) - known - {"service"})
    if unknown:
        warnings.append(f"The config file {path} has unknown keys, ignored: {', '.join(unknown)}")
    return {key: section[key] for key in known if key in section}


def load_settings(
    *, config_path: Path | None = None, **overrides: Any
) -> tuple[Settings, list[str]]:
    """Resolve settings from flags (`overrides`), environment and the config file.

    Returns the settings and the warnings to show the user. Raises
    `SettingsError` with a message naming the bad value and its source.
    """
    warnings: list[str] = []
    path = config_path or Path(os.environ.get(CONFIG_ENV) or default_config_path())
    if config_path is not None and not config_path.exists():
        raise SettingsError(f"The config file {config_path} does not exist")
    from_file = _read_config_file(path, warnings)
    flags = {key: value for key, value in overrides.items() if value is not None}
    # Case-insensitive, as pydantic-settings reads the environment.
    in_env = {key.upper() for key, value in os.environ.items() if value}
    env_set = {name for name in Settings.model_fields if f"WDS_{name.upper()}" in in_env}
    # The file is the lowest layer: only what neither a flag nor the environment set.
    layered = {k: v for k, v in from_file.items() if k not in flags and k not in env_set}
    try:
        settings = Settings(**layered, **flags)
    except ValidationError as exc:
        raise SettingsError(f"Invalid configuration: {validation_summary(exc)}") from exc
    if settings.base_url:
        parts = urlsplit(settings.base_url)
        if parts.scheme == "http" and not is_loopback(parts.hostname or ""):
            warnings.append(
                f"{settings.base_url} is plain http:// to a host that is not this machine: "
                "your API key would cross the network unencrypted. Use https://."
            )
        if settings.api_key is None:
            raise SettingsError(
                f"A service is configured ({settings.base_url}) but no API key: "
                "set WDS_API_KEY, pass --api-key, or add api_key to the config file."
            )
    return settings, warnings
