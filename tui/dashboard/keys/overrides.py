"""The config file's `[keys]` table: any binding rebound by its action's name.

    [keys]
    "sessions.create" = "n"
    "app.quit" = "ctrl+q,q"
    "pane.refresh_now" = "f5"

A name is `OWNER.ACTION`: the owner is the class that declares the binding,
named without its kind (`SessionsPane` -> `sessions`, `ScrapeFormScreen` ->
`scrape_form`, the shared pane keys -> `pane`, the app -> `app`); the action is
the binding's action, with its argument if it has one (`app.focus_pane.crawls`).
`wds-tui keys` lists them all. The classes' own BINDINGS are rewritten before any widget exists,
so the footer, the palette and the help all show the operator's keys with no
other change. A name that matches nothing, or a key that would collide with
another of the same owner or with an app key, is reported at start, naming
both actions; a colliding override is not applied.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field, replace
from typing import Any

from textual.actions import parse as parse_action
from textual.binding import Binding
from textual.dom import DOMNode

PACKAGES = ("tui.dashboard.features", "tui.dashboard.kit", "tui.dashboard.keys", "tui.dashboard.connection")
"""Where the classes that declare bindings live (imported, with their subpackages, when there are keys to apply)."""
MODULES = ("tui.dashboard.shell.app", "tui.dashboard.startup.context_picker")
"""Modules outside those packages whose classes declare bindings."""
_ONE_KEY = r"[A-Za-z0-9_\-]+(\+[A-Za-z0-9_\-]+)*"
_KEY = re.compile(rf"^{_ONE_KEY}(,{_ONE_KEY})*$")


def owner_name(cls: type) -> str:
    """`SessionsPane` -> `sessions`, `ScrapeFormScreen` -> `scrape_form`, `WdsApp` -> `app`, `Pane` -> `pane`."""
    name = cls.__name__
    if name == "WdsApp":
        return "app"
    for suffix in ("Pane", "Screen"):
        if name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def action_of(binding: Binding) -> str:
    """The binding's name within its owner: `create`, or with its arguments `focus_pane.crawls`."""
    _, name, parameters = parse_action(binding.action)
    return ".".join([name, *(str(p) for p in parameters)])


def binding_classes() -> list[type[DOMNode]]:
    """Every class of this package that declares BINDINGS (importing the modules that hold them)."""
    for module_name in MODULES:
        importlib.import_module(module_name)
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for module in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}."):
            importlib.import_module(module.name)
    found: list[type[DOMNode]] = []
    stack: list[type] = [DOMNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.split(".")[0] == "tui" and cls.__dict__.get("BINDINGS"):
            found.append(cls)
    return found


@dataclass
class KeyReport:
    """What applying `[keys]` did: the bindings changed, and what could not be applied (in words)."""

    applied: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    originals: dict[type, Any] = field(default_factory=dict)  # class -> its BINDINGS before (for `undo`)

    def undo(self) -> None:
        """Put every changed class's bindings back (tests; a process applies its keys once)."""
        for cls, bindings in self.originals.items():
            cls.BINDINGS = bindings
        for cls in classes_below(set(self.originals)):
            cls._merged_bindings = cls._merge_bindings()
        self.originals.clear()


def apply_key_overrides(overrides: dict[str, str]) -> KeyReport:
    """Rebind each `OWNER.ACTION` in `overrides` to its keys; returns what was done and what was refused."""
    report = KeyReport()
    if not overrides:
        return report
    classes = binding_classes()
    by_owner = {owner_name(cls): cls for cls in classes}
    app_cls = by_owner.get("app")
    app_keys = {key: f"app.{action_of(b)}" for b in _bindings(app_cls) for key in _keys_of(b)} if app_cls else {}
    changed: set[type[DOMNode]] = set()
    for name, keys in overrides.items():
        owner, _, action = name.partition(".")
        cls = by_owner.get(owner)
        targets = [b for b in _bindings(cls) if action_of(b) == action] if cls is not None else []
        if not targets:
            report.problems.append(f"[keys] {name}: no such action (owner.action, as wds-tui keys lists them)")
            continue
        keys = keys.replace(" ", "")
        if not _KEY.match(keys):
            report.problems.append(f"[keys] {name} = {keys!r}: not a key (e.g. \"n\", \"ctrl+n\", \"f5\", \"n,ctrl+n\")")
            continue
        assert cls is not None
        others = {key: f"{owner}.{action_of(b)}" for b in _bindings(cls) if action_of(b) != action for key in _keys_of(b)}
        if owner != "app":
            others = {**{k: v for k, v in app_keys.items() if v != name}, **others}
        clashes = sorted({f"{key} is already {others[key]}" for key in keys.split(",") if key in others})
        if clashes:
            report.problems.append(f"[keys] {name} = {keys!r} not applied: {'; '.join(clashes)}")
            continue
        old = [b for b in _bindings(cls) if action_of(b) == action]
        # Subclasses often copy their base's list (`*Pane.BINDINGS`): the same bindings are rebound there too.
        for each in classes_below({cls}):
            own = _bindings(each)
            if any(b in old for b in own):
                report.originals.setdefault(each, each.__dict__.get("BINDINGS"))
                each.BINDINGS = [replace(b, key=keys, key_display=None) if b in old else b for b in own]  # type: ignore[attr-defined]
                changed.add(each)
        if owner == "app":
            app_keys = {k: v for k, v in app_keys.items() if v != name} | dict.fromkeys(keys.split(","), name)
        changed.add(cls)
        report.applied.append(f"{name} = {keys}")
    if changed:
        # Each class's merged bindings are made when it is defined; remake them for the changed classes
        # and every class that inherits from one (a pane's r, p, z are the base Pane's).
        for cls in classes_below(changed):
            cls._merged_bindings = cls._merge_bindings()
    return report


def _bindings(cls: type | None) -> list[Binding]:
    if cls is None:
        return []
    return list(Binding.make_bindings(cls.__dict__.get("BINDINGS", [])))


def _keys_of(binding: Binding) -> list[str]:
    return [key.strip() for key in binding.key.split(",")]


def classes_below(roots: set[type[DOMNode]]) -> list[type[DOMNode]]:
    """`roots` and every class that inherits from one of them."""
    seen: dict[type, None] = {}
    stack: list[type[Any]] = list(roots)
    while stack:
        cls = stack.pop()
        if cls not in seen:
            seen[cls] = None
            stack.extend(cls.__subclasses__())
    return list(seen)


def describe_bindings(overrides: dict[str, str]) -> str:
    """Every described binding as `owner.action  keys  what it does`, after `overrides`, then any problem."""
    report = apply_key_overrides(overrides)
    lines = []
    for cls in sorted(binding_classes(), key=lambda c: (owner_name(c) != "app", owner_name(c))):
        for binding in _bindings(cls):
            if binding.description:
                lines.append(f"{owner_name(cls) + '.' + action_of(binding):<34} {binding.key:<16} {binding.description}")
    lines.extend(f"problem: {problem}" for problem in report.problems)
    return "\n".join(dict.fromkeys(lines))  # one line per name: a binding listed twice (two keys) once
