"""Named contexts in the config file: several services and teams, one of them current.

    current = "prod"

    [contexts.prod]
    base_url = "https://api.example.com"
    api_key_command = "pass show wds/prod"    # or api_key = "..."
    read_only = true

    [contexts.staging]
    base_url = "https://staging.example.com"
    api_key = "wds-..."

A file without `[contexts]` (today's `[service]` table, or keys at the top)
is one unnamed context. `local`, the embedded emulator, is always there and
needs no table. Which context runs: `--context`, else `WDS_CONTEXT`, else
`current`, else the only one the file names, else `local` when the file names
none. `api_key_command` is run (`tui.dashboard.startup.key_command`: no input, its first line,
15 s at most) only for the context that is used, so a password manager is
asked only when needed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

LOCAL = "local"
"""The embedded emulator's context: always present, never written in the file."""


class ContextError(Exception):
    """The contexts cannot be used as written; the message says what to change."""


@dataclass(frozen=True)
class FileContexts:
    """What the config file says about contexts."""

    tables: dict[str, dict[str, Any]]  # name -> its table, in the file's order
    current: str | None

    @property
    def names(self) -> list[str]:
        """Every context one can switch to, `local` last (unless the file defines its own)."""
        return [*self.tables, *([] if LOCAL in self.tables else [LOCAL])]

    def choose(self, asked: str | None) -> str | None:
        """The context to use (None: the file has no contexts, so its flat keys are the one context)."""
        name = asked or self.current
        if name is None:
            if not self.tables:
                return None
            if len(self.tables) == 1:
                return next(iter(self.tables))
            raise ContextError(
                f"the config file defines {len(self.tables)} contexts ({', '.join(self.tables)}) and none is current: "
                'add current = "NAME" at its top, or choose with --context NAME or WDS_CONTEXT'
            )
        if name not in self.tables and name != LOCAL:
            known = ", ".join(self.names)
            raise ContextError(f"there is no context {name!r}; the contexts are: {known}")
        return name


def read_contexts(data: Mapping[str, Any], path: object) -> FileContexts:
    """The contexts of a parsed config file (`path` only names it in errors)."""
    current = data.get("current")
    if current is not None and not isinstance(current, str):
        raise ContextError(f"The config file {path}: current must be a context's name in quotes")
    tables = data.get("contexts", {})
    if not isinstance(tables, dict) or not all(isinstance(table, dict) for table in tables.values()):
        raise ContextError(f"The config file {path}: each context must be a table, [contexts.NAME]")
    if tables and "service" in data:
        raise ContextError(
            f"The config file {path} has both [service] and [contexts]: move [service] into a [contexts.NAME] table"
        )
    if current is not None and current not in tables and current != LOCAL:
        raise ContextError(f"The config file {path}: current = {current!r}, but there is no [contexts.{current}]")
    return FileContexts(dict(tables), current)


@dataclass(frozen=True)
class ContextSwitch:
    """What the running app needs to offer other contexts: their names, and how to load one."""

    names: list[str]
    current: str | None
    load: Callable[[str], tuple[Any, list[str]]]  # name -> (Settings, warnings); raises SettingsError


@dataclass(frozen=True)
class SwitchTo:
    """The app's result when the operator switched context: the dashboard starts again on these settings."""

    settings: Any  # tui.dashboard.startup.settings.Settings (not imported here: this module stays light)
    warnings: list[str]
