"""Map a site (`POST /v2/map`) and explore its links: a form checked against the contract, then the links.

The launch form (`tui.dashboard.kit.launch_form`) does the rest; a refusal is
worded by `tui.dashboard.kit.error_words` with what only a map can add
(`map_words`). The links open in place (`tui.dashboard.features.map.results`:
filter, sort, select, copy, save, batch scrape); Esc goes back to the form to
map again.
"""

from __future__ import annotations

import gc
import time
from typing import ClassVar

from textual.binding import BindingType

from tui.api.client import WdsClient
from tui.api.errors import (
    APITimeoutError,
    InsufficientCreditsError,
    InvalidResponseError,
    RequestTimeoutError,
    ResponseTooLargeError,
    WdsError,
)
from tui.contract.models.map import MapResult
from tui.contract.requests import MapRequest
from tui.dashboard.features.map.fields import MapFields
from tui.dashboard.features.map.links import LinkList
from tui.dashboard.features.map.results import MapResults
from tui.dashboard.kit.error_words import Say, Words, sentence, status_code
from tui.dashboard.kit.launch_form import LaunchFormScreen, launch_bindings

TITLE = "Map a site · POST /v2/map"


class MapExplorerScreen(LaunchFormScreen):
    """The map form and, once links came back, the links; Esc steps back one level."""

    NAME = "map"
    GROUP = "map"
    HEADING = TITLE
    PATH = "/v2/map"
    NOTHING_DONE = "Nothing was mapped; the form says why and keeps what you typed."
    CANCELLED = (
        "Cancelled: the links will not be shown (the service may still finish the map and bill it). "
        "The form is as you left it; ctrl+s sends again."
    )
    BODY = MapFields
    ANSWER = "map-results"

    CANCEL_ACTION = "cancel_map"
    BINDINGS: ClassVar[list[BindingType]] = launch_bindings("map_explorer", "Map", "Cancel the map", CANCEL_ACTION)

    def __init__(self, client: WdsClient) -> None:
        super().__init__(client)
        self.links: LinkList | None = None
        self.answered_at = 0.0  # time.perf_counter() when the links arrived (the benchmark reads it)

    async def call(self, request: MapRequest) -> LinkList:
        result: MapResult = await self.client.map(request=request)
        self.answered_at = time.perf_counter()
        # The columns hold the strings: the 100,000 link objects go as this returns.
        return LinkList(result.links)

    def words(self, request: MapRequest) -> dict[type[WdsError], Say]:
        return map_words(request)

    def progress(self, request: MapRequest, elapsed: int) -> str:
        budget = f"its timeout is {request.timeout / 1000:g} s" if request.timeout else "no timeout set"
        return f"Mapping {request.url} … {elapsed} s ({budget}) · Esc cancels"

    async def answered(self, answer: LinkList, request: MapRequest) -> None:
        self.links = answer
        await self.show_answer(
            MapResults(self.links, id="map-links"),
            request,
            f"Map · {request.url} · {len(self.links):,} links",
            "#links-table",
        )
        # After the first frame: the links are on screen before their columns are packed and the
        # filter's search strings made, and before the one full collection below.
        self.call_after_refresh(self._ready_to_filter)

    def _ready_to_filter(self) -> None:
        if self.links is not None:
            self.links.compact()
        _keep_out_of_collections()

    def on_unmount(self) -> None:
        # What was frozen lives no longer than the screen: a closed map's widgets are full of
        # cycles (parent and child), which only a collection of unfrozen objects frees.
        gc.unfreeze()


def _keep_out_of_collections() -> None:
    # The columns live as long as the screen: frozen (as the CPython docs advise for long-lived
    # data), no full collection walks them while a filter is typed. Unfrozen and collected first,
    # so that the load's own cyclic garbage (the answer, the request's objects, an earlier map's
    # widgets on this screen) is freed, not frozen for good.
    gc.unfreeze()
    gc.collect()
    gc.freeze()


def map_words(request: MapRequest) -> dict[type[WdsError], Say]:
    """The map form's own words, for a refusal of `request`."""
    budget = f"its timeout of {request.timeout:,} ms" if request.timeout else "its time"
    return {
        RequestTimeoutError: lambda e: Words(
            "The map took too long",
            f"The service gave up mapping {request.url} within {budget} "
            f"({status_code(e)}: {e.message}). Raise timeout, clear it (no timeout by default), or lower limit.",
        ),
        APITimeoutError: lambda e: Words(
            "No answer in time",
            f"The service sent no answer in time: {sentence(e.message)} A big site takes a "
            "while; set a timeout in the form to bound it, or send again with ctrl+s.",
        ),
        InsufficientCreditsError: lambda e: Words(
            "No credits left", f"The team has no credits left for a map ({status_code(e)}: {e.message})."
        ),
        ResponseTooLargeError: lambda e: Words(
            "Answer too large",
            f"The answer was larger than any map of {request.limit or 'the default number of'} "
            f"links can be: {e.message}",
        ),
        InvalidResponseError: lambda e: Words(
            "Unreadable answer", f"The service answered HTTP {e.status} with something that is not a map: {e.message}"
        ),
    }
