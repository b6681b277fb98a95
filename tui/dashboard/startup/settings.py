"""Where the dashboard finds its service: flags, then environment, then a TOML file.

One `Settings` object, built once at start-up (posting's `config.py` is the
model) and handed down; nothing deeper in the app reads the environment.
The API key is a `SecretStr`: it is never printed whole and never logged.

The layering is pydantic-settings' own: `settings_customise_sources` orders
flags (init arguments) > environment > the TOML file (`TomlConfigSettingsSource`)
> defaults. The file source adds what the dashboard needs on top: the
`[service]` table, a warning for unknown keys, and errors that say what to change.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import Field, PrivateAttr, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, TomlConfigSettingsSource

from tui.api.client_setup import check_api_key, check_base_url
from tui.contract.loopback import is_loopback
from tui.contract.redact import mask_key, mask_url
from tui.contract.validation import validation_summary
from tui.dashboard.startup.config_path import config_file_path
from tui.dashboard.startup.contexts import LOCAL, ContextError, FileContexts, read_contexts
from tui.dashboard.startup.durations import duration_words, parse_duration
from tui.dashboard.startup.key_command import KeyCommandError, key_from_command
from tui.monitor.settings import MonitorSettings, read_monitor_settings

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable  # the base's file type, for the override


RECENT_WINDOW = timedelta(hours=1)
RECENT_WINDOW_MIN = timedelta(minutes=1)
RECENT_WINDOW_MAX = timedelta(hours=24)
"""The activity the dashboard reads covers 24 hours: a longer window would list jobs nothing can show it."""


class SettingsError(Exception):
    """The configuration cannot be used; the message says what to change."""


@dataclass
class _ConfigFile:
    """The file one `load_settings` call reads, and the warnings its reading gives."""

    path: Path
    warnings: list[str] = field(default_factory=list)
    context: str | None = None  # the context whose table is read (None: the file's flat keys)
    ignore_environment: bool = False  # a context switched to in the app: its table alone names the service


# The file of the `load_settings` call under way: `settings_customise_sources` is a
# classmethod without arguments of its own, so the path reaches it this way.
# None (a `Settings(...)` made directly): no file is read.
_config_file: ContextVar[_ConfigFile | None] = ContextVar("wds_config_file", default=None)


class Settings(BaseSettings):
    """The resolved configuration of one run."""

    # env_ignore_empty: `WDS_BASE_URL=` counts as unset, so the file's value stands.
    model_config = SettingsConfigDict(env_prefix="WDS_", extra="ignore", env_ignore_empty=True)

    base_url: str | None = Field(None, description="The service's base address, without /v2")
    api_key: SecretStr | None = Field(None, description="The team's API key")
    timeout: float = Field(30.0, gt=0, le=600, description="Seconds a call may take in all, retries included")
    refresh: float | None = Field(
        None, ge=0.5, le=3600, description="Seconds between polls of every pane (default: per pane)"
    )
    webhook_listen: str | None = Field(
        None, description="[HOST:]PORT the webhook inbox listens on (loopback by default); unset: started from the app"
    )
    webhook_secret: SecretStr | None = Field(None, description="The HMAC secret the service signs webhooks with")
    api_key_command: str | None = Field(None, description="A command that prints the API key (pass show ...)")
    read_only: bool = Field(False, description="Refuse every action that changes something on the service")
    context: str | None = Field(None, description="The config file's context in use (None: the unnamed one)")
    recent_window: timedelta = Field(
        RECENT_WINDOW,
        description="How long finished crawls and batches stay in the crawls pane (30m, 1h, 2h30m; 1 min to 24 h)",
    )
    # Any: a table that is not one is a warning (read_monitor_settings), not a refused start.
    alerts: Any = Field(None, description="The context's [alerts] table: rules by kind, and [alerts.delivery]")
    journal: Any = Field(None, description="The context's [journal] table: retention and size cap")
    _monitoring: MonitorSettings = PrivateAttr(default_factory=MonitorSettings)
    _contexts: FileContexts | None = PrivateAttr(None)
    _config_path: Path | None = PrivateAttr(None)
    _keys: dict[str, str] = PrivateAttr(default_factory=dict)

    @property
    def keys(self) -> dict[str, str]:
        """The config file's [keys] table: "owner.action" -> the keys that replace its own."""
        return self._keys

    @property
    def monitoring(self) -> MonitorSettings:
        """The context's alert rules, where alerts go, and its journal's limits (`tui.monitor.settings`)."""
        return self._monitoring

    @property
    def config_path(self) -> Path | None:
        """The config file these settings read (or would have read): where a key typed in the app may be saved."""
        return self._config_path

    @field_validator("webhook_listen")
    @classmethod
    def _check_webhook_listen(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        from tui.dashboard.features.inbox.listener import parse_listen_address

        host, port = parse_listen_address(value)  # ValueError says what is wrong
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    @field_validator("webhook_secret")
    @classmethod
    def _check_webhook_secret(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None

    @field_validator("recent_window", mode="before")
    @classmethod
    def _check_recent_window(cls, value: object) -> timedelta:
        window = parse_duration(value)  # ValueError says how to write one
        if not RECENT_WINDOW_MIN <= window <= RECENT_WINDOW_MAX:
            raise ValueError(f"{duration_words(window)} is out of range: from 1 min to 24 h")
        return window

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
        # Flags (init) > environment (any case of its names) > the TOML file;
        # no .env file or secrets dir is consulted.
        config_file = _config_file.get()
        if config_file is None:
            return (init_settings, env_settings)
        if config_file.ignore_environment:
            return (init_settings, ConfigFileSource(settings_cls, config_file))
        return (init_settings, env_settings, ConfigFileSource(settings_cls, config_file))

    @property
    def uses_embedded_emulator(self) -> bool:
        """No service configured: the dashboard runs on its own emulator."""
        return self.base_url is None

    @property
    def masked_key(self) -> str:
        return mask_key(self.api_key.get_secret_value() if self.api_key else None)

    @property
    def context_names(self) -> list[str]:
        """The contexts one can switch to (`local` always among them)."""
        return self._contexts.names if self._contexts is not None else [LOCAL]

    def describe_contexts(self) -> str:
        """Every context one can switch to, one line each, keys masked; `*` marks the one in use."""
        tables = self._contexts.tables if self._contexts is not None else {}
        lines = []
        for name in self.context_names:
            table = tables.get(name, {})
            if name == LOCAL and name not in tables:
                service, key = "the embedded local emulator", "a fresh key each run"
            else:
                # another context's table is not checked until it is chosen: its URL may hold a secret
                service = mask_url(str(table.get("base_url") or "")) or "(no base_url)"
                if table.get("api_key"):
                    key = f"key {mask_key(str(table['api_key']))}"
                elif table.get("api_key_command"):
                    key = f"key from: {str(table['api_key_command']).split()[0]} …"
                else:
                    key = "no key"
            marks = " read-only" if table.get("read_only") else ""
            lines.append(f"{'*' if name == self.context else ' '} {name:<12} {service} · {key}{marks}")
        return "\n".join(lines)

    def describe(self) -> str:
        """A printable summary that never shows the key."""
        return (
            f"context:  {self.context or '(unnamed: the config file has no contexts)'}"
            f"{' (read-only)' if self.read_only else ''}\n"
            f"base URL: {mask_url(self.base_url or '') or '(none: the embedded local emulator)'}\n"
            f"API key:  {self.masked_key}\n"
            f"timeout:  {self.timeout:g} s\n"
            f"refresh:  {f'every {self.refresh:g} s' if self.refresh else 'per pane (the dashboard defaults)'}\n"
            f"recent:   finished crawls and batches stay {duration_words(self.recent_window)} in the crawls pane\n"
            f"webhooks: {f'listen on {self.webhook_listen}' if self.webhook_listen else 'inbox started from the app (w)'}; "
            f"secret {mask_key(self.webhook_secret.get_secret_value()) if self.webhook_secret else 'not set (events shown unchecked)'}"
        )


class ConfigFileSource(TomlConfigSettingsSource):
    """The TOML config file, read by pydantic-settings' TOML source.

    On top of it: the keys may sit at the top level or in a `[service]` table;
    unknown keys are ignored with a warning; a file that cannot be read or is
    not TOML raises `SettingsError` naming the file.
    """

    def __init__(self, settings_cls: type[BaseSettings], config_file: _ConfigFile) -> None:
        self._config_file = config_file
        self._fields = frozenset(settings_cls.model_fields)  # the base reads the file before it sets settings_cls
        super().__init__(settings_cls, toml_file=config_file.path)

    def _read_file(self, file_path: Path | Traversable) -> dict[str, Any]:
        import tomllib  # only when there is a file: start-up without one skips it

        path = self._config_file.path
        try:
            data = super()._read_file(file_path)
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"The config file {path} is not valid TOML: {exc}") from exc
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"Cannot read the config file {path}: {exc}") from exc
        context = self._config_file.context
        if context is not None:
            section = data.get("contexts", {}).get(context, {})  # local needs no table
        else:
            section = data.get("service", data)
        if not isinstance(section, dict):
            raise SettingsError(f"The config file {path}: [service] must be a table")
        known = self._fields - {"context"}
        unknown = sorted(set(section) - known - {"service", "current", "contexts", "keys"})
        if unknown:
            self._config_file.warnings.append(f"The config file {path} has unknown keys, ignored: {', '.join(unknown)}")
        return {key: section[key] for key in known if key in section}


def _check_config_file(path: Path, warnings: list[str]) -> None:
    """Refuse a config file that is there but cannot be read; warn when others can read it."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise SettingsError(f"Cannot read the config file {path}: {exc.strerror}") from exc
    if stat.S_ISDIR(mode):
        # The TOML source would skip it silently; a directory here is a mistake to report.
        raise SettingsError(f"Cannot read the config file {path}: it is a directory")
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        # As ssh does for keys: a secret in a file others can read is a leak waiting to happen.
        warnings.append(
            f"The config file {path} is readable by other users and may hold your API key; run: chmod 600 {path}"
        )


def _file_contexts(path: Path) -> tuple[FileContexts, dict[str, str]]:
    """The contexts the config file defines (none when there is no file), and its [keys] table."""
    import tomllib

    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return FileContexts({}, None), {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return FileContexts({}, None), {}  # the file source reports it, in its words
    keys = data.get("keys", {})
    if not isinstance(keys, dict) or not all(isinstance(v, str) for v in keys.values()):
        raise SettingsError(
            f'The config file {path}: [keys] holds "owner.action" = "key" lines, e.g. "sessions.create" = "n"'
        )
    try:
        return read_contexts(data, path), dict(keys)
    except ContextError as exc:
        raise SettingsError(str(exc)) from exc


def load_settings(
    *,
    config_path: Path | None = None,
    context: str | None = None,
    switching: bool = False,
    environ: Mapping[str, str] = os.environ,
    **overrides: Any,
) -> tuple[Settings, list[str]]:
    """Resolve settings from flags (`overrides`), environment and the config file.

    `context`: the `--context` flag (else `WDS_CONTEXT`, else the file's
    `current`). `switching`: a context chosen in the running app, whose table
    alone names the service (the environment named the one the app started with).
    Returns the settings and the warnings to show the user. Raises
    `SettingsError` with a message naming the bad value and its source.
    """
    path = config_file_path(config_path)
    if config_path is not None and not config_path.exists():
        raise SettingsError(f"The config file {config_path} does not exist")
    config_file = _ConfigFile(path, ignore_environment=switching)
    _check_config_file(path, config_file.warnings)
    contexts, keys = _file_contexts(path)
    asked = context or (None if switching else environ.get("WDS_CONTEXT") or None)
    try:
        config_file.context = contexts.choose(asked)
    except ContextError as exc:
        raise SettingsError(f"The config file {path}: {exc}") from exc
    flags = {key: value for key, value in overrides.items() if value is not None}
    if config_file.context is not None:
        flags["context"] = config_file.context
    token = _config_file.set(config_file)
    try:
        settings = Settings(**flags)
    except ValidationError as exc:
        raise SettingsError(f"Invalid configuration: {validation_summary(exc)}") from exc
    finally:
        _config_file.reset(token)
    if config_file.context == LOCAL and LOCAL not in contexts.tables:
        settings = settings.model_copy(update={"base_url": None, "api_key": None})  # local: the embedded emulator
    if settings.base_url and settings.api_key is None and settings.api_key_command:
        try:
            key = key_from_command(settings.api_key_command, config_file.context or "(unnamed)")
            settings = settings.model_copy(update={"api_key": check_api_key(SecretStr(key))})
        except (KeyCommandError, ValueError) as exc:
            raise SettingsError(str(exc)) from exc
    settings._contexts = contexts
    settings._config_path = path
    settings._keys = keys
    warnings = config_file.warnings
    settings._monitoring, monitor_warnings = read_monitor_settings(settings.alerts, settings.journal)
    warnings.extend(monitor_warnings)
    if settings.base_url:
        parts = urlsplit(settings.base_url)
        if parts.scheme == "http" and not is_loopback(parts.hostname or ""):
            warnings.append(
                f"{mask_url(settings.base_url)} is plain http:// to a host that is not this machine: "
                "your API key would cross the network unencrypted. Use https://."
            )
        if settings.api_key is None:
            raise SettingsError(
                f"A service is configured ({mask_url(settings.base_url)}) but no API key: "
                "set WDS_API_KEY, pass --api-key, or add api_key (or api_key_command) to the config file."
            )
    return settings, warnings
