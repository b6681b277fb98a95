"""The "Open job by id" dialog (`g`): paste an id or a URL with one, Enter finds the job and opens it.

The kind comes from the jobs the dashboard has seen, else from the service
(`tui.dashboard.features.jump.finder`); the dialog says which endpoint it is
asking while it asks. Then it closes and asks the app for the job's own
screen: a crawl's live status, a batch's status, a browser session's console
(or what is known of it, once ended), any other job's detail. When nothing
knows the id, or the service cannot be asked, it says so in place and keeps
what was typed, to fix a character or try again.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.dashboard.features.jump.finder import FoundJob, NoSuchJob, find_job
from tui.dashboard.features.jump.reference import JobReference, read_reference
from tui.dashboard.features.jump.seen_jobs import SeenJobs
from tui.dashboard.kit.error_words import words_for
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import Intent, OpenBatch, OpenConsole, OpenCrawl, OpenEndedSession, OpenJob

NO_ID = "No job id in that: ids look like 3f2c1a9e-…-…-…-… (a UUID), alone or in a URL."


def intent_for(found: FoundJob) -> Intent:
    """The screen that shows a job of the kind found."""
    if found.session is not None:
        if found.session.is_active:
            return OpenConsole(found.session)
        return OpenEndedSession(found.session, ended="not known: the service does not say (opened by id)")
    if found.kind == "crawl":
        return OpenCrawl(found.job_id)
    if found.kind == "batch_scrape":
        return OpenBatch(found.job_id)
    return OpenJob(found.kind, found.job_id)  # its screen says so when the kind has nothing to retrieve


class OpenByIdScreen(ForwardsWorkerFailures, ModalScreen[None]):
    """Read a job id (or a URL with one), find its kind, and open it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Cancel", id="open_by_id.close")]

    DEFAULT_CSS = """
    OpenByIdScreen { align: center middle; }
    OpenByIdScreen > #open-by-id {
        width: 72; max-width: 100%;
        height: auto;
        border: thick $primary 60%;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    OpenByIdScreen #open-by-id-help, OpenByIdScreen #open-by-id-hint { color: $text-muted; }
    OpenByIdScreen #open-by-id-note { height: auto; }
    OpenByIdScreen #open-by-id-note.-error { color: $error; }
    """

    def __init__(self, client: WdsClient, seen: SeenJobs, *, reference: str = "") -> None:
        super().__init__()
        self.client = client
        self.seen = seen
        self.reference = reference  # given (an alert's job): looked up at once, as if typed and Enter pressed

    def compose(self) -> ComposeResult:
        box = Vertical(id="open-by-id")
        box.border_title = "Open job by id"
        with box:
            yield Static("A job id, or a URL with one in it.", id="open-by-id-help", markup=False)
            yield Input(placeholder="id or URL", id="open-by-id-input")
            yield Static("", id="open-by-id-note", markup=False)
            yield Static("⏎ open · esc cancel", id="open-by-id-hint", markup=False)

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        if self.reference:
            field.value = self.reference
            field.post_message(Input.Submitted(field, field.value))

    def action_close(self) -> None:
        """Back, opening nothing."""
        self.dismiss(None)

    def say(self, text: str, *, error: bool = False) -> None:
        """Say `text` under the field (it may quote what was typed, or the service)."""
        note = self.query_one("#open-by-id-note", Static)
        note.update(shown(text, lines=True))
        note.set_class(error, "-error")

    @on(Input.Submitted, "#open-by-id-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        reference = read_reference(event.value)
        if reference is None:
            self.say(NO_ID if event.value.strip() else "Type or paste a job id first.", error=True)
            return
        self.run_worker(self._open(reference), group="open-by-id", exclusive=True, exit_on_error=False)

    async def _open(self, reference: JobReference) -> None:
        try:
            found = await find_job(self.client, reference, self.seen, self._asking)
        except NoSuchJob as missing:
            self.say(str(missing), error=True)
            return
        except WdsError as error:
            words = words_for(error)
            self.say(f"{words.title}: {words.text}", error=True)
            return
        app = self.app
        self.dismiss(None)
        app.post_message(intent_for(found))  # to the app itself: this screen is closing

    def _asking(self, kind: str) -> None:
        self.say(f"asking the service: is it a {kind}…")
