"""What each install brings: the dashboard alone goes without the emulator and `serve`; the README's
dashboard command and the test extra bring what they need."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from tui.dashboard.startup.embedded_emulator import EXTRA_PACKAGES
from tui.dashboard.startup.serve import SERVE_PACKAGES

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings, normalised as pip compares them."""
    return {
        re.split(r"[\s\[<>=!~;]", requirement, maxsplit=1)[0].lower().replace("_", "-") for requirement in requirements
    }


def _distributions_of(modules: tuple[str, ...]) -> set[str]:
    """The installed distributions that provide these top-level modules (all of them are, under the test extra)."""
    provided = importlib.metadata.packages_distributions()
    return {name.lower().replace("_", "-") for module in modules for name in provided[module]}


def test_the_dashboard_alone_requires_neither_the_emulator_nor_serve() -> None:
    base = _names(PROJECT["dependencies"])
    assert not base & _distributions_of(EXTRA_PACKAGES)
    assert not base & _distributions_of(SERVE_PACKAGES)


def test_each_extra_declares_what_its_command_checks_for() -> None:
    extras = PROJECT["optional-dependencies"]
    assert _distributions_of(EXTRA_PACKAGES) <= _names(extras["emulator"])
    # aiohttp comes with textual-serve, which requires it; the rest is declared.
    assert _distributions_of(SERVE_PACKAGES) - {"aiohttp"} <= _names(extras["serve"])
    assert "aiohttp" in _names(importlib.metadata.requires("textual-serve") or [])


def test_the_test_extra_includes_every_other_extra() -> None:
    extras = PROJECT["optional-dependencies"]
    others = sorted(set(extras) - {"test"})
    assert f"wds-tui[{','.join(others)}]" in extras["test"]


def test_the_readmes_dashboard_command_installs_what_the_embedded_default_needs() -> None:
    """With nothing configured the dashboard runs on the embedded emulator: the first command installs it."""
    readme = (ROOT / "README.md").read_text()
    commands = re.search(r"## Two commands\n.*?```sh\n(.*?)\n```", readme, re.DOTALL)
    assert commands is not None
    assert "pip install -q -e '.[emulator]'" in commands.group(1)
    assert commands.group(1).endswith(".venv/bin/wds-tui")
