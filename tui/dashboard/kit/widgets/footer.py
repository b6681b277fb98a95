"""Textual's Footer, with the keys a person needs first and without the memory it never gives back.

Order: at 80 columns the footer cannot hold every key, and Textual's shows
them in binding order, so the focused pane's own keys came after the keys
every pane has and "Quit" fell off the edge. Here `q` and `?` come first,
then the keys of what has the focus (the pane's or the screen's own), then
the rest (refresh, pause, zoom). A description's head, before a colon, is
its label ("Help: the keys that work here" reads "Help").

Memory: the footer rebuilds its keys whenever the bindings change (a pane
gains or loses "Next page", the cursor moves onto a row that can be opened
...). Textual's own footer binds each key it builds to its `compact` reactive
(`data_bind`), which puts the key in the footer's watcher list; Textual drops
a closed watcher only when `compact` changes, which it never does. So every
rebuild left its keys alive, with their styles and message queues: ~40 MB an
hour on a dashboard with live traffic. This footer does not bind its keys: it
gives each its `compact` as it builds it, and again when `compact` changes
(tests/ui/test_memory_bounds.py shows the leak on a bare Textual app).

Width: a key that would run past the edge (or under the palette's key) is
left out rather than cut mid-word ("esc Back to th"); keys are placed in the
order above, so the least needed go first. Each resize builds the keys again.

Read-only: keys of actions that declare they change the service are left out
(`tui.dashboard.keys.read_only`).

Each key is our `FooterKey` (`tui.dashboard.kit.widgets.footer_key`): Textual
does not export its own, and ours looks the same; a click runs the key's
action in the namespace that bound it.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.dom import DOMNode
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter

from tui.dashboard.kit.mutations import refused_mutation
from tui.dashboard.kit.widgets.footer_key import FooterKey

FIRST_ACTIONS = ("quit", "help")
"""Actions shown before any other, in this order (an action's name before its arguments)."""
COMMON_ACTIONS = frozenset({"refresh_now", "toggle_pause", "toggle_maximize"})
"""The keys every pane has: after the focused pane's own."""


def footer_rank(binding: Binding, namespace: object) -> int:
    """Where a key goes: quit, help, the focused part's own keys, then the common and app-wide ones."""
    name = binding.action.partition("(")[0].removeprefix("app.")
    if name in FIRST_ACTIONS:
        return FIRST_ACTIONS.index(name)
    if name in COMMON_ACTIONS or isinstance(namespace, App):
        return len(FIRST_ACTIONS) + 1
    return len(FIRST_ACTIONS)


def key_cells(key_display: str, label: str, *, compact: bool) -> int:
    """The cells a key takes in the footer, its spacing included (FooterKey's padding, the footer's margins)."""
    return cell_len(key_display) + cell_len(label) + (2 if compact else 3)


def footer_label(binding: Binding) -> str:
    """A binding's description up to its first colon: the footer has little room."""
    return binding.description.partition(":")[0]


class Footer(TextualFooter):
    """The key bar at the bottom; first what matters; rebuilt as often as the bindings change, in bounded memory."""

    bindings_known = False
    """Whether the screen has said what its bindings are (nothing is shown before)."""

    def bindings_changed(self, screen: Screen[object]) -> None:
        self.bindings_known = True
        super().bindings_changed(screen)

    def on_resize(self, event: Resize) -> None:
        # After the refresh, not at once: recomposed during the first layout, the main screen's
        # activity missed a row's status (tests/ui/test_snapshots.py::test_main_screen[120x40]).
        if self.bindings_known and event.size.width != self._built_for:
            self.call_after_refresh(self.refresh, recompose=True)

    _built_for = 0
    """The width the keys were chosen for."""

    def watch_compact(self, compact: bool) -> None:
        for key in self.query_children(FooterKey):
            key.compact = compact

    def compose(self) -> ComposeResult:
        if not self.bindings_known:
            return
        active = self.screen.active_bindings
        shown: dict[str, tuple[DOMNode, Binding, bool, str, int]] = {}  # one key per action, the first bound
        for namespace, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in shown or refused_mutation(self.app, binding.action, namespace):
                continue
            shown[binding.action] = (namespace, binding, enabled, tooltip, footer_rank(binding, namespace))
        ordered = sorted(shown.values(), key=lambda item: item[4])  # stable: binding order within a rank
        palette = active.get(self.app.COMMAND_PALETTE_BINDING)
        if not (self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE):
            palette = None
        self._built_for = width = self.size.width or self.app.size.width
        room = width
        if palette is not None:  # docked right: its border takes the cell its margin would
            room -= key_cells(self.app.get_key_display(palette[1]), palette[1].description, compact=False)
        fitting = []
        for item in ordered:
            cells = key_cells(self.app.get_key_display(item[1]), footer_label(item[1]), compact=self.compact)
            if cells <= room:  # a key that does not fit is left out; a shorter one after it may still fit
                fitting.append(item)
                room -= cells
        self.styles.grid_size_columns = len(fitting)
        for namespace, binding, enabled, tooltip, _ in fitting:
            key = FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                footer_label(binding),
                binding.action,
                namespace,
                disabled=not enabled,
                tooltip=tooltip or binding.description,
            )
            key.compact = self.compact  # not data_bind: see the module doc
            yield key
        if palette is not None:
            namespace, binding, enabled, _ = palette
            yield FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                namespace,
                classes="-command-palette",
                disabled=not enabled,
                tooltip=binding.tooltip or binding.description,
            )
