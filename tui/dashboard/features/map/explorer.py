"""Map a site (`POST /v2/map`) and explore its links: a form checked against the contract, then the links.

The values are validated with `MapRequest`, the model the client sends, so a
limit quoted under a field is the contract's. Nothing typed is ever cleared:
a value out of its limits (ours or the service's 400) is said under its
field; any other refusal (`tui.dashboard.features.map.refusals`) above the form. While
the map is on its way the line under the title counts the seconds and Esc
abandons it. The links open in place (`tui.dashboard.features.map.results`: filter,
sort, select, copy, save, batch scrape); Esc goes back to the form to map
again, and ctrl+y copies the request as curl (key masked) and shows it.
"""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Collapsible, ContentSwitcher, Input, Label, Static
from textual.worker import Worker

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.requests import MapRequest
from tui.dashboard.features.map.fields import MapFields
from tui.dashboard.features.map.links import LinkList
from tui.dashboard.features.map.refusals import explain
from tui.dashboard.features.map.results import MapResults
from tui.dashboard.kit.curl import curl_command
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.request_progress import RequestProgress
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

TITLE = "Map a site · POST /v2/map"


class MapExplorerScreen(ForwardsWorkerFailures, Screen[None]):
    """The map form and, once links came back, the links; Esc steps back one level."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Map", priority=True, id="map_explorer.submit"),
        Binding("ctrl+y", "copy_curl", "Copy as curl", priority=True, id="map_explorer.copy_curl"),
        # One key, three meanings: check_action enables the one that fits what is shown.
        Binding("escape", "cancel_map", "Cancel the map", id="map_explorer.cancel_map"),
        Binding("escape", "back_to_form", "Back to the form", id="map_explorer.back_to_form"),
        Binding("escape", "close", "Close", id="map_explorer.close"),
    ]

    DEFAULT_CSS = """
    MapExplorerScreen { layout: vertical; }
    MapExplorerScreen #map-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    MapExplorerScreen ContentSwitcher { height: 1fr; }
    MapExplorerScreen #map-results { height: 1fr; }
    MapExplorerScreen #curl-panel { height: auto; max-height: 12; }
    MapExplorerScreen #curl-text { color: $text-muted; }
    """

    pending: reactive[MapRequest | None] = reactive(None, bindings=True, init=False)
    """The request on its way, None when none is (ctrl+s, Esc and the rest depend on it)."""
    view: reactive[str] = reactive("map-form", bindings=True, init=False)
    """Which of the form and the answer is on screen (the ContentSwitcher shows it)."""

    def __init__(self, client: WdsClient) -> None:
        super().__init__()
        self.client = client
        self.links: LinkList | None = None
        self.sent: MapRequest | None = None  # the request whose links are shown
        self.answered_at = 0.0  # time.perf_counter() when the links arrived (the benchmark reads it)
        self._map: Worker[None] | None = None

    # --- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label(TITLE, id="map-title")
        yield RequestProgress(id="map-progress")
        with ContentSwitcher(initial="map-form"):
            yield MapFields(id="map-form")
            yield Vertical(id="map-results")
        with Collapsible(title="The request as curl (key masked)", collapsed=False, id="curl-panel"):
            yield Static("", id="curl-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#curl-panel").display = False
        self.query_one("#url", Input).focus()

    @property
    def fields(self) -> MapFields:
        """The form's fields."""
        return self.query_one(MapFields)

    # --- state ------------------------------------------------------------------

    @property
    def sending(self) -> bool:
        """Whether a map is on its way."""
        return self.pending is not None

    @property
    def showing_links(self) -> bool:
        """Whether the links are on screen (rather than the form)."""
        return self.view == "map-results"

    def watch_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "submit":
            return not self.sending and not self.showing_links
        if action == "cancel_map":
            return self.sending
        if action == "back_to_form":
            return not self.sending and self.showing_links
        if action == "close":
            return not self.sending and not self.showing_links
        return True

    # --- sending ------------------------------------------------------------------

    @on(Input.Submitted, "MapFields Input")
    def _enter_in_a_field(self) -> None:
        self.action_submit()

    @mutates("sending this form")
    def action_submit(self) -> None:
        """Map if every value is within its limits."""
        if self.sending or self.showing_links:
            return  # one map at a time
        request = self.fields.build_request()
        if request is None:
            return
        self.query_one("#curl-panel").display = False  # it showed an earlier request; ctrl+y shows this one
        self.pending = request
        self._map = self.send(request)
        self.query_one("#map-progress", RequestProgress).start(self._describe_progress)

    def _describe_progress(self, elapsed: int) -> str:
        request = self.pending
        if request is None:
            return ""
        budget = f"its timeout is {request.timeout / 1000:g} s" if request.timeout else "no timeout set"
        return f"Mapping {request.url} … {elapsed} s ({budget}) · Esc cancels"

    @work(exclusive=True, exit_on_error=False, group="map")
    async def send(self, request: MapRequest) -> None:
        """Map; on a refusal keep the form as typed and say why; on an answer show the links."""
        try:
            result = await self.client.map(request=request)
        except asyncio.CancelledError:
            raise  # Esc: action_cancel_map has said so already
        except WdsError as exc:
            self._stopped("")
            refusal = explain(exc, request)
            self.notify("Nothing was mapped; the form says why and keeps what you typed.", title=refusal.title,
                        severity="error", timeout=6)
            self.fields.show_issues(refusal.issues, "" if refusal.issues else f"{refusal.title}: {refusal.text}")
            return
        except Exception:  # a bug of ours: the app's sink says so; the form must not stay "mapping"
            self._stopped("")
            raise
        self.answered_at = time.perf_counter()
        self._stopped("")
        self.fields.show_issues([])
        links = LinkList(result.links)
        del result  # the columns hold the strings; 100,000 link objects need not stay
        await self._show_links(links, request)

    def _stopped(self, note: str) -> None:
        self.pending = None
        self.query_one("#map-progress", RequestProgress).stop(note)

    async def _show_links(self, links: LinkList, request: MapRequest) -> None:
        self.links = links
        self.sent = request
        holder = self.query_one("#map-results", Vertical)
        await holder.remove_children()
        await holder.mount(MapResults(links, id="map-links"))
        self.view = "map-results"
        # Label reads markup, and a URL may well hold brackets: as text.
        self.query_one("#map-title", Label).update(shown(f"Map · {request.url} · {len(links):,} links"))
        self.query_one("#links-table").focus()

    def action_cancel_map(self) -> None:
        """Abandon the map on its way; the form stays as typed."""
        if self._map is not None:
            self._map.cancel()
        self._stopped("Cancelled: the links will not be shown (the service may still finish the map and bill it). "
                      "The form is as you left it; ctrl+s sends again.")
        self.query_one("#url", Input).focus()

    # --- after the answer ---------------------------------------------------------

    def action_back_to_form(self) -> None:
        """Back to the form as it was sent, to change an option and map again."""
        self.view = "map-form"
        self.query_one("#map-title", Label).update(TITLE)
        self.query_one("#url", Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    # --- curl ---------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as curl (key masked) through OSC 52, and show it for terminals without OSC 52."""
        request = self.sent if self.showing_links else self.fields.build_request()
        if request is None:
            self.notify("Fix the fields marked first: curl would send what the service refuses.",
                        title="Nothing copied", severity="warning")
            return
        command = curl_command("POST", self.client.base_url, "/v2/map", key_hint=self.client.api_key_hint,
                               body=request.to_wire())
        self.app.copy_to_clipboard(command)
        self.query_one("#curl-text", Static).update(shown(command, lines=True))
        panel = self.query_one("#curl-panel", Collapsible)
        panel.display = True
        panel.collapsed = False
        self.notify("Key masked; also shown below, for terminals without OSC 52.", title="Copied as curl")
