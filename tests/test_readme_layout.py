"""The README's layout section names the tree as it is: every folder it lists exists, every package is listed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def layout_block() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Layout\n", 1)[1]
    return section.split("```\n", 2)[1].splitlines()


def listed_folders() -> set[str]:
    """Folders the block names (`tui/api/`, then `shell/` under `tui/dashboard/`, ...), as paths."""
    folders: set[str] = set()
    parents: dict[int, str] = {}
    for line in layout_block():
        indent = len(line) - len(line.lstrip())
        # A folder opens its line (`shell/   app.py ...`, or `scrape/ map/ batch/   ...`); words after it describe.
        for name in re.findall(r"(?:^|\s)([a-z_/]+/)(?=\s|$)", line[indent:].split("  ")[0]):
            if name.startswith(("tui/", "tests/", "screenshots/")):
                path = name
            elif indent - 2 in parents:
                path = parents[indent - 2] + name
            else:
                continue  # a continuation line's words, not a folder of the tree
            folders.add(path.rstrip("/"))
            parents[indent] = path
    return folders


def test_every_folder_the_layout_names_exists() -> None:
    missing = sorted(folder for folder in listed_folders() if not (ROOT / folder).is_dir())
    assert not missing, f"the README's layout names folders that do not exist: {missing}"


def test_every_package_of_the_dashboard_is_in_the_layout() -> None:
    listed = listed_folders()
    packages = {str(init.parent.relative_to(ROOT)) for init in (ROOT / "tui" / "dashboard").rglob("__init__.py")}
    assert not sorted(packages - listed), f"packages missing from the README's layout: {sorted(packages - listed)}"
