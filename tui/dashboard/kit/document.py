"""One scraped page (a crawl's or a batch's `Document`) full screen: its metadata and its Markdown.

Nothing is fetched: the document came with the status answer the user was
reading. The page's HTTP status is said on the line under the title with a
symbol and a colour (`tui.dashboard.kit.status_look`), so an error page stands out even
without colour; the JSON tab shows what the service sent, field by field.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Label, Static, TabbedContent, TabPane

from tui.contract.models.common import Document
from tui.dashboard.kit.outside_text import shown, visible
from tui.dashboard.kit.status_look import SUCCESS, UNKNOWN, state_text
from tui.dashboard.kit.widgets.document_view import DocumentView
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.json_tree import JsonTree


def page_status_text(document: Document) -> Text:
    """`✓ HTTP 200 · url`, `✗ HTTP 404 · url`, or `? no HTTP status · url`."""
    meta = document.metadata
    code = meta.status_code
    if code is None:
        text = Text(f"{UNKNOWN.symbol} no HTTP status")
    elif code >= 400:
        text = state_text(None, code)
    else:
        text = Text(f"{SUCCESS.symbol} HTTP {code}", style=SUCCESS.style)
    url = meta.url or meta.source_url
    if url:
        text.append(f" · {visible(url)}")  # Rich would drop a BEL or a CR silently: each is shown
    return text


class DocumentScreen(Screen[None]):
    """A scraped page: fields and Markdown on one tab, the raw JSON on the other; Esc goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back", id="document.close"),
        Binding("d", "show_tab('document')", "Document", id="document.show_tab.document"),
        Binding("j", "show_tab('json')", "JSON", id="document.show_tab.json"),
    ]

    DEFAULT_CSS = """
    DocumentScreen { layout: vertical; }
    DocumentScreen .document-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    DocumentScreen .document-status { height: 1; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    DocumentScreen TabbedContent { height: 1fr; }
    DocumentScreen #document-scroll { padding: 0 1; }
    """

    def __init__(self, document: Document, title: str = "") -> None:
        super().__init__()
        self.document = document
        self.title_text = title or document.metadata.title or "Scraped page"

    def compose(self) -> ComposeResult:
        yield Label(shown(self.title_text), classes="document-title")
        yield Static(shown(page_status_text(self.document)), classes="document-status", id="document-status")
        with TabbedContent(id="document-tabs", initial="document"):
            with TabPane("Document", id="document"):
                with VerticalScroll(id="document-scroll"):
                    yield DocumentView(self.document, id="document-view")
            with TabPane("JSON", id="json"):
                # exclude_unset: what the service sent, not nulls for the fields it left out.
                dumped = self.document.model_dump(mode="json", by_alias=True, exclude_unset=True)
                yield JsonTree("document", dumped, id="document-json")
        yield Footer()

    def on_mount(self) -> None:
        # The reader scrolls the page at once (arrows, page keys), as in a pager.
        self.query_one("#document-scroll", VerticalScroll).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_show_tab(self, tab: str) -> None:
        self.query_one(TabbedContent).active = tab
        target = "#document-json" if tab == "json" else "#document-scroll"
        self.query_one(target).focus()
