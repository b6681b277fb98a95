"""The emulator's architecture, checked on its source: layers, no import circles, small modules.

`LAYERS` is the architecture, lowest first. A module may import its own layer and
the layers below it, never one above. Imports are read with `ast`, so late
imports inside functions and `if TYPE_CHECKING:` imports count like any other:
a circle hidden in a function body is still a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import tui.emulator

PACKAGE = "tui.emulator"
ROOT = Path(tui.emulator.__file__).parent
MAX_LINES = 400

# Lowest first. Each entry: (layer, the modules or packages in it, what it is).
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("core", ("core",), "clock, ids, teams and keys, activity, usage, billing, background tasks, domain errors"),
    ("browser", ("browser",), "browser sessions and the browsers behind them"),
    ("sites", ("sites",), "the synthetic web sites (their browser view answers the browser's resolver)"),
    ("jobs", ("jobs",), "scrape, crawl, batch, map and agent jobs, webhook deliveries"),
    ("support", ("support",), "docs search and the diagnosis of failed jobs"),
    ("callers", ("history", "traffic"), "the seeded past and the live traffic, made through the stores and the API"),
    ("http", ("http",), "the HTTP skin: create_app, auth, parsing, errors, routes, CDP proxy, live view"),
    ("service", ("service",), "the composition root: builds and wires every part"),
    ("server", ("server",), "serving on uvicorn"),
    ("cli", ("cli", "__main__", "child"), "the command line, and the dashboard's embedded child process"),
)
# Layers that hold domain state and rules: they know nothing of HTTP.
STORES = ("core", "browser", "sites", "jobs", "support", "callers")
HTTP_LIBRARIES = ("starlette", "uvicorn")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


MODULES: dict[str, Path] = {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imported_names(path: Path) -> Iterator[str]:
    """Every module `path` imports, wherever the import statement is (top level, function, TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield base
            # `from tui.emulator.http import routes_jobs` imports the module routes_jobs.
            yield from (f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES)


def internal_imports(module: str) -> set[str]:
    """The modules of `tui.emulator` that `module` imports (packages' empty `__init__` left out)."""
    found = set()
    for name in imported_names(MODULES[module]):
        if name in MODULES and name != module and MODULES[name].name != "__init__.py":
            found.add(name)
    return found


def layer_of(module: str) -> int:
    relative = module.removeprefix(PACKAGE).lstrip(".")
    for index, (_, members, _) in enumerate(LAYERS):
        if any(relative == member or relative.startswith(member + ".") for member in members):
            return index
    raise LookupError(module)


def layer_name(module: str) -> str:
    return LAYERS[layer_of(module)][0]


CODE_MODULES = sorted(m for m, path in MODULES.items() if path.name != "__init__.py")


def test_every_module_has_a_layer() -> None:
    unplaced = []
    for module in CODE_MODULES:
        try:
            layer_of(module)
        except LookupError:
            unplaced.append(module)
    assert not unplaced, f"put these modules in a layer of LAYERS (and so decide what they may import): {unplaced}"


def test_no_module_imports_a_layer_above_its_own() -> None:
    upward = [
        f"{module} ({layer_name(module)}) imports {target} ({layer_name(target)})"
        for module in CODE_MODULES
        for target in sorted(internal_imports(module))
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "imports that run up the layers:\n" + "\n".join(upward)


def test_core_imports_nothing_else_of_the_emulator() -> None:
    outside = [
        f"{module} imports {target}"
        for module in CODE_MODULES
        if layer_name(module) == "core"
        for target in sorted(internal_imports(module))
        if layer_name(target) != "core"
    ]
    assert not outside, "\n".join(outside)


@pytest.mark.parametrize("module", [m for m in CODE_MODULES if LAYERS[layer_of(m)][0] in STORES])
def test_stores_know_nothing_of_http(module: str) -> None:
    names = set(imported_names(MODULES[module]))
    http = sorted(n for n in names if n.split(".")[0] in HTTP_LIBRARIES or n.startswith(f"{PACKAGE}.http"))
    assert not http, f"{module} is domain code but imports {http}: raise a domain error and map it in http/"


def test_no_import_circle() -> None:
    graph = {module: internal_imports(module) for module in CODE_MODULES}
    circles = [component for component in strongly_connected(graph) if len(component) > 1]
    assert not circles, f"import circles: {circles}"


def test_package_inits_import_nothing() -> None:
    # Importing one module of a subpackage must not drag the rest of it in.
    heavy = [m for m, path in MODULES.items() if path.name == "__init__.py" and any(imported_names(path))]
    assert not heavy, heavy


def test_no_module_is_over_400_lines() -> None:
    long = {m: n for m, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, f"split these modules (over {MAX_LINES} lines): {long}"


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of `graph`."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components
