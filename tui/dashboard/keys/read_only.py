"""Read-only mode (`--read-only`, `WDS_READ_ONLY=1`, `read_only = true` in a context), for shared screens.

Three layers, so that nothing that changes the service gets through:
1. the actions below are left out of the footer, the palette and the help
   (`WdsApp._check_action_state`, `tui.dashboard.keys.keymap.action_state`);
2. reached any other way (a key, a message), they are refused with a toast
   (`WdsApp.run_action`, `WdsApp._navigate` for the intents below);
3. the client itself refuses, before sending, every request that is not a
   read (`tui.api.base_client.only_reads`): the guarantee under the other two.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

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

MUTATING_ACTIONS: dict[str, str] = {
    # the app's launchers
    "scrape_form": "scraping a URL",
    "crawl_form": "starting a crawl",
    "map_explorer": "mapping a site",
    "batch_form": "starting a batch scrape",
    # panes and screens
    "create": "creating a browser session",
    "delete": "deleting a browser session",
    "cancel_crawl": "cancelling a crawl",
    "interact": "interacting with a scrape's browser",
    "ask_support": "asking support",
    "send": "asking support",
    "run": "running code in a browser",
    "rerun": "running code in a browser",
    "stop": "stopping a browser session",
    "submit": "sending this form",
    "start": "starting a crawl",
    "batch": "starting a batch scrape",
}
"""Action names that change something on the service (or spend its credits), and what they do, in words."""

MUTATING_INTENTS: dict[type[Intent], str] = {
    NewSession: "creating a browser session",
    OpenScrapeForm: "scraping a URL",
    OpenCrawlForm: "starting a crawl",
    OpenMapExplorer: "mapping a site",
    OpenBatchForm: "starting a batch scrape",
    OpenInteract: "interacting with a scrape's browser",
    AskSupport: "asking support",
}


def action_name(action: str) -> str:
    """The bare name of an action string: "app.quit" -> "quit", "sort('url')" -> "sort"."""
    return action.split("(", 1)[0].rsplit(".", 1)[-1]


def refusal(what: str) -> str:
    """The toast for a refused action."""
    return f"Read-only: {what} is turned off (started with --read-only, WDS_READ_ONLY or the context's read_only)"


class RefusesChangesWhenReadOnly:
    """The app's read-only layers 1 and 2 (see the module doc); mixed into the App class, before it.

    `_check_action_state` is Textual's (private) question for its footer and key
    dispatch; `run_action` its public one for every action run.
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

    def _check_action_state(self: Any, action: str, default_namespace: DOMNode) -> bool | None:
        # Textual's own footer asks here for every binding of every node: read-only hides the mutating ones.
        if self.read_only and action_name(action) in MUTATING_ACTIONS:
            return False
        return super()._check_action_state(action, default_namespace)  # type: ignore[misc]

    async def run_action(
        self: Any, action: str | ActionParseResult, default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        if self.read_only and isinstance(action, str) and action_name(action) in MUTATING_ACTIONS:
            self.notify(refusal(MUTATING_ACTIONS[action_name(action)]), severity="warning")
            return True  # handled: the key goes no further
        return bool(await super().run_action(action, default_namespace, namespaces))  # type: ignore[misc]
