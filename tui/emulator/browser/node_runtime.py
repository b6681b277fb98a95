"""Where node runs come from: the node and playwright-core of the `playwright` wheel, else the system's."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class NodeRuntime:
    """A node binary and the playwright-core package it loads."""

    node: Path
    playwright_core: Path


def find_node_runtime() -> NodeRuntime | None:
    """The node and playwright-core shipped in the `playwright` wheel, else system node with
    a `playwright-core` it can `require`; None when neither exists."""
    try:
        from playwright._impl._driver import compute_driver_executable

        node, cli = compute_driver_executable()
        package = Path(cli).parent
        if Path(node).is_file() and (package / "index.js").is_file():
            return NodeRuntime(Path(node), package)
    except Exception:  # noqa: BLE001 - a wheel without a driver: try the system below
        pass
    system_node = shutil.which("node")
    if system_node is None:
        return None
    probe = subprocess.run(
        [system_node, "-p", "require('path').dirname(require.resolve('playwright-core/package.json'))"],
        capture_output=True,
        text=True,
        timeout=10,
        check=False,
    )
    if probe.returncode != 0:
        return None
    return NodeRuntime(Path(system_node), Path(probe.stdout.strip()))


def node_paths(runtime: NodeRuntime) -> list[Path]:
    """What a sandbox must show for node runs: node's installation prefix and playwright-core."""
    return [runtime.node.resolve().parent.parent, runtime.playwright_core.resolve()]
