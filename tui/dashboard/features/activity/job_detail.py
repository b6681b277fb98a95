"""One job from the activity list, fetched through the retrieval endpoint its kind maps to.

The contract maps four kinds of activity entry to a retrieval endpoint
(scrape, crawl, batch_scrape, agent; and extract, at agent's endpoint). Those open as a readable document with
a collapsible JSON tree of the whole answer beside it; every other kind says
plainly that there is nothing to retrieve, without sending a request.

Under the title, one line says how the job ended, with the symbol and colour
of its state; for a scrape it keeps the job's status and the page's HTTP
status apart (a job "scraped" whose page answered 404 reads as a failure).
`a` asks the support agent about the job, with what this screen knows of it.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, LoadingIndicator, Static, TabbedContent, TabPane

from tui.api.client import WdsClient
from tui.api.errors import NotFoundError, WdsError
from tui.api.resources.jobs import no_retrieval, retrieval_path
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.document_view import DocumentView, job_outcome, verdict
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.hyperlink import links_on, titled_link
from tui.dashboard.kit.widgets.json_tree import JsonTree
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures
from tui.dashboard.shell.intents import AskSupport, OpenInteract


class JobDetailScreen(ForwardsWorkerFailures, Screen[None]):
    """A job's document and JSON; for a scrape, i opens the console on its browser instead."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="job_detail.close"),
        Binding("r", "reload", "Reload", id="job_detail.reload"),
        Binding("d", "show_tab('document')", "Document", id="job_detail.show_tab.document"),
        Binding("j", "show_tab('json')", "JSON", id="job_detail.show_tab.json"),
        Binding("i", "interact", "Interact", id="job_detail.interact"),
        Binding("a", "ask_support", "Ask support", id="job_detail.ask_support"),
    ]

    DEFAULT_CSS = """
    JobDetailScreen { layout: vertical; }
    JobDetailScreen .job-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    JobDetailScreen #job-verdict { height: auto; padding: 0 1; text-style: bold; }
    JobDetailScreen .job-notice { padding: 1 2; height: auto; }
    JobDetailScreen .job-notice.-error { color: $error; }
    JobDetailScreen TabbedContent { height: 1fr; }
    JobDetailScreen #job-document-scroll { padding: 0 1; }
    """

    def __init__(self, client: WdsClient, endpoint: str, job_id: str, *, target: str | None = None) -> None:
        super().__init__()
        self.client = client
        self.endpoint = endpoint
        self.job_id = job_id
        self.target = target
        self.path = retrieval_path(endpoint)  # None: the contract has no retrieval for this kind
        self.job: BaseModel | None = None

    def compose(self) -> ComposeResult:
        title = titled_link(f"{self.endpoint} {short_id(self.job_id)}", self.target, enabled=links_on(self.app))
        yield Label(title, classes="job-title")
        yield Static("", id="job-verdict")
        if self.path is None:
            yield Static(no_retrieval(self.endpoint).message, classes="job-notice", id="job-notice", markup=False)
        else:
            yield Static(self._request_text(), classes="job-notice", id="job-notice", markup=False)
            with TabbedContent(id="job-tabs", initial="document"):
                with TabPane("Document", id="document"):
                    with VerticalScroll(id="job-document-scroll"):
                        yield LoadingIndicator()
                with TabPane("JSON", id="json"):
                    yield Vertical(id="job-json")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#job-verdict").display = False
        if self.path is not None:
            self.load()

    def _request_text(self) -> str:
        """What is being asked for, shown while it loads."""
        return f"{self.path.format(id=self.job_id)} …" if self.path is not None else ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("reload", "show_tab"):
            return self.path is not None
        if action == "interact":
            # Interact continues from a scrape's browser state; other kinds have none.
            return self.endpoint == "scrape"
        return True

    # --- fetching -----------------------------------------------------------------

    @work(exclusive=True, exit_on_error=False)
    async def load(self) -> None:
        """Fetch the job and show it; a failure is said in place, the last view stays."""
        assert self.path is not None
        notice = self.query_one("#job-notice", Static)
        try:
            job = await self.client.jobs.get(self.endpoint, self.job_id)
        except NotFoundError as exc:
            notice.set_class(True, "-error")
            notice.update(
                shown(
                    f"No {self.endpoint} job {short_id(self.job_id)} on the service: {exc.message} "
                    "(jobs expire after a while)."
                )
            )
            self._clear_loading()
            return
        except WdsError as exc:
            notice.set_class(True, "-error")
            notice.update(shown(f"{exc.title}: {exc.message} (r to retry)", lines=True))
            self._clear_loading()
            return
        except Exception as exc:  # a bug of ours: said here, and notified and logged by the app's sink
            notice.set_class(True, "-error")
            notice.update(shown(f"Unexpected error: {type(exc).__name__}: {exc} (r to retry)", lines=True))
            self._clear_loading()
            raise
        self.job = job
        notice.set_class(False, "-error")
        notice.display = False
        line = self.query_one("#job-verdict", Static)
        line.update(shown(verdict(job)))  # the job's error is the service's words
        line.display = True
        await self._show(job)

    def _clear_loading(self) -> None:
        for indicator in self.query(LoadingIndicator):
            indicator.remove()

    async def _show(self, job: BaseModel) -> None:
        document = self.query_one("#job-document-scroll", VerticalScroll)
        await document.remove_children()
        await document.mount(DocumentView(job, id="job-document"))
        holder = self.query_one("#job-json", Vertical)
        await holder.remove_children()
        # exclude_unset: the tree shows what the service sent, not nulls for fields it left out.
        dumped = job.model_dump(mode="json", by_alias=True, exclude_unset=True)
        await holder.mount(JsonTree(self.endpoint, dumped, id="job-json-tree"))

    # --- actions ---------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_reload(self) -> None:
        notice = self.query_one("#job-notice", Static)
        notice.display = True
        notice.set_class(False, "-error")
        notice.update(self._request_text())
        self.load()

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        target = "#job-json-tree" if tab == "json" else "#job-document-scroll"
        for widget in self.query(target):
            widget.focus()

    @mutates("asking support")
    def action_ask_support(self) -> None:
        """Ask the support agent about this job, the question prefilled from what is shown (the app opens it)."""
        outcome = job_outcome(self.job) if self.job is not None else None
        self.post_message(
            AskSupport(
                self.job_id,
                self.endpoint,
                status=outcome.state if outcome is not None else None,
                error=outcome.ask_error if outcome is not None else None,
                target=self.target,
            )
        )

    @mutates("interacting with a scrape's browser")
    def action_interact(self) -> None:
        """Leave the document for the console on the scrape's browser (the app opens it)."""
        self.dismiss(None)
        self.app.post_message(OpenInteract(self.job_id))  # to the app itself: this screen is closing
