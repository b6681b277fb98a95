"""The node that runs sessions' node code: the one the playwright wheel ships, found among its files; else words.

No Chromium needed: these run node itself, or find that there is none.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tui.emulator.browser.backend import BrowserUnavailable
from tui.emulator.browser.execute import CodeRunner
from tui.emulator.browser.node_runtime import NodeRuntimeMissing, find_node_runtime, node_paths, wheel_node_runtime


def test_the_wheels_node_runs_and_its_playwright_core_is_the_package(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYWRIGHT_NODEJS_PATH", raising=False)
    runtime = wheel_node_runtime()
    import playwright

    assert runtime.node.is_relative_to(Path(playwright.__file__).parent)
    version = subprocess.run([runtime.node, "--version"], capture_output=True, text=True, timeout=30, check=True)
    assert version.stdout.startswith("v")
    assert json.loads((runtime.playwright_core / "package.json").read_text())["name"] == "playwright-core"
    assert find_node_runtime() == runtime  # the wheel's comes first
    assert runtime.playwright_core.resolve() in node_paths(runtime)


def test_a_node_named_by_playwrights_variable_is_used_and_a_wrong_one_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    shipped = wheel_node_runtime().node
    monkeypatch.setenv("PLAYWRIGHT_NODEJS_PATH", str(shipped))
    assert wheel_node_runtime().node == shipped
    monkeypatch.setenv("PLAYWRIGHT_NODEJS_PATH", str(tmp_path / "no-node"))
    with pytest.raises(NodeRuntimeMissing, match="PLAYWRIGHT_NODEJS_PATH names no node at .*no-node"):
        wheel_node_runtime()


def test_no_node_anywhere_says_where_it_looked_and_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PLAYWRIGHT_NODEJS_PATH", str(tmp_path / "no-node"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no system node either
    with pytest.raises(NodeRuntimeMissing) as missing:
        find_node_runtime()
    assert str(missing.value) == (
        f"PLAYWRIGHT_NODEJS_PATH names no node at {tmp_path / 'no-node'}, and there is no `node` on PATH "
        "(`npm install -g playwright-core`)"
    )
    runner = CodeRunner(tmp_path / "runner", prewarm=False)
    with pytest.raises(BrowserUnavailable, match=r"^Node.js execution is not available: PLAYWRIGHT_NODEJS_PATH"):
        runner.node_runtime  # noqa: B018 - the property finds the node
