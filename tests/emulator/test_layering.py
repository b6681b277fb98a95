"""The emulator's architecture, checked on its source: its layers.

`LAYERS` is the architecture, lowest first. A module may import its own layer and
the layers below it, never one above. Imports are read with `ast`, so late
imports inside functions and `if TYPE_CHECKING:` imports count like any other.
No import circles and no long modules, here as in the rest of the package:
tests/test_architecture.py.
"""

from __future__ import annotations

import pytest

from tests.support.import_graph import ImportGraph

PACKAGE = "tui.emulator"

# Lowest first. Each entry: (layer, the modules or packages in it, what it is).
LAYERS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("core", ("core",), "clock, ids, teams and keys, activity, usage, billing, background tasks, domain errors"),
    ("browser", ("browser",), "browser sessions and the browsers behind them"),
    ("sites", ("sites",), "the synthetic web sites (their browser view answers the browser's resolver)"),
    ("jobs", ("jobs",), "scrape, crawl, batch, map and agent jobs, webhook deliveries"),
    ("support", ("support",), "docs search and the diagnosis of failed jobs"),
    ("callers", ("history", "traffic"), "the seeded past and the live traffic, made through the stores and the API"),
    ("state", ("state",), "the whole state as a snapshot, and the SQLite file that keeps it across restarts"),
    (
        "http",
        ("http", "admin"),
        "the HTTP skin: create_app, auth, parsing, errors, routes, CDP proxy, live view, admin prefix",
    ),
    ("service", ("service",), "the composition root: builds and wires every part"),
    ("server", ("server", "header_deadline"), "serving on uvicorn, with a deadline for request heads"),
    ("cli", ("cli", "key_sources", "__main__", "child"), "the command line and its keys; the embedded child process"),
)
# Layers that hold domain state and rules: they know nothing of HTTP.
STORES = ("core", "browser", "sites", "jobs", "support", "callers", "state")
HTTP_LIBRARIES = ("starlette", "uvicorn")


GRAPH = ImportGraph(PACKAGE)
MODULES = GRAPH.modules
imported_names = GRAPH.imported_names
internal_imports = GRAPH.internal_imports


def layer_of(module: str) -> int:
    relative = module.removeprefix(PACKAGE).lstrip(".")
    for index, (_, members, _) in enumerate(LAYERS):
        if any(relative == member or relative.startswith(member + ".") for member in members):
            return index
    raise LookupError(module)


def layer_name(module: str) -> str:
    return LAYERS[layer_of(module)][0]


CODE_MODULES = GRAPH.code_modules


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


def test_package_inits_import_nothing() -> None:
    # Importing one module of a subpackage must not drag the rest of it in.
    heavy = [m for m, path in MODULES.items() if path.name == "__init__.py" and any(imported_names(path))]
    assert not heavy, heavy
