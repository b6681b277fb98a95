"""Every private name of another package that tui/ uses, against a list: a new one is a decision, not an accident.

Private: a module, class, function or attribute whose name starts with `_`
(not a dunder), reached in a package that is not ours:
- imported: `from textual.widgets._footer import FooterKey`, `from x import _y`;
- read as an attribute whose name nothing in tui/ defines (`table._row_render_cache`:
  our own `self._zoomed` is defined here, DataTable's caches are not);
- named in a string as a module path (`sys.modules.get("textual.widgets._text_area")`)
  or an attribute (`getattr(node, "__watchers")`, `getattr(x, "_y")`).
The standard library's names (`os._exit`) are not counted.
"""

from __future__ import annotations

import ast
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parent.parent / "tui"

ALLOWED: dict[tuple[str, str], str] = {
    ("dashboard/shell/terminal_output.py", "._driver"): (
        "an alert's desktop notification is an escape code written to the terminal as it is; Textual has no public"
        " call for that, and its own App.bell() writes through the driver (tests/ui/test_alerts_delivery.py pins it)"
    )
}
"""(file under tui/, private name) -> why it is used anyway."""

_MODULE_PATH = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def _defined_here(trees: dict[Path, ast.Module]) -> set[str]:
    """Every name tui/ itself defines: functions, classes, assigned attributes and variables, arguments."""
    defined: set[str] = set()
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
    return defined


def _stdlib_names(tree: ast.Module) -> set[str]:
    """The names a module binds to the standard library's modules and classes (`os`, `argparse`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names if _stdlib(a.name))
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and _stdlib(node.module):
            names.update(a.asname or a.name for a in node.names)
    return names


def private_names_used() -> Counter[tuple[str, str]]:
    """(file under tui/, private name) -> how many times."""
    trees = {path: ast.parse(path.read_text()) for path in sorted(ROOT.rglob("*.py"))}
    defined = _defined_here(trees)
    found: Counter[tuple[str, str]] = Counter()
    for path, tree in trees.items():
        where = path.relative_to(ROOT).as_posix()
        stdlib = _stdlib_names(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] == "tui" or _stdlib(node.module):
                    continue
                if any(_private(part) for part in node.module.split(".")):
                    found[(where, node.module)] += 1
                found.update((where, f"{node.module}.{a.name}") for a in node.names if _private(a.name))
            elif isinstance(node, ast.Import):
                found.update(
                    (where, a.name)
                    for a in node.names
                    if not _stdlib(a.name) and any(_private(p) for p in a.name.split("."))
                )
            elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in defined:
                if not (isinstance(node.value, ast.Name) and node.value.id in stdlib):
                    found[(where, f".{node.attr}")] += 1
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if _MODULE_PATH.match(text) and text.split(".")[0] != "tui" and not _stdlib(text):
                    if any(_private(part) for part in text.split(".")[1:]):
                        found[(where, text)] += 1
                elif re.fullmatch(r"_\w+", text) and text not in defined and _is_attribute_name(tree, node):
                    found[(where, f".{text}")] += 1
    return found


def _is_attribute_name(tree: ast.Module, constant: ast.Constant) -> bool:
    """Whether `constant` is the name argument of getattr, setattr, hasattr or delattr."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
            and len(node.args) > 1
            and node.args[1] is constant
        ):
            return True
    return False


def test_every_private_name_used_is_on_the_list() -> None:
    used = set(private_names_used())
    new = sorted(used - set(ALLOWED))
    assert not new, (
        f"new private names of other packages used: {new}. Decide: use a public API instead, or add each "
        "to ALLOWED here with why it cannot be avoided (and keep it in one place, with a comment)."
    )


def test_the_list_holds_nothing_no_longer_used() -> None:
    stale = sorted(set(ALLOWED) - set(private_names_used()))
    assert not stale, f"no longer used, take them off ALLOWED: {stale}"


def test_the_scan_sees_each_kind_of_private_use(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "sample.py").write_text(
        "import sys\nimport os\nfrom textual.widgets._toast import ToastRack\nfrom textual.message import _x\n"
        "def f(event, node):\n    os._exit(0)\n    self_made = 1\n    node._own = 1\n    node._own\n"
        "    getattr(node, '__watchers')\n    getattr(node, '_theirs')\n    event._stop_propagation\n"
        "    sys.modules.get('textual.widgets._text_area')\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert set(private_names_used()) == {
        ("sample.py", "textual.widgets._toast"),
        ("sample.py", "textual.message._x"),
        ("sample.py", "._theirs"),
        ("sample.py", ".__watchers"),
        ("sample.py", "._stop_propagation"),
        ("sample.py", "textual.widgets._text_area"),
    }
