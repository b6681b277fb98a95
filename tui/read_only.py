"""Read-only mode (`--read-only`, `WDS_READ_ONLY=1`, `read_only = true` in a context), for shared screens.

What changes the service is declared where it is defined: an action method
marked `@mutates("creating a browser session")`, an intent listed in
`MUTATING_INTENTS`. An action called `submit` that does not say so is not
refused, and one that does is refused whatever it is called.

Three layers, so that nothing that changes the service gets through:
1. declared actions are left out of the footer (`tui.widgets.footer`), the
   palette and the help (`tui.keymap.action_state`);
2. reached any other way (a key, a message), they are refused with a toast
   (`WdsApp.run_action`, `WdsApp._navigate` for the intents below);
3. the client itself refuses, before sending, every request that is not a
   read (`tui.api.base_client.only_reads`): the guarantee under the other two.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from textual.actions import parse

from tui.intents import (
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
    from textual.app import App
    from textual.dom import DOMNode

Method = TypeVar("Method", bound=Callable[..., Any])

MUTATING_INTENTS: dict[type[Intent], str] = {
    NewSession: "creating a browser session",
    OpenScrapeForm: "scraping a URL",
    OpenCrawlForm: "starting a crawl",
    OpenMapExplorer: "mapping a site",
    OpenBatchForm: "starting a batch scrape",
    OpenInteract: "interacting with a scrape's browser",
    AskSupport: "asking support",
}

_DECLARATION = "mutates_the_service"
"""The attribute `mutates` puts on an action method: what it does, in words."""


def mutates(what: str) -> Callable[[Method], Method]:
    """Declare that an action method changes something on the service (or spends its credits).

    `what` says what, in words, for the refusal: "Read-only: `what` is turned off ...".
    """

    def declare(method: Method) -> Method:
        setattr(method, _DECLARATION, what)
        return method

    return declare


def declared_mutation(node: object, name: str) -> str | None:
    """What the action `name` of `node` changes, in words, if its method declares that it does."""
    return getattr(getattr(node, f"action_{name}", None), _DECLARATION, None)


def action_target(
    app: App[Any], action: str | ActionParseResult, default: DOMNode | None,
    namespaces: Mapping[str, DOMNode] | None = None,
) -> tuple[DOMNode | None, str]:
    """The node an action string runs on and the action's name ("app.quit" runs on the app).

    As `App.run_action` reads it; a namespace it would not know gives None.
    """
    destination, name, _ = parse(action) if isinstance(action, str) else action
    if not destination:
        return (default if default is not None else app), name
    if namespaces is not None and destination in namespaces:
        return namespaces[destination], name
    if destination in ("app", "screen", "focused"):
        return getattr(app, destination), name
    return None, name


def refused_mutation(
    app: App[Any], action: str | ActionParseResult, default: DOMNode | None,
    namespaces: Mapping[str, DOMNode] | None = None,
) -> str | None:
    """What `action` would change, in words, when the app is read-only and the action declares a change."""
    if not getattr(app, "read_only", False):
        return None
    target, name = action_target(app, action, default, namespaces)
    return None if target is None else declared_mutation(target, name)


def refusal(what: str) -> str:
    """The toast for a refused action."""
    return f"Read-only: {what} is turned off (started with --read-only, WDS_READ_ONLY or the context's read_only)"


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
        self: Any, action: str | ActionParseResult, default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        what = refused_mutation(self, action, default_namespace, namespaces)
        if what is not None:
            self.notify(refusal(what), severity="warning")
            return True  # handled: the key goes no further
        return bool(await super().run_action(action, default_namespace, namespaces))  # type: ignore[misc]
