"""What the crawls pane tells the app's monitor: each status it reads or is pushed, and the crawls it cancels.

The monitor (`tui.monitor.hub.Monitor.saw_crawl`) journals a crawl's or a
batch's end with its pages, and its rules see a crawl fail, be cancelled or
stall, and a batch finish with failures. It is fed only what the pane already
asked: a cancelled crawl is settled in the tracker and never asked again, so its
end is told from the cancel's answer and the last counts the pane knew.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from tui.contract.models.common import JobStatus
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.shell.sightings import BATCH

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from tui.dashboard.features.crawls.tracker import TrackedJob


def tell_crawl(node: DOMNode, kind: str, job_id: str, status: JobStatus) -> None:
    """Hand one status of a crawl or batch (`kind` as the pane names it) to the monitor, if there is one."""
    told: Literal["crawl", "batch"] = "batch" if kind == BATCH else "crawl"
    tell_monitor(node, lambda monitor: monitor.saw_crawl(told, job_id, status))


def ended_status(tracked: TrackedJob | None, state: str) -> JobStatus:
    """The status a cancel's answer stands for: its final `state`, with the pages the pane last knew."""
    progress = tracked.progress if tracked is not None else None
    if progress is None:
        return JobStatus(status=state)
    return JobStatus(status=state, completed=progress.completed, total=progress.total)
