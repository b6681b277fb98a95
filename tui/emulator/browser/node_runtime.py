"""Where node runs come from: the node and playwright-core of the `playwright` wheel, else the system's.

The wheel keeps them among its package files, in `playwright/driver/`:
`node` (absent from a source install, which names one in
`PLAYWRIGHT_NODEJS_PATH` instead, as playwright itself reads it) and
`package/` (playwright-core). They are found through `importlib.resources`,
not through playwright's private driver module.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path


class NodeRuntimeMissing(Exception):
    """No node with playwright-core to run code with; the message says where it looked and what to install."""


@dataclass(frozen=True)
class NodeRuntime:
    """A node binary and the playwright-core package it loads."""

    node: Path
    playwright_core: Path


def find_node_runtime() -> NodeRuntime:
    """The node and playwright-core shipped in the `playwright` wheel, else system node with
    a `playwright-core` it can `require`; raises `NodeRuntimeMissing` when neither exists."""
    try:
        return wheel_node_runtime()
    except NodeRuntimeMissing as no_wheel:
        try:
            return system_node_runtime()
        except NodeRuntimeMissing as no_system:
            raise NodeRuntimeMissing(f"{no_wheel}, and {no_system} (`npm install -g playwright-core`)") from None


def wheel_node_runtime() -> NodeRuntime:
    """The node and playwright-core among the `playwright` package's files; `NodeRuntimeMissing` says why not."""
    try:
        driver = resources.files("playwright").joinpath("driver")
    except ModuleNotFoundError:
        raise NodeRuntimeMissing("the `playwright` package is not installed") from None
    if not isinstance(driver, Path):  # e.g. imported from a zip: node cannot run from there
        raise NodeRuntimeMissing(f"the `playwright` package is not installed as files ({driver})")
    named = os.environ.get("PLAYWRIGHT_NODEJS_PATH")
    node = Path(named) if named else driver / ("node.exe" if sys.platform == "win32" else "node")
    package = driver / "package"
    if not node.is_file():
        where = "PLAYWRIGHT_NODEJS_PATH names" if named else "the `playwright` package ships"
        raise NodeRuntimeMissing(f"{where} no node at {node}")
    if not (package / "index.js").is_file():
        raise NodeRuntimeMissing(f"the `playwright` package ships no playwright-core at {package}")
    return NodeRuntime(node, package)


def system_node_runtime() -> NodeRuntime:
    """The system's node with a playwright-core it can `require`; `NodeRuntimeMissing` says why not."""
    system_node = shutil.which("node")
    if system_node is None:
        raise NodeRuntimeMissing("there is no `node` on PATH")
    probe = subprocess.run(
        [system_node, "-p", "require('path').dirname(require.resolve('playwright-core/package.json'))"],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if probe.returncode != 0:
        raise NodeRuntimeMissing(f"{system_node} cannot require playwright-core")
    return NodeRuntime(Path(system_node), Path(probe.stdout.strip()))


def node_paths(runtime: NodeRuntime) -> list[Path]:
    """What a sandbox must show for node runs: node's installation prefix and playwright-core."""
    return [runtime.node.resolve().parent.parent, runtime.playwright_core.resolve()]
