"""What changes the service, declared where it is defined: `@mutates("starting a crawl")` on an action method.

Read-only mode (`tui.dashboard.keys.read_only`) refuses what is declared here, and
the footer, the palette and the help leave it out: they all read this one
declaration, never an action's name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from textual.actions import parse

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.app import App
    from textual.dom import DOMNode

Method = TypeVar("Method", bound=Callable[..., Any])

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
    app: App[Any],
    action: str | ActionParseResult,
    default: DOMNode | None,
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
    app: App[Any],
    action: str | ActionParseResult,
    default: DOMNode | None,
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
