"""`y` copies the highlighted job's id, `Y` its status URL: the same two keys, words and toast in every list of jobs.

What `Y` copies is the job's address on the service, its retrieval endpoint
(`https://api.example.com/v2/crawl/<id>`), not the page the job was about:
pasted into a ticket it names the service, the kind and the job at once, an
operator can `curl` it (with the key) and `g` opens it again. The page a job
was about is on its row already. A kind with no retrieval endpoint (map,
search, ...) has no such address: the toast says so and that `y` copies its id.

A list mixes in `CopiesJobs`, adds `job_copy_bindings(...)` to its BINDINGS
and answers `job_to_copy()` with the highlighted job (None when no row is);
its `check_action` answers for `copy_job_id` and `copy_job_url` as for its
other keys that need a highlighted row. The copy goes through Textual's
`copy_to_clipboard` (OSC 52: works over SSH), and a toast says what was copied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.binding import Binding

from tui.api.resources.jobs import retrieval_path

if TYPE_CHECKING:
    from tui.api.client import WdsClient


@dataclass(frozen=True)
class JobRef:
    """A job as a list knows it: its activity kind (`crawl`, `batch_scrape`, `scrape`, ...) and its id."""

    kind: str
    job_id: str


def status_url(base_url: str, job: JobRef) -> str | None:
    """The job's retrieval endpoint on the service at `base_url` (None: its kind has none)."""
    path = retrieval_path(job.kind)  # "GET /v2/crawl/{id}"
    if path is None:
        return None
    return base_url.rstrip("/") + path.split(" ", 1)[1].format(id=job.job_id)


def noun(kind: str) -> str:
    """What a job of `kind` is called in a toast ("batch_scrape" -> "batch scrape job")."""
    return "browser session" if kind == "browser" else f"{kind.replace('_', ' ')} job"


def job_copy_bindings(
    owner: str, *, url_action: str = "copy_job_url", url_label: str = "Copy status URL", show_url: bool = False
) -> list[Binding]:
    """`y` and `Y` for a list of jobs; `owner` makes the binding ids (`activity` -> `activity.copy_job_id`).

    Out of the footer (the help and the palette list them): at 80 columns it
    has no room to spare for them before a list's own keys. A list whose URL
    is its point (the sessions' cdpUrl) shows `Y` with `show_url`, and may
    copy it with an action of its own (`url_action`).
    """
    return [
        Binding("y", "copy_job_id", "Copy id", show=False, id=f"{owner}.copy_job_id"),
        Binding("Y", url_action, url_label, show=show_url, id=f"{owner}.{url_action}"),
    ]


class CopiesJobs:
    """The `y` and `Y` actions of a list of jobs (mixed into a pane or screen, which has `client`)."""

    client: WdsClient

    def job_to_copy(self) -> JobRef | None:
        """The highlighted job (None: no row is highlighted)."""
        raise NotImplementedError

    def action_copy_job_id(self: Any) -> None:
        """Put the highlighted job's id on the clipboard."""
        job = self.job_to_copy()
        if job is not None:
            put_on_clipboard(self, job.job_id, f"copied the id of {noun(job.kind)} {job.job_id}")

    def action_copy_job_url(self: Any) -> None:
        """Put the highlighted job's status URL on the clipboard (its kind may have none: then say so)."""
        job = self.job_to_copy()
        if job is None:
            return
        url = status_url(self.client.base_url, job)
        if url is None:
            self.notify(f"a {noun(job.kind)} has no status URL: y copies its id", severity="warning")
            return
        put_on_clipboard(self, url, f"copied the status URL of {noun(job.kind)} {job.job_id}")


def put_on_clipboard(node: Any, text: str, said: str) -> None:
    """Copy `text` (OSC 52) from `node`'s app and say `said` in a toast."""
    node.app.copy_to_clipboard(text)
    node.notify(said, title="Clipboard")
