"""A collapsible tree of JSON-like data (dicts, lists, scalars), built on Textual's Tree.

Children are added the first time a node is expanded, so a crawl result with
hundreds of pages (each with long link lists) opens instantly: only what a
person unfolds is ever built. Long strings (markdown, html) are shown on one
line, cut short, with their full length; the document view shows them whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from tui.dashboard.kit.outside_text import visible

STRING_PREVIEW = 80
"""Characters of a string value shown in its node's label."""


@dataclass
class JsonNodeData:
    """What a tree node stands for; `populated` is set once its children exist."""

    value: Any
    populated: bool = False


def _is_container(value: Any) -> bool:
    return isinstance(value, dict | list) and len(value) > 0


def _scalar_text(value: Any) -> Text:
    """A scalar as JSON would write it, coloured by kind with theme-neutral styles."""
    if value is None:
        return Text("null", style="italic dim")
    if isinstance(value, bool):
        return Text("true" if value else "false", style="bold")
    if isinstance(value, int | float):
        return Text(repr(value), style="bold")
    if isinstance(value, str):
        flat = visible(value.replace("\r", "").replace("\n", "⏎"))  # the service's text, on one line
        if len(flat) > STRING_PREVIEW:
            return Text(f'"{flat[:STRING_PREVIEW]}…" ({len(value):,} chars)', style="italic")
        return Text(f'"{flat}"', style="italic")
    if isinstance(value, dict | list):  # empty containers are leaves
        return Text("{}" if isinstance(value, dict) else "[]", style="dim")
    return Text(visible(value))


def _summary(value: dict[str, Any] | list[Any]) -> Text:
    if isinstance(value, dict):
        return Text(f"{{…}} {len(value)} key{'s' if len(value) != 1 else ''}", style="dim")
    return Text(f"[…] {len(value)} item{'s' if len(value) != 1 else ''}", style="dim")


def node_label(key: str, value: Any) -> Text:
    """The label of one member: `key: value` for scalars, `key {…} n keys` for containers."""
    label = Text(visible(key), style="bold")
    if _is_container(value):
        label.append(" ")
        label.append_text(_summary(value))
    else:
        label.append(": ")
        label.append_text(_scalar_text(value))
    return label


class JsonTree(Tree[JsonNodeData]):
    """Shows a JSON value as a tree; containers unfold on Enter, Space or a click."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("e", "expand_all", "Expand all", id="json_tree.expand_all"),
        Binding("c", "collapse_all", "Collapse all", id="json_tree.collapse_all"),
    ]

    DEFAULT_CSS = """
    JsonTree { height: 1fr; }
    """

    UNFOLD_LINES = 40
    """How many lines a freshly shown value may open to on its own."""

    MAX_EXPAND_ALL = 2_000
    """Nodes "expand all" builds at most, so a huge result cannot freeze the screen."""

    def __init__(self, label: str = "root", data: Any = None, **kwargs: Any) -> None:
        super().__init__(label, **kwargs)
        self._root_name = label
        self.show_root = True
        self.guide_depth = 3
        self.set_value(data, label)

    def set_value(self, value: Any, label: str | None = None) -> None:
        """Show `value` (any JSON-compatible data) and unfold its first level."""
        if label is not None:
            self._root_name = label
        self.clear()
        self.root.set_label(node_label(self._root_name, value))
        self.root.data = JsonNodeData(value)
        self.root.allow_expand = _is_container(value)
        if self.root.allow_expand:
            self._unfold_to_fit(self.UNFOLD_LINES)

    def _unfold_to_fit(self, max_lines: int) -> None:
        """Unfold level by level, breadth first, while the open tree stays under `max_lines`."""
        lines = 1
        level = [self.root]
        while level:
            next_level: list[TreeNode[JsonNodeData]] = []
            for node in level:
                data = node.data
                size = len(data.value) if data is not None else 0
                if lines + size > max_lines:
                    return
                lines += self._populate(node)
                node.expand()
                next_level.extend(child for child in node.children if child.allow_expand)
            level = next_level

    # --- building nodes -------------------------------------------------------

    def _populate(self, node: TreeNode[JsonNodeData]) -> int:
        """Add `node`'s children (once); returns how many were added."""
        data = node.data
        if data is None or data.populated:
            return 0
        data.populated = True
        value = data.value
        items = value.items() if isinstance(value, dict) else ((f"[{i}]", v) for i, v in enumerate(value))
        added = 0
        for key, child in items:
            node.add(node_label(str(key), child), JsonNodeData(child), allow_expand=_is_container(child))
            added += 1
        return added

    def _on_tree_node_expanded(self, event: Tree.NodeExpanded[JsonNodeData]) -> None:
        if event.node.tree is self:
            self._populate(event.node)

    # --- actions ----------------------------------------------------------------

    def action_expand_all(self) -> None:
        """Unfold the node under the cursor and everything below it (bounded)."""
        start = self.cursor_node or self.root
        budget = self.MAX_EXPAND_ALL
        stack = [start]
        while stack and budget > 0:
            node = stack.pop()
            if not node.allow_expand:
                continue
            budget -= self._populate(node)
            node.expand()
            stack.extend(reversed(node.children))

    def action_collapse_all(self) -> None:
        """Fold everything below the root, back to the first level."""
        for child in self.root.children:
            child.collapse_all()
        self.move_cursor(self.root)
