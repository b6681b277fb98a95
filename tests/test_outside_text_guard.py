"""Guards on the app's source: the ways text reaches a widget as markup, or unfiltered, stay closed.

`tui.dashboard.kit.outside_text` is the rule; these checks keep a new view from going round
it where that can be told from the source alone, without guessing:

- an f-string (where a value from outside is usually put into words) handed
  to a Static, Label or Option is never read as markup: `markup=False`, or
  made safe by `shown`/`plain`;
- markup is parsed only from literals written here (`from_markup("...")`);
- Markdown is shown by `OutsideMarkdown` only, whose parser makes every text visible;
- rows reach a table only through `LiveTable` (which makes every cell text; its
  base `LineTable` shows cells as given), and the only tables are `LiveTable`
  and the map's `LinksTable` (which paints visible text itself).

Notifications need no guard: the app reads none as markup (`PlainNotifications`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import tui

APP = Path(tui.__file__).parent
SAFE = {"shown", "plain", "visible"}
"""The rule's functions: what they return is text for any widget."""


def _modules() -> Iterator[tuple[str, ast.AST]]:
    """Every module of the dashboard (the emulator shows nothing in a terminal)."""
    for path in sorted(APP.rglob("*.py")):
        relative = path.relative_to(APP).as_posix()
        if not relative.startswith("emulator/"):
            yield relative, ast.parse(path.read_text(encoding="utf-8"))


def _calls(name: str) -> Iterator[tuple[str, ast.Call]]:
    for relative, tree in _modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
                if called == name:
                    yield relative, node


def _markup_off(call: ast.Call) -> bool:
    return any(
        k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False for k in call.keywords
    )


def test_no_f_string_is_shown_as_markup() -> None:
    offenders = [
        f"{relative}:{call.lineno}: {ast.unparse(call)[:100]}"
        for widget in ("Static", "Label", "Option")
        for relative, call in _calls(widget)
        if call.args and isinstance(call.args[0], ast.JoinedStr) and not _markup_off(call)
    ]
    assert offenders == [], "wrap in shown(...) or pass markup=False"


def test_markup_is_parsed_only_from_literals() -> None:
    offenders = [
        f"{relative}:{call.lineno}: {ast.unparse(call)[:100]}"
        for relative, call in _calls("from_markup")
        if not (call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))
    ]
    assert offenders == [], "build the Content from text and styles (Content.assemble), not markup around a value"


def test_markdown_is_shown_only_by_outside_markdown() -> None:
    offenders = [
        f"{relative}:{call.lineno}"
        for relative, call in _calls("Markdown")
        if relative != "dashboard/kit/widgets/outside_markdown.py"
    ]
    assert offenders == [], "use tui.dashboard.kit.widgets.outside_markdown.OutsideMarkdown"


def test_rows_reach_a_table_only_through_live_table() -> None:
    table_modules = {"dashboard/kit/widgets/live_table.py", "dashboard/kit/widgets/line_table.py"}
    adders = [
        f"{relative}:{call.lineno}"
        for name in ("add_row", "add_rows", "replace_rows", "update_rows")
        for relative, call in _calls(name)
        if relative not in table_modules
    ]
    assert adders == [], "give rows to LiveTable.sync or LiveTable.put_rows"
    tables = sorted(
        node.name
        for _, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(getattr(base, "id", None) in ("DataTable", "LineTable") for base in node.bases)
    )
    assert tables == ["LinksTable", "LiveTable"]
