"""What a scrape brought back, as the scrape form shows it: the page's HTTP status apart, then the document.

A scrape "works" twice: the service fetched the page (the job is `scraped`)
and the page answered (its HTTP status, which may be 404). The line on top
says the page's status first, with the symbol and colour of `tui.dashboard.kit.status_look`,
and the job's own facts after it (cache, credits, job id); under it the same
document view and JSON tree as the job screen.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static, TabbedContent, TabPane

from tui.contract.models.scrape import ScrapeResult
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.status_look import FAILURE, SUCCESS, UNKNOWN
from tui.dashboard.kit.widgets.document_view import DocumentView, http_status_text
from tui.dashboard.kit.widgets.json_tree import JsonTree


def scrape_status_line(result: ScrapeResult) -> Text:
    """`✓ HTTP 200 OK · job scraped · cache miss · 1 credit · job 5f0c1a2b`."""
    document = result.data
    code = document.metadata.status_code if document is not None else None
    # The page's status alone carries the colour: the job's facts after it are plain.
    line = Text()
    if code is None:
        line.append(f"{UNKNOWN.symbol} no HTTP status", style=UNKNOWN.style)
    else:
        look = FAILURE if code >= 400 else SUCCESS
        line.append(f"{look.symbol} HTTP {http_status_text(code)}", style=look.style)
    line.append(f" · job {'scraped' if result.success else 'failed'}")
    if document is None:
        line.append(" · no document in the answer", style=FAILURE.style)
        return line
    extra = document.metadata.model_extra or {}
    cache = extra.get("cacheState")
    if isinstance(cache, str):
        line.append(f" · cache {visible(cache)}")
    credits = extra.get("creditsUsed")
    if isinstance(credits, int | float) and not isinstance(credits, bool):
        line.append(f" · {credits:g} credit{'s' if credits != 1 else ''}")
    if result.job_id:
        line.append(f" · job {short_id(result.job_id)}")
    return line


class ScrapeResultView(Vertical):
    """The status line, then the document and the JSON of one scrape, on two tabs (d, j)."""

    DEFAULT_CSS = """
    ScrapeResultView { height: 1fr; }
    ScrapeResultView #scrape-status { height: auto; padding: 0 1; text-style: bold; }
    ScrapeResultView TabbedContent { height: 1fr; }
    ScrapeResultView #scrape-document-scroll { padding: 0 1; }
    """

    def __init__(self, result: ScrapeResult, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.result = result

    def compose(self) -> ComposeResult:
        yield Static(shown(scrape_status_line(self.result)), id="scrape-status")  # cacheState is the service's
        with TabbedContent(id="scrape-tabs", initial="scrape-document"):
            with TabPane("Document", id="scrape-document"):
                with VerticalScroll(id="scrape-document-scroll"):
                    yield DocumentView(self.result, id="scrape-document-view")
            with TabPane("JSON", id="scrape-json"):
                # exclude_unset: what the service sent, not nulls for the fields it left out.
                dumped = self.result.model_dump(mode="json", by_alias=True, exclude_unset=True)
                yield JsonTree("scrape", dumped, id="scrape-json-tree")

    def show_tab(self, tab: str) -> None:
        """Bring the document (`document`) or the JSON (`json`) forward and give it the keys."""
        self.query_one(TabbedContent).active = f"scrape-{tab}"
        target = "#scrape-json-tree" if tab == "json" else "#scrape-document-scroll"
        self.query_one(target).focus()
