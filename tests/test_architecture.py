"""The whole package's shape, checked on its source: three layers usable alone, no circles, small modules.

The emulator's own layers are checked in tests/emulator/test_layering.py.
"""

from __future__ import annotations

import pytest

from tests.import_graph import ImportGraph

GRAPH = ImportGraph("tui")
MAX_LINES = 400


def test_no_import_circle_anywhere() -> None:
    assert not GRAPH.circles(), f"import circles: {GRAPH.circles()}"


def test_no_module_is_over_400_lines() -> None:
    long = GRAPH.longer_than(MAX_LINES)
    assert not long, f"split these modules (over {MAX_LINES} lines): {long}"


@pytest.mark.parametrize(
    ("layer", "may_import"),
    [
        ("tui.api", ("tui.api", "tui.contract")),  # the client is usable alone
        ("tui.emulator", ("tui.emulator", "tui.contract", "tui.api")),  # the emulator speaks the client's request models
    ],
)
def test_a_layer_imports_nothing_of_the_layers_above(layer: str, may_import: tuple[str, ...]) -> None:
    above = [
        f"{module} imports {target}"
        for module in GRAPH.code_modules
        if module.startswith(layer + ".")
        for target in sorted(GRAPH.internal_imports(module))
        if not target.startswith(tuple(prefix + "." for prefix in may_import))
    ]
    assert not above, "\n".join(above)


def test_widgets_never_touch_httpx() -> None:
    """The app sees pydantic models and typed errors; the wire stays in the API layer."""
    ui = ("tui.dashboard.features", "tui.dashboard.kit", "tui.dashboard.keys", "tui.dashboard.connection", "tui.dashboard.shell")
    touching = [
        module
        for module in GRAPH.code_modules
        if module.startswith(ui)
        and any(name.split(".")[0] == "httpx" for name in GRAPH.imported_names(GRAPH.modules[module]))
    ]
    assert not touching, touching


def test_the_first_frame_imports_nothing_it_does_not_draw() -> None:
    """The README's start-up promise: the chart's plotext, the console (tree-sitter) and the emulator come later."""
    import subprocess
    import sys

    script = "import sys\nimport tui.dashboard.shell.app, tui.dashboard.startup.launch\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    loaded = set(done.stdout.split())
    assert "tui.dashboard.shell.app" in loaded, done.stderr
    late = ("plotext", "textual_plotext", "tree_sitter", "tui.dashboard.features.console", "tui.emulator", "uvicorn", "starlette")
    assert not {name for name in loaded if name.split(".")[0] in late or name.startswith(late)}
