"""The config file's `[keys]` table: any binding rebound by its id, through Textual's keymap.

    [keys]
    "sessions.create" = "n"
    "app.quit" = "ctrl+q,q"
    "pane.refresh_now" = "f5"

Every binding of ours carries an id `OWNER.ACTION` (posting's habit,
`Binding(..., id="send-request")`): the owner is the class that declares the
binding, named without its kind (`SessionsPane` -> `sessions`,
`ScrapeFormScreen` -> `scrape_form`, the shared pane keys -> `pane`, the app ->
`app`); the action is the binding's action, with its argument if it has one
(`app.focus_pane.crawls`). `wds-tui keys` lists them all.

The overrides that pass the checks below become the app's keymap
(`App.set_keymap`): Textual puts the keys in place wherever the binding is
looked up, so the footer shows them, and `tui.dashboard.keys.keymap` reads the same keymap for
the palette and the help. No class's BINDINGS is touched. A name that matches
nothing, or a key that would collide with another of the same owner or with an
app key, is reported at start, naming both actions; a colliding override is not
applied.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

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
    """What `[keys]` asks for: the keymap to give the app, the overrides in it, and what was refused (in words)."""

    keymap: dict[str, str] = field(default_factory=dict)  # binding id -> keys, for App.set_keymap
    applied: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def check_key_overrides(overrides: Mapping[str, str]) -> KeyReport:
    """Turn each `OWNER.ACTION = keys` of `overrides` into a keymap entry, or into a problem saying why not."""
    report = KeyReport()
    if not overrides:
        return report
    keys_of: dict[str, list[str]] = {}  # binding id -> its keys, as declared, then as overridden
    neighbours: dict[str, set[str]] = {}  # binding id -> the ids bound beside it, in any class that has it
    for cls in binding_classes():
        for binding in _bindings(cls):
            if binding.id is not None:
                keys_of.setdefault(binding.id, [])
                keys_of[binding.id] += [key for key in _keys_of(binding) if key not in keys_of[binding.id]]
        # A class's keys are its own and its bases' (a pane's r, p, z are the base Pane's).
        ids = {b.id for each in cls.__mro__ for b in _bindings(each) if b.id is not None}
        for binding_id in ids:
            neighbours.setdefault(binding_id, set()).update(ids)
    app_ids = {binding_id for binding_id in keys_of if binding_id.startswith("app.")}
    for name, keys in overrides.items():
        if name not in keys_of:
            report.problems.append(f"[keys] {name}: no such action (owner.action, as wds-tui keys lists them)")
            continue
        keys = keys.replace(" ", "")
        if not _KEY.match(keys):
            report.problems.append(f'[keys] {name} = {keys!r}: not a key (e.g. "n", "ctrl+n", "f5", "n,ctrl+n")')
            continue
        # Another key of the same owner (or a class that copies it) comes first; then an app key.
        others = sorted(neighbours[name] - {name}) + sorted(app_ids - neighbours[name])
        taken: dict[str, str] = {}
        for other in others:
            for key in keys_of[other]:
                taken.setdefault(key, other)
        clashes = sorted({f"{key} is already {taken[key]}" for key in keys.split(",") if key in taken})
        if clashes:
            report.problems.append(f"[keys] {name} = {keys!r} not applied: {'; '.join(clashes)}")
            continue
        keys_of[name] = keys.split(",")  # a later override's clashes are judged against this one's keys
        report.keymap[name] = keys
        report.applied.append(f"{name} = {keys}")
    return report


def _bindings(cls: type | None) -> list[Binding]:
    if cls is None:
        return []
    return list(Binding.make_bindings(cls.__dict__.get("BINDINGS", [])))


def _keys_of(binding: Binding) -> list[str]:
    return [key.strip() for key in binding.key.split(",")]


def describe_bindings(overrides: Mapping[str, str]) -> str:
    """Every described binding as `owner.action  keys  what it does`, after `overrides`, then any problem."""
    report = check_key_overrides(overrides)
    lines = []
    for cls in sorted(binding_classes(), key=lambda c: (owner_name(c) != "app", owner_name(c))):
        for declared in _bindings(cls):
            if declared.description and declared.id is not None:
                keys = report.keymap.get(declared.id, declared.key)
                lines.append(f"{declared.id:<34} {keys:<16} {declared.description}")
    lines.extend(f"problem: {problem}" for problem in report.problems)
    return "\n".join(dict.fromkeys(lines))  # one line per name: a binding listed twice (two keys) once
