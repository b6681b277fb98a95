"""What the crawl and batch status screens share: following one job live until it ends.

Polled while the screen is on top (`tui.dashboard.kit.widgets.live.LiveData`), no more
once the job is finished (r asks again); a 404 means the job is gone
(unknown or expired): polling stops and what was shown stays; any other
failure keeps what is shown, marked stale with the reason. The screen says
which widgets are its state, credits and error lines (`JobWidgets`) and
draws the rest of its answer in `show_job`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from textual.binding import Binding, BindingType
from textual.widgets import Label, Static

from tui.api.errors import NotFoundError, WdsError
from tui.contract.models.common import JobStatus
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.live import LiveData
from tui.dashboard.kit.widgets.live_table import LiveTable

T = TypeVar("T")

DEFAULT_POLL_SECONDS = 2.0
"""How often an open status screen asks for news, unless told otherwise."""


def crawl_error(status: JobStatus) -> str | None:
    """What went wrong with a crawl (or a batch), as far as its status answer says, for a question to support.

    The contract gives a crawl's status no `error`; a service that sends one
    anyway is quoted. Otherwise the listed pages that answered an HTTP error
    are counted, with their codes.
    """
    extra = (status.model_extra or {}).get("error")
    if isinstance(extra, str) and extra:
        return extra
    codes = [doc.metadata.status_code for doc in status.data]
    failed = sorted({code for code in codes if code is not None and code >= 400})
    if not failed:
        return None
    count = sum(1 for code in codes if code is not None and code >= 400)
    return f"{count} of {len(codes)} listed pages answered an HTTP error ({', '.join(map(str, failed))})"


class PageTable(LiveTable):
    """A job's pages (a crawl's, a batch's URLs); Enter opens the highlighted one (and says so in the footer)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open page", id="page_table.select_cursor")
    ]


@dataclass(frozen=True)
class JobWidgets:
    """The ids of a status screen's common lines, and how it names its job."""

    noun: str  # "Crawl", "Batch"
    state: str  # "#crawl-status"
    credits: str
    error: str
    gone_hint: str  # what to add when the job is not found ("It may have expired; r tries again.")


class FollowsAJob(LiveData[T], Generic[T]):
    """Mixed into a status screen (before `Screen`); the screen sets `job_id` and implements `show_job`."""

    WIDGETS: ClassVar[JobWidgets]
    job_id: str

    def show_job(self, status: T) -> None:
        """Draw what this kind of job has beyond its state and credits."""
        raise NotImplementedError

    def show(self, data: T) -> bool:
        self._show_common(data)
        self.show_job(data)
        if data.is_finished:  # type: ignore[attr-defined]
            self.stop_polling()
        return True

    def show_again(self, data: T) -> bool:
        if data.is_finished:  # type: ignore[attr-defined]  # the last answer was already finished: reloaded with r
            self.stop_polling()
        return False

    def fetched(self, changed: bool, recovering: bool) -> None:
        if recovering:
            self._node.query_one(self.WIDGETS.error, Static).display = False

    def fetch_failed(self, error: WdsError) -> None:
        if isinstance(error, NotFoundError):
            # The job is gone (unknown or expired): asking again will not bring it back.
            self.stop_polling()
            self.failure = f"{error.title}: {error.message}"  # what `a` tells support
            self._show_error(
                f"{self.WIDGETS.noun} {short_id(self.job_id)} was not found on the service ({error.message}). "
                f"{self.WIDGETS.gone_hint}"
            )
            return
        self.mark_stale(error)

    def show_status(self) -> None:
        stale = self.stale_text()
        if stale is not None:
            self._show_error(stale)

    @property
    def _node(self) -> Any:
        return self

    def _show_error(self, message: str) -> None:
        error = self._node.query_one(self.WIDGETS.error, Static)
        error.update(shown(message, lines=True))  # the service's reason
        error.display = True
        if self.data is None:
            self._node.query_one(self.WIDGETS.state, Label).update("unknown")

    def _show_common(self, status: Any) -> None:
        state = str(status.status)
        label = self._node.query_one(self.WIDGETS.state, Label)
        label.update(shown(state))  # a state the contract does not know is still shown as the service said it
        label.set_class(state in ("failed", "cancelled"), "-failed")
        label.set_class(state == "completed", "-completed")
        credits = f"{status.credits_used:,}" if status.credits_used is not None else "—"
        self._node.query_one(self.WIDGETS.credits, Label).update(credits)
