"""A package's import graph read from its source with `ast`: for the architecture tests.

Late imports inside functions and `if TYPE_CHECKING:` imports count like any
other, so a circle hidden in a function body is still a circle.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Iterator
from pathlib import Path


class ImportGraph:
    """The modules of `package` (e.g. "tui.emulator") and what each imports."""

    def __init__(self, package: str) -> None:
        self.package = package
        self.root = Path(importlib.import_module(package).__file__ or "").parent
        self.modules: dict[str, Path] = {self.module_name(path): path for path in sorted(self.root.rglob("*.py"))}
        self.code_modules = sorted(m for m, path in self.modules.items() if path.name != "__init__.py")

    def module_name(self, path: Path) -> str:
        parts = path.relative_to(self.root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        return ".".join((self.package, *parts))

    def imported_names(self, path: Path) -> Iterator[str]:
        """Every module `path` imports, wherever the import statement is (top level, function, TYPE_CHECKING)."""
        tree = ast.parse(path.read_text(), filename=str(path))
        name = self.module_name(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
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
                yield from (f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in self.modules)

    def internal_imports(self, module: str) -> set[str]:
        """The modules of the package that `module` imports (packages' `__init__` left out)."""
        found = set()
        for name in self.imported_names(self.modules[module]):
            if name in self.modules and name != module and self.modules[name].name != "__init__.py":
                found.add(name)
        return found

    def circles(self) -> list[list[str]]:
        """The import circles: strongly connected components of more than one module."""
        graph = {module: self.internal_imports(module) for module in self.code_modules}
        return [component for component in strongly_connected(graph) if len(component) > 1]

    def longer_than(self, lines: int) -> dict[str, int]:
        """Modules over `lines` lines, with their length."""
        return {m: n for m, path in self.modules.items() if (n := len(path.read_text().splitlines())) > lines}


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
