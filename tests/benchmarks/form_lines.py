"""The launch forms' lines (issue 19, section 2): today's modules against those they replaced.

The baseline is the 13 modules of `tui/screens/` that made the scrape, map,
batch and crawl forms and their refusal words before the form work, read from
git as they were before commit a7c6eda (the first of that work). Today's set
is every module that does the same job now: the four forms, their fields and
words, and the kit that exists for them (the launch screen, the form body,
where issues go, the table of error words, curl, the scrape options, the
request-progress line). Every line counts, blank lines and comments too.

Target (issue 19): today's lines at most 60% of the baseline's.

Usage (from the repository's root, in a clone with its history):
  python tests/benchmarks/form_lines.py [--each]
"""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BEFORE = "a7c6eda^"
BASELINE = tuple(
    f"tui/screens/{name}.py"
    for name in (
        "batch_fields",
        "batch_form",
        "batch_refusals",
        "crawl_form",
        "crawl_form_errors",
        "crawl_params_fields",
        "map_explorer",
        "map_fields",
        "map_refusals",
        "scrape_fields",
        "scrape_form",
        "scrape_options",
        "scrape_refusals",
    )
)
TODAY = (
    *(
        f"tui/dashboard/features/{path}.py"
        for path in (
            "scrape/form",
            "scrape/fields",
            "map/explorer",
            "map/fields",
            "batch/form",
            "batch/fields",
            "crawls/form",
            "crawls/fields",
            "crawls/params_fields",
        )
    ),
    *(
        f"tui/dashboard/kit/{name}.py"
        for name in (
            "launch_form",
            "form_body",
            "form_issues",
            "error_words",
            "curl",
            "scrape_options",
            "widgets/request_progress",
        )
    ),
)
TARGET = 0.60


def lines_then(path: str) -> int:
    """The lines of `path` as it was before the form work."""
    text = subprocess.run(
        ["git", "show", f"{BEFORE}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return len(text.splitlines())


def lines_now(path: str) -> int:
    """The lines of `path` in the working tree."""
    return len((ROOT / path).read_text(encoding="utf-8").splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--each", action="store_true", help="list every module's lines too")
    args = parser.parse_args()
    before = {path: lines_then(path) for path in BASELINE}
    now = {path: lines_now(path) for path in TODAY}
    if args.each:
        for title, counts in (("before (" + BEFORE + ")", before), ("today", now)):
            print(title)
            for path, count in counts.items():
                print(f"  {count:5,}  {path}")
    total_before, total_now = sum(before.values()), sum(now.values())
    ratio = total_now / total_before
    print(f"baseline: {total_before:,} lines in {len(before)} modules")
    print(f"today:    {total_now:,} lines in {len(now)} modules")
    print(f"ratio:    {ratio:.1%} (target {TARGET:.0%}: at most {int(total_before * TARGET):,} lines)")


if __name__ == "__main__":
    main()
