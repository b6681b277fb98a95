"""Read-only mode (`--read-only`, `WDS_READ_ONLY=1`, `read_only = true` in a context), for shared screens.

What changes the service is declared where it is defined: an action method
marked `@mutates("creating a browser session")` (`tui.dashboard.kit.mutations`), an intent listed in
`MUTATING_INTENTS`. An action called `submit` that does not say so is not
refused, and one that does is refused whatever it is called.

Three layers, so that nothing that changes the service gets through:
1. declared actions are left out of the footer (`tui.dashboard.kit.widgets.footer`), the
   palette and the help (`tui.dashboard.keys.keymap.action_state`);
2. reached any other way (a key, a message), they are refused with a toast
   (`WdsApp.run_action`, `WdsApp._navigate` for the intents below);
3. the client itself refuses, before sending, every request that is not a
   read (`tui.api.base_client.only_reads`): the guarantee under the other two.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tui.dashboard.kit.mutations import refusal, refused_mutation
from tui.dashboard.shell.intents import (
    AskSupport,
    Intent,
    NewSession,
    OpenBatchForm,
    OpenCrawlForm,
    OpenInteract,
    OpenMapExplorer,
    OpenScrapeForm,
)

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

MUTATING_INTENTS: dict[type[Intent], str] = {
    NewSession: "creating a browser session",
    OpenScrapeForm: "scraping a URL",
    OpenCrawlForm: "starting a crawl",
    OpenMapExplorer: "mapping a site",
    OpenBatchForm: "starting a batch scrape",
    OpenInteract: "interacting with a scrape's browser",
    AskSupport: "asking support",
}


class RefusesChangesWhenReadOnly:
    """The app's read-only layer 2 (see the module doc); mixed into the App class, before it.

    `run_action` is Textual's public way in for every action run, by key or by the palette.
    """

    @property
    def read_only(self: Any) -> bool:
        """Whether every action that changes something is refused."""
        return bool(self.service.read_only)

    def refuses(self: Any, intent: Intent) -> bool:
        """Say so and return True when `intent` asks for a change that read-only forbids."""
        if self.read_only and type(intent) in MUTATING_INTENTS:
            self.notify(refusal(MUTATING_INTENTS[type(intent)]), severity="warning")
            return True
        return False

    async def run_action(
        self: Any,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        what = refused_mutation(self, action, default_namespace, namespaces)
        if what is not None:
            self.notify(refusal(what), severity="warning")
            return True  # handled: the key goes no further
        return bool(await super().run_action(action, default_namespace, namespaces))  # type: ignore[misc]
