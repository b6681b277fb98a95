"""The actions a person can run, read from the widgets' own BINDINGS: what the palette lists and the help shows.

Nothing here is a second list of keys to keep in step: a pane, screen or
widget that gains a binding with a description shows up in the command
palette (`tui.dashboard.keys.palette`) and in the help screen (`tui.dashboard.keys.help`) as it is.

Which bindings count: every described binding a class of this package
declares, and, of Textual's own widgets, only those it shows in the footer
(the others are cursor keys and editing keys, which are not actions a
person looks up by name). Each action is grouped under its owner: the pane
it belongs to, else the screen, else "App".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from textual.actions import parse
from textual.app import App, ReturnType
from textual.binding import Binding, Keymap
from textual.dom import DOMNode
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from tui.dashboard.kit.mutations import declared_mutation
from tui.dashboard.kit.pane import Pane

APP_GROUP = "App"
"""The heading of the app-wide keys."""


@dataclass
class KeyAction:
    """One action and the keys that run it, on the node that owns it."""

    group: str  # the owner's name: a pane's title, a screen's name, or APP_GROUP
    description: str
    action: str  # as written in the binding, e.g. "focus_pane('crawls')"
    node: DOMNode  # where the binding is declared: the action runs with it as namespace
    keys: list[str] = field(default_factory=list)  # as shown to people ("⏎", "^p", "?")
    enabled: bool | None = True  # check_action's answer: None means "shown, but cannot run now"

    @property
    def key_text(self) -> str:
        """The keys, joined for one line ("? / f1")."""
        return " / ".join(self.keys)

    async def run(self) -> None:
        """Run the action on its owner (Textual checks `check_action` again first)."""
        await self.node.app.run_action(self.action, self.node)


@dataclass
class KeyGroup:
    """The actions of one owner, under its name."""

    title: str
    actions: list[KeyAction]


def rebound(binding: Binding, keymap: Mapping[str, str]) -> list[Binding]:
    """`binding` as the keymap makes it: once per key the keymap gives its id, or itself if it has none."""
    keys = keymap.get(binding.id) if binding.id is not None else None
    if not keys:
        return [binding]
    return [binding.with_key(key, key_display=None) for key in keys.split(",")]


class KeepsItsKeymap(App[ReturnType]):
    """An app that remembers the keymap it was given (mix in before `App`).

    Textual keeps its keymap to itself; the palette and the help read their
    keys from the classes' BINDINGS and need the same overrides (`[keys]`,
    `tui.dashboard.keys.overrides`).
    """

    key_overrides: Mapping[str, str] = {}
    """Binding id -> keys, as given to `set_keymap` and `update_keymap` (replaced, never changed in place)."""

    def set_keymap(self, keymap: Keymap) -> None:
        self.key_overrides = dict(keymap)
        super().set_keymap(keymap)

    def update_keymap(self, keymap: Keymap) -> None:
        self.key_overrides = {**self.key_overrides, **keymap}
        super().update_keymap(keymap)


def takes_text(widget: Widget | None) -> bool:
    """Whether keys typed go into `widget` as text (an Input or an editable TextArea)."""
    if isinstance(widget, Input):
        return True
    return is_text_area(widget) and not getattr(widget, "read_only", True)


def is_text_area(widget: object) -> bool:
    """Whether `widget` is a Textual TextArea (or made from one), known by its classes' names.

    Not by isinstance: importing TextArea to check costs start-up time, and none exists before a console opened it.
    """
    return any(cls.__name__ == "TextArea" and cls.__module__.startswith("textual") for cls in type(widget).__mro__)


def typed_as_text(binding: Binding) -> bool:
    """Whether a text field would take this binding's key as a character ("q", "?", "1")."""
    character = key_to_character(binding.key)
    return character is not None and character.isprintable()


def _own_class(cls: type) -> bool:
    return cls.__module__.split(".")[0] == "tui"


def described_bindings(node: DOMNode) -> list[Binding]:
    """The described bindings `node` declares (its classes', base classes first; a subclass overrides a key).

    With the keys the app's keymap gives them (`[keys]`, `tui.dashboard.keys.overrides`), as the footer shows them.
    """
    keymap = node.app.key_overrides if isinstance(node.app, KeepsItsKeymap) else {}
    by_key: dict[tuple[str, str], Binding] = {}  # one key may run two actions, each where it can
    for cls in reversed(type(node).__mro__):
        declared = cls.__dict__.get("BINDINGS")
        if not declared:
            continue
        own = _own_class(cls)
        for binding in Binding.make_bindings(declared):
            if binding.description and not binding.system and (own or binding.show):
                for each in rebound(binding, keymap):
                    by_key[(each.key, each.action)] = each
    return list(by_key.values())


def screen_title(screen: Screen[Any]) -> str:
    """A screen's name for people: its TITLE, else its class name in words ("JobDetailScreen" -> "Job detail")."""
    if screen.TITLE:
        return screen.TITLE
    name = type(screen).__name__.removesuffix("Screen") or "Screen"
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in name).strip()
    return words[:1].upper() + words[1:]


def owner_title(node: DOMNode, screen: Screen[Any]) -> str:
    """The group `node`'s actions go under: its pane, else its screen."""
    for each in node.ancestors_with_self:
        if isinstance(each, Pane):
            return each.TITLE
    return screen_title(screen)


def action_state(node: DOMNode, action: str, screen: Screen[Any]) -> bool | None:
    """What `check_action` says about `action` for a person working on `screen`.

    The app is asked through `action_state_on(screen, ...)` when it has one: while
    the palette or the help is open, the app's own `self.screen` is that overlay,
    not the screen the person is working on.
    """
    namespace, name, parameters = parse(action)
    app = node.app

    target: DOMNode = {"app": app, "screen": screen, "focused": screen.focused or screen}.get(namespace, node)
    if getattr(app, "read_only", False) and declared_mutation(target, name) is not None:
        return False  # read-only: not offered at all (tui.dashboard.keys.read_only)
    if target is app and hasattr(app, "action_state_on"):
        return app.action_state_on(screen, name, parameters)  # type: ignore[no-any-return]
    return target.check_action(name, parameters)


class _Collector:
    """Gathers actions in order, one per (owner, description), merging the keys of each."""

    def __init__(self, screen: Screen[Any], *, for_help: bool) -> None:
        self.screen = screen
        # The help also shows keys that cannot act this instant, and leaves out the keys
        # a focused text field would take as text; the palette runs actions without keys.
        self.include_disabled = for_help
        self.typing = for_help and takes_text(screen.focused)
        self.groups: dict[str, KeyGroup] = {}
        self._by_action: dict[tuple[int, str], KeyAction] = {}
        self._key_owners: dict[tuple[str, str], int] = {}
        self._seen_descriptions: set[tuple[str, str]] = set()

    def add(self, node: DOMNode, group: str) -> None:
        app = node.app
        # Textual stops looking at a modal screen (a form, a dialog): past it, only priority keys work.
        beyond_modal = self.include_disabled and node is app and self.screen.is_modal
        for binding in described_bindings(node):
            if beyond_modal and not binding.priority:
                continue
            if self.typing and node is not self.screen.focused and not binding.priority and typed_as_text(binding):
                continue
            state = action_state(node, binding.action, self.screen)
            if state is False or (state is None and not self.include_disabled):
                continue
            key = app.get_key_display(binding)
            merged = self._by_action.get((id(node), binding.description))
            if merged is not None:  # a second key for the same action ("n,escape", "? and f1")
                if key not in merged.keys:
                    merged.keys.append(key)
                continue
            # An inner widget repeating its pane's key or action ("enter: Open job") adds nothing.
            owner = self._key_owners.setdefault((group, binding.key), id(node))
            if owner != id(node) or (group, binding.description) in self._seen_descriptions:
                continue
            self._seen_descriptions.add((group, binding.description))
            entry = KeyAction(group, binding.description, binding.action, node, [key], state)
            self._by_action[(id(node), binding.description)] = entry
            self.groups.setdefault(group, KeyGroup(group, [])).actions.append(entry)

    def add_app(self, app: App[Any]) -> None:
        self.add(app, APP_GROUP)
        if app.ENABLE_COMMAND_PALETTE and self.include_disabled:  # help only: the palette is where one is
            palette = Binding(
                app.COMMAND_PALETTE_BINDING,
                "command_palette",
                "Command palette: every action",
                key_display=app.COMMAND_PALETTE_DISPLAY,
            )
            key = app.get_key_display(palette)
            self.groups.setdefault(APP_GROUP, KeyGroup(APP_GROUP, [])).actions.append(
                KeyAction(APP_GROUP, palette.description, palette.action, app, [key])
            )


def hidden_in_its_owner(node: DOMNode) -> bool:
    """Whether `node` is hidden inside its pane or screen (a closed drop-down's menu, say).

    A pane hidden by another's zoom still counts: its actions (zoom to it) still work.
    """
    for each in node.ancestors_with_self:
        if isinstance(each, Pane | Screen):
            return False
        if not each.display:
            return True
    return False


def palette_actions(screen: Screen[Any]) -> list[KeyAction]:
    """Every action that can run now on `screen`: each pane's and widget's, the screen's, then the app's."""
    collector = _Collector(screen, for_help=False)
    for node in screen.walk_children(with_self=True):
        if not hidden_in_its_owner(node):
            collector.add(node, owner_title(node, screen))
    collector.add_app(screen.app)
    return [entry for group in collector.groups.values() for entry in group.actions]


def focus_chain(screen: Screen[Any]) -> Iterable[DOMNode]:
    """The focused widget and its ancestors up to `screen` (the screen alone when nothing has focus)."""
    focused = screen.focused
    if focused is None:
        return [screen]
    return [node for node in focused.ancestors_with_self if node is not screen.app]


def keys_where_you_are(screen: Screen[Any]) -> list[KeyGroup]:
    """The keys that work on `screen` as it is now, grouped: the focused pane or widget, the screen, the app.

    Keys that exist here but cannot run this instant (no row selected...)
    are kept, marked by `enabled` None.
    """
    collector = _Collector(screen, for_help=True)
    for node in focus_chain(screen):
        collector.add(node, owner_title(node, screen))
    collector.add_app(screen.app)
    for group in collector.groups.values():
        # One key, two actions each where it can (Enter: console or details): say what it does now.
        working = {key for entry in group.actions if entry.enabled for key in entry.keys}
        group.actions = [e for e in group.actions if e.enabled or not set(e.keys) <= working]
    return [group for group in collector.groups.values() if group.actions]
