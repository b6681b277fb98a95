"""The tests' own layout (tests/support/__init__.py says why): helpers live in modules, fixtures in conftest.py.

Read from the source with `ast`, as tests/support/import_graph.py reads the package:
an import inside a function counts like any other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SUPPORT = "tests.support"


def modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(TESTS.rglob("*.py")):
        yield path, ast.parse(path.read_text(), filename=str(path))


def package_of(path: Path) -> str:
    """`tests/ui/test_app.py` -> "tests.ui"; `tests/test_cli.py` -> "tests"."""
    return ".".join(("tests", *path.parent.relative_to(TESTS).parts))


def imported(path: Path, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Each module `path` imports from (relative imports made absolute), with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = package_of(path).split(".")
                base = package[: len(package) - node.level + 1]
                yield node.lineno, ".".join([*base, node.module] if node.module else base)
            else:
                yield node.lineno, node.module or ""


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(TESTS.parent)}:{line}"


def test_no_module_imports_from_a_conftest() -> None:
    found = [
        f"{where(path, line)} imports {name}"
        for path, tree in modules()
        for line, name in imported(path, tree)
        if name.split(".")[-1] == "conftest"
    ]
    assert not found, f"a helper imported from a conftest belongs in a module (tests/support/ or beside): {found}"


def test_a_helper_of_another_folder_comes_from_tests_support() -> None:
    found = []
    for path, tree in modules():
        for line, name in imported(path, tree):
            if not name.startswith("tests.") or name == SUPPORT or name.startswith(SUPPORT + "."):
                continue
            if name.rsplit(".", 1)[0] != package_of(path):
                found.append(f"{where(path, line)} imports {name}")
    assert not found, f"helpers imported across test folders belong in tests/support/: {found}"


def test_a_conftest_defines_only_fixtures_and_hooks() -> None:
    """Its public functions are fixtures or pytest hooks, and it has no public classes (a helper is imported)."""
    found = []
    for path, tree in modules():
        if path.name != "conftest.py":
            continue
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                found.append(f"{where(path, node.lineno)} class {node.name}")
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                fixture = any("fixture" in ast.unparse(decorator) for decorator in node.decorator_list)
                if not (fixture or node.name.startswith(("pytest_", "_"))):
                    found.append(f"{where(path, node.lineno)} def {node.name}")
    assert not found, f"conftest.py holds fixtures and hooks; move these to a helper module: {found}"


def test_every_helper_module_of_tests_support_is_listed_in_its_docstring() -> None:
    listed = ast.get_docstring(ast.parse((TESTS / "support" / "__init__.py").read_text())) or ""
    modules_here = sorted(path.stem for path in (TESTS / "support").glob("*.py") if path.stem != "__init__")
    missing = [name for name in modules_here if f"- {name}:" not in listed]
    assert not missing, f"tests/support/__init__.py should say what these hold: {missing}"
