"""Size of an install on disk (issue 20's target: the dashboard alone <= 70 MB more than a bare venv).

What an operator gets from `pip install .` (or pipx) on a server: a fresh
venv in a temporary directory is measured bare (`du -s`), then after
installing this checkout with no extra (or with `--extra`), and the
difference is the figure. The biggest distributions follow, each the size on
disk of the files its RECORD lists (the compiled `.pyc` included), so the
figure explains itself. MB are of 1,048,576 bytes, as `du -m` counts them.

`--without NAME ...` uninstalls those distributions after the install and
measures again: a projection of the figure once they are no longer required
(say, a dependency another branch is removing), labelled as such.

Usage: python tests/benchmarks/bench_install.py [--extra serve] [--without textual-fastdatatable pyarrow] [--top 12]
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MB = 1024 * 1024


def disk_usage(path: Path) -> int:
    """Bytes on disk under `path`, as `du -s` counts them."""
    kilobytes = subprocess.run(["du", "-sk", str(path)], capture_output=True, text=True, check=True).stdout.split()[0]
    return int(kilobytes) * 1024


def site_packages(venv: Path) -> Path:
    return next((venv / "lib").glob("python3*/site-packages"))


def on_disk(path: Path) -> int:
    """Bytes a file takes on disk (its blocks, as du counts), 0 if absent."""
    try:
        return os.stat(path).st_blocks * 512
    except FileNotFoundError:
        return 0


def distribution_sizes(venv: Path) -> dict[str, int]:
    """Each installed distribution's files on disk, by its name, from its RECORD."""
    root = site_packages(venv)
    sizes: dict[str, int] = {}
    for record in root.glob("*.dist-info/RECORD"):
        name = record.parent.name.removesuffix(".dist-info").rsplit("-", 1)[0]
        with record.open(newline="") as rows:
            files = {(root / row[0]).resolve() for row in csv.reader(rows) if row}
        # pip lists the .pyc it compiles at install in RECORD too, so they count.
        sizes[name] = sum(on_disk(path) for path in files)
    return sizes


def pip(venv: Path, *argv: str) -> None:
    """Run the venv's pip; its output (warnings about the machine's index settings) only when it fails."""
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", *argv], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"pip {' '.join(argv)} failed:\n{done.stdout}{done.stderr}")


def show_biggest(venv: Path, bare: set[str], top: int) -> None:
    """The distributions the install added (not pip and what else a bare venv has), biggest first."""
    added = sorted(
        ((name, size) for name, size in distribution_sizes(venv).items() if name not in bare), key=lambda item: -item[1]
    )
    for name, size in added[:top]:
        print(f"    {size / MB:7.1f} MB  {name}")
    rest = added[top:]
    if rest:
        print(f"    {sum(size for _, size in rest) / MB:7.1f} MB  the other {len(rest)} distributions added")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extra", help="install this extra too, e.g. serve or emulator")
    parser.add_argument(
        "--without", nargs="+", default=[], metavar="NAME", help="uninstall these after the install: a projection"
    )
    parser.add_argument("--top", type=int, default=12, help="how many of the biggest distributions to list")
    args = parser.parse_args()

    target = f"{REPO}[{args.extra}]" if args.extra else str(REPO)
    with tempfile.TemporaryDirectory(prefix="bench-install-") as temporary:
        venv = Path(temporary) / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        bare = disk_usage(venv)
        bare_distributions = set(distribution_sizes(venv))
        print(f"bare venv ({sys.version.split()[0]}, its pip included): {bare / MB:.1f} MB")
        # Not editable: an operator's install copies the package into site-packages.
        pip(venv, "install", "--quiet", "--disable-pip-version-check", target)
        installed = disk_usage(venv)
        label = f"pip install .[{args.extra}]" if args.extra else "pip install . (the dashboard alone, no extra)"
        print(f"{label}: {installed / MB:.1f} MB in all, {(installed - bare) / MB:.1f} MB more than the bare venv")
        show_biggest(venv, bare_distributions, args.top)
        if args.without:
            pip(venv, "uninstall", "--yes", "--quiet", *args.without)
            projected = disk_usage(venv)
            print(
                f"PROJECTION, {label} without {', '.join(args.without)} (uninstalled after the install): "
                f"{projected / MB:.1f} MB in all, {(projected - bare) / MB:.1f} MB more than the bare venv"
            )
            show_biggest(venv, bare_distributions, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
