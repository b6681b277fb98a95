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

from textual.widgets import Label, Static

from tui.api.errors import NotFoundError, WdsError
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.live import LiveData

T = TypeVar("T")


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
