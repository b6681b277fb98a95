"""The whole package's shape, where an import contract cannot say it: no circles, small modules, a light first frame.

Who may import whom (the contract, the client, the emulator, the dashboard's
parts and features) is in `[tool.importlinter]` of pyproject.toml, run by
tests/test_import_contracts.py. The emulator's own layers are checked in
tests/emulator/test_layering.py.
"""

from __future__ import annotations

from tests.support.import_graph import ImportGraph

GRAPH = ImportGraph("tui")
MAX_LINES = 400


def test_no_import_circle_anywhere() -> None:
    assert not GRAPH.circles(), f"import circles: {GRAPH.circles()}"


def test_no_module_is_over_400_lines() -> None:
    long = GRAPH.longer_than(MAX_LINES)
    assert not long, f"split these modules (over {MAX_LINES} lines): {long}"


def test_the_first_frame_imports_nothing_it_does_not_draw() -> None:
    """The README's start-up promise: the chart's plotext, the console (tree-sitter) and the emulator come later;
    the serve extra never comes."""
    import subprocess
    import sys

    script = (
        "import sys\nimport tui.dashboard.shell.app, tui.dashboard.startup.launch\nprint(' '.join(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    loaded = set(done.stdout.split())
    assert "tui.dashboard.shell.app" in loaded, done.stderr
    late = (
        "plotext",
        "textual_plotext",
        "tree_sitter",
        "tui.dashboard.features.console",
        "tui.emulator",
        "uvicorn",
        "starlette",
        # the serve extra's: `wds-tui serve` alone imports them
        "textual_serve",
        "aiohttp",
        "aiohttp_jinja2",
        "jinja2",
    )
    assert not {name for name in loaded if name.split(".")[0] in late or name.startswith(late)}
