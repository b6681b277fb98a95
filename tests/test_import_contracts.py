"""The import contracts of pyproject.toml hold, so that a plain `pytest` notices a broken one too.

The README's test command runs `lint-imports` before the tests; this runs the
same check from within them (the contracts themselves are in
`[tool.importlinter]`).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lint_imports() -> str:
    beside = Path(sys.executable).parent / "lint-imports"  # the venv's, which knows this checkout
    found = str(beside) if beside.exists() else shutil.which("lint-imports")
    assert found, "lint-imports is missing: install the test extra (pip install -e '.[test]')"
    return found


def test_the_import_contracts_hold() -> None:
    done = subprocess.run([_lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout
