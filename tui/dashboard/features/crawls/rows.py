"""How the crawls pane reads: a tracked crawl or batch as a table row, the recent section's heading, the border's count.

One row per job: its progress (pages done of the total, and a small bar drawn
with characters, readable without colour), its URL, its start and its main
options (or, for a job the active list never showed, where it was seen).
Running jobs come first; the finished ones follow under a heading row that
names the window they stay for.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from rich.text import Text

from tui.contract.models import ActiveCrawlOptions
from tui.dashboard.features.crawls.tracker import Progress, TrackedJob
from tui.dashboard.kit.formatting import bare_url, clip, clock_time, short_id
from tui.dashboard.kit.outside_text import visible
from tui.dashboard.kit.status_look import UNKNOWN, look_of, state_text
from tui.dashboard.kit.widgets.hyperlink import linked
from tui.dashboard.shell.sightings import ACTIVITY, BATCH, STARTED_HERE, WEBHOOK

BAR_CELLS = 6
ERROR_CELL_WIDTH = 48
"""A progress cell that carries an error reason is cut here; the status screen (Enter) says it all."""
WARNING = "yellow"  # an ANSI colour, as in tui.dashboard.kit.status_look
RECENT_KEY = "recent-heading"
"""The heading row's key (job ids are UUIDs: never this)."""
FROM = {ACTIVITY: "seen in activity", WEBHOOK: "seen by webhook", STARTED_HERE: "started here"}
"""The options cell of a job the active list never showed: where the dashboard saw it."""

Cells = tuple[str, Text, str | Text, str, str]


def _format_name(fmt: Any) -> str:
    if isinstance(fmt, dict):
        return str(fmt.get("type", "?"))
    return str(fmt)


def options_summary(options: ActiveCrawlOptions) -> str:
    """The options that shape a crawl, compactly: `limit 50 · depth 2 · +/blog · -/tag · markdown`."""
    parts: list[str] = []
    if options.limit is not None:
        parts.append(f"limit {options.limit}")
    if options.max_depth is not None:
        parts.append(f"depth {options.max_depth}")
    if options.include_paths:
        parts.append("+" + ",".join(options.include_paths))
    if options.exclude_paths:
        parts.append("-" + ",".join(options.exclude_paths))
    formats = options.scrape_options.formats if options.scrape_options is not None else None
    if formats:
        parts.append(",".join(_format_name(fmt) for fmt in formats))
    return " · ".join(parts) if parts else "defaults"


def progress_bar(completed: int, total: int, cells: int = BAR_CELLS) -> str:
    """`▰▰▱▱▱▱`: the share of pages done in `cells` characters.

    A job under way never shows an empty or a full bar: one page done
    fills a cell, one page missing leaves one.
    """
    if total <= 0:
        return "▱" * cells
    filled = round(cells * min(completed, total) / total)
    if 0 < completed < total:
        filled = min(max(filled, 1), cells - 1)
    return "▰" * filled + "▱" * (cells - filled)


def counts(progress: Progress) -> str:
    """`12/50`; `12/?` while the service does not know the total."""
    return f"{progress.completed}/{progress.total if progress.total > 0 else '?'}"


def progress_cell(tracked: TrackedJob) -> Text:
    """The pages column: `◌ 12/50 ▰▱▱▱▱▱` while running, `✓ completed 50/50` once ended.

    A failed status call is marked `⚠` with its reason and the last progress
    known; a job whose end could not be learned says so.
    """
    progress = tracked.progress
    if progress is not None and progress.finished:
        return state_text(progress.state) + f" {counts(progress)}"
    if tracked.gone:
        return Text(f"{UNKNOWN.symbol} ended · no longer on the service", style="dim")
    if tracked.refused:
        reason = f": {visible(tracked.error)}" if tracked.error else ""
        return Text(
            clip(f"{UNKNOWN.symbol} not followed · the service refused its id{reason}", ERROR_CELL_WIDTH), style="dim"
        )
    if tracked.left_at is not None and (progress is None or tracked.error is not None):
        reason = f": {visible(tracked.error)}" if tracked.error else ""
        return Text(clip(f"⚠ ended · state unknown{reason}", ERROR_CELL_WIDTH), style=WARNING)
    done = f"{counts(progress)} {progress_bar(progress.completed, progress.total)}" if progress else None
    if tracked.error is not None:
        said = f"{done} · {visible(tracked.error)}" if done else visible(tracked.error)
        return Text(clip(f"⚠ {said}", ERROR_CELL_WIDTH), style=WARNING)
    look = look_of(progress.state if progress else "scraping")
    return Text(f"{look.symbol} {done or '…'}", style=look.style)  # "…": known of, not asked about yet


def url_cell(tracked: TrackedJob) -> str:
    """The crawl's URL, or a batch's first URL and ` · batch`; `?` while no source has said it.

    The mark last: a narrow column is cut in the middle, so the host and the mark both stay.
    """
    url = bare_url(tracked.url) if tracked.url else "?"
    return f"{url} · batch" if tracked.kind == BATCH else url


def job_row(tracked: TrackedJob, now: datetime) -> tuple[str, Cells]:
    """One table row for a crawl or batch, keyed by its full id."""
    options = options_summary(tracked.options) if tracked.options is not None else FROM.get(tracked.source, "")
    cells = (
        short_id(tracked.id),
        progress_cell(tracked),
        linked(url_cell(tracked), tracked.url),  # an OSC 8 link to the whole URL where links are on
        clock_time(tracked.started_at, now),
        options,
    )
    return tracked.id, cells


def window_words(window: timedelta, *, short: bool = False) -> str:
    """`the last hour`, `the last 30 min`, `the last 2 h 30 min`; `short`: `1 h`, `30 min` (the heading row's)."""
    minutes = max(1, round(window.total_seconds() / 60))
    hours, rest = divmod(minutes, 60)
    said = (f"{hours} h" if hours else "") + (" " if hours and rest else "") + (f"{rest} min" if rest else "")
    if short:
        return said
    return "the last hour" if minutes == 60 else f"the last {said}"


def table_rows(jobs: Sequence[TrackedJob], now: datetime, window: timedelta) -> list[tuple[str, Cells]]:
    """The running jobs' rows, then a heading, then the finished ones' (newest first, as `jobs` comes)."""
    running = [job_row(job, now) for job in jobs if job.running]
    recent = [job_row(job, now) for job in jobs if job.finished]
    if not recent:
        return running
    # Short, in the pages column (never dropped): as wide as a row's progress, so no column widens for it.
    heading = Text(f"── recent · {window_words(window, short=True)}", style="bold")
    return [*running, (RECENT_KEY, ("", heading, "", "", "")), *recent]


def border_count(jobs: Sequence[TrackedJob], window: timedelta, room: int) -> str:
    """The pane's bottom border, in `room` cells: `2 running · 3 finished in the last hour`; "" with no job.

    A narrow pane says it shorter (`none running · 3 finished in 1 h`) rather than cut.
    """
    running = sum(1 for job in jobs if job.running)
    recent = len(jobs) - running
    if not jobs:
        return ""
    said = f"{running} running" if running else "No crawls running"
    long = f"{said} · {recent} finished in {window_words(window)}" if recent else said
    if len(long) <= room or not recent:
        return long
    return f"{running or 'none'} running · {recent} finished in {window_words(window, short=True)}"
