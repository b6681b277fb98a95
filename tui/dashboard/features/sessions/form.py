"""The form that starts a browser session, checked against the contract before sending.

The values are validated with `BrowserCreateRequest`, the same model the client
and the emulator use, so the limits quoted under a field are the contract's.
The form sends the create request itself. Nothing typed is ever cleared: on
a validation error, ours or the service's 400, the form stays as it is with
the message under the offending field; when the service refuses for another
reason (429, 503...) the form stays open too, with the reason at the top.
Only a created session closes it, handing the app a `SessionCreated`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import ValidationError
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from tui.api.client import WdsClient
from tui.api.errors import APIStatusError, AuthenticationError, WdsError
from tui.contract.limits import (
    ACTIVITY_TTL_DEFAULT,
    ACTIVITY_TTL_MAX,
    ACTIVITY_TTL_MIN,
    PROFILE_NAME_MAX,
    TTL_MAX,
    TTL_MIN,
)
from tui.contract.models.browser import BrowserSessionCreated
from tui.contract.requests import BrowserCreateRequest
from tui.contract.validation import validation_details
from tui.dashboard.kit.error_words import WORDS, Say, Words
from tui.dashboard.kit.form_issues import issues_by_field, mark_fields, problem_text, refusal
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.tick_box import TickBox
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

TTL_FORM_DEFAULT = 600
"""Prefilled ttl: the contract's default is ambiguous (600 or 300), so the form always sends one."""

# Wire path of a validation issue -> the id of the field whose error line shows it.
_FIELD_OF_PATH = {
    "ttl": "ttl",
    "activityTtl": "activity-ttl",
    "streamWebView": "stream-web-view",
    "profile": "profile-name",
    "profile.name": "profile-name",
    "profile.saveChanges": "save-changes",
}
_FIELDS = ("ttl", "activity-ttl", "stream-web-view", "profile-name", "save-changes")


@dataclass(frozen=True)
class SessionCreated:
    """What the form closes with: the service's answer and the request that got it."""

    session: BrowserSessionCreated
    request: BrowserCreateRequest


_WORDS: dict[type[WdsError], Say] = {
    AuthenticationError: WORDS[AuthenticationError],  # a refused key reads as on every screen
    APIStatusError: lambda e: Words(e.title, e.message),  # the service says why it created nothing (429, 503)
}


class SessionFormScreen(ForwardsWorkerFailures, ModalScreen[SessionCreated | None]):
    """Ask for a new session's settings and create it; dismisses with the session, or None on cancel.

    `initial` prefills the form.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "submit", "Create", priority=True, id="session_form.submit"),
        Binding("escape", "cancel", "Cancel", id="session_form.cancel"),
    ]

    DEFAULT_CSS = """
    SessionFormScreen { align: center middle; }
    SessionFormScreen > #session-form {
        width: 72; max-width: 100%;
        height: auto; max-height: 100%;
        border: thick $primary 60%;
        background: $surface;
        padding: 0 1;
    }
    SessionFormScreen #form-title { text-style: bold; margin-bottom: 1; }
    SessionFormScreen #form-problem { color: $error; margin-bottom: 1; }
    SessionFormScreen .field-row { height: auto; margin-top: 1; }
    SessionFormScreen .field-row > Label { width: 26; }
    SessionFormScreen .field-row > Input { width: 1fr; }
    SessionFormScreen Checkbox { border: none; padding: 0; margin-top: 1; width: auto; }
    SessionFormScreen .field-error { color: $error; height: auto; padding-left: 26; }
    SessionFormScreen .field-hint { color: $text-muted; margin-top: 1; }
    SessionFormScreen #form-buttons { height: auto; align-horizontal: right; margin-top: 1; }
    SessionFormScreen #form-buttons Button { margin-left: 2; }
    """

    def __init__(self, client: WdsClient, initial: BrowserCreateRequest | None = None) -> None:
        super().__init__()
        self.client = client
        self.initial = initial
        self.sending = False

    # --- layout ---------------------------------------------------------------

    def compose(self) -> ComposeResult:
        initial = self.initial
        ttl = initial.ttl if initial and initial.ttl is not None else TTL_FORM_DEFAULT
        activity_ttl = initial.activity_ttl if initial else ACTIVITY_TTL_DEFAULT
        stream = initial.stream_web_view if initial and initial.stream_web_view is not None else True
        profile = initial.profile if initial else None
        with VerticalScroll(id="session-form"):
            yield Static("New browser session", id="form-title")
            problem = Static("", id="form-problem", markup=False)
            problem.display = False
            yield problem
            yield from self._field(
                "ttl", f"ttl, s ({TTL_MIN}-{TTL_MAX})", ttl, "total lifetime in seconds", numeric=True
            )
            yield from self._field(
                "activity-ttl",
                f"activityTtl, s ({ACTIVITY_TTL_MIN}-{ACTIVITY_TTL_MAX})",
                activity_ttl,
                f"seconds idle before it ends; empty: {ACTIVITY_TTL_DEFAULT}",
                numeric=True,
            )
            yield TickBox("Stream a live view (streamWebView)", stream, id="stream-web-view")
            yield Static("", id="stream-web-view-error", classes="field-error", markup=False)
            yield from self._field(
                "profile-name",
                f"profile name (1-{PROFILE_NAME_MAX})",
                profile.name if profile else None,
                "optional; same name = shared storage",
                numeric=False,
            )
            yield TickBox(
                "Save changes back to the profile (saveChanges)",
                profile.save_changes if profile else True,
                id="save-changes",
            )
            yield Static("", id="save-changes-error", classes="field-error", markup=False)
            yield Static("Enter or Ctrl+S: create · Esc: cancel", classes="field-hint")
            with Horizontal(id="form-buttons"):
                yield Button("Cancel", id="form-cancel", compact=True)
                yield Button("Create", id="form-submit", variant="primary", compact=True)

    def _field(self, field_id: str, label: str, value: object, hint: str, *, numeric: bool) -> ComposeResult:
        with Horizontal(classes="field-row"):
            yield Label(label, id=f"{field_id}-label")
            yield Input(
                value="" if value is None else str(value),
                type="integer" if numeric else "text",
                placeholder=hint,
                id=field_id,
                compact=True,
            )
        yield Static("", id=f"{field_id}-error", classes="field-error", markup=False)

    def on_mount(self) -> None:
        for field_id in _FIELDS:
            self.query_one(f"#{field_id}-error").display = False
        self._sync_save_changes()
        self.query_one("#ttl", Input).focus()

    # --- reading and checking -------------------------------------------------

    def wire_values(self) -> dict[str, Any]:
        """What the form holds, keyed by wire name, as the request model reads it.

        Numbers stay strings so that pydantic both parses them and names the
        field when they do not parse; an empty number field means "not given".
        """
        values: dict[str, Any] = {
            "ttl": self.query_one("#ttl", Input).value.strip() or None,
            "activityTtl": self.query_one("#activity-ttl", Input).value.strip() or None,
            "streamWebView": self.query_one("#stream-web-view", Checkbox).value,
        }
        name = self.query_one("#profile-name", Input).value
        if name.strip():
            values["profile"] = {"name": name, "saveChanges": self.query_one("#save-changes", Checkbox).value}
        return values

    def build_request(self) -> BrowserCreateRequest | None:
        """The request, or None after putting each problem under its field."""
        values = self.wire_values()
        issues: list[dict[str, Any]] = []
        if values["ttl"] is None:
            issues.append({"path": "ttl", "message": f"ttl: required, {TTL_MIN} to {TTL_MAX} seconds"})
        try:
            request = BrowserCreateRequest.model_validate(values)
        except ValidationError as exc:
            issues.extend(validation_details(exc))
            request = None
        self.show_issues(issues)
        return None if issues else request

    def show_issues(self, issues: list[dict[str, Any]]) -> None:
        """Put each issue under its field (one of no single field at the top), clearing the others."""
        problems = issues_by_field(issues, _FIELD_OF_PATH.get)
        mark_fields(self, problems, _FIELDS)
        self._show_problem(problem_text("", problems))
        if problems:
            first = next((field_id for field_id in _FIELDS if field_id in problems), "ttl")
            self.query_one(f"#{first}").focus()

    def _show_problem(self, text: str) -> None:
        problem = self.query_one("#form-problem", Static)
        problem.update(shown(text, lines=True))  # the service's reason for a refusal
        problem.display = bool(text)

    def _sync_save_changes(self) -> None:
        # saveChanges only means something with a profile: grey it out without one.
        has_profile = bool(self.query_one("#profile-name", Input).value.strip())
        self.query_one("#save-changes", Checkbox).disabled = not has_profile

    # --- events -----------------------------------------------------------------

    @on(Input.Changed, "#profile-name")
    def _profile_changed(self) -> None:
        self._sync_save_changes()

    @on(Input.Submitted)
    def _enter_in_a_field(self) -> None:
        self.action_submit()

    @mutates("sending this form")
    @on(Button.Pressed, "#form-submit")
    def action_submit(self) -> None:
        """Create the session if every value is within its limits."""
        if self.sending:
            return  # one request at a time: a second Enter must not start a second session
        request = self.build_request()
        if request is not None:
            self.sending = True
            self.create(request)

    @work(exclusive=True, exit_on_error=False, group="session-create")
    async def create(self, request: BrowserCreateRequest) -> None:
        """Send the request; on refusal stay open with what was typed and say why."""
        try:
            created = await self.client.browser.create(request=request)
        except WdsError as exc:
            words = refusal(exc, _WORDS)
            self.notify(words.text, title=words.title, severity="error", timeout=10)
            self.show_issues(words.issues)
            if not words.issues:
                self._show_problem(f"{words.title}: {words.text}")
            return
        finally:
            self.sending = False
        self.dismiss(SessionCreated(created, request))

    @on(Button.Pressed, "#form-cancel")
    def action_cancel(self) -> None:
        """Close without creating anything."""
        self.dismiss(None)
