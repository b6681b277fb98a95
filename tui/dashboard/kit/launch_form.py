"""One form screen for every request a person launches: send, wait, cancel, explain a refusal, copy as curl.

A launch form declares its title, the body of fields (`tui.dashboard.kit.form_body`),
the client call, the words for a refusal and what to do with the answer;
this screen does the rest the same way for all of them. ctrl+s checks the
values with the request model and sends; while the answer is awaited the line
under the title counts the seconds and Esc abandons the request (the ctrl+s
of a second press starts nothing). Any refusal, ours or the service's, keeps
what was typed and says why: under the fields it names, else above the form
(`tui.dashboard.kit.form_issues.refusal`). ctrl+y copies the request as curl (the key
read from $WDS_API_KEY) and shows it, for terminals without OSC 52. A form whose answer
opens in place (`answer_view`) gets a third meaning for Esc: back to the form.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Collapsible, ContentSwitcher, Input, Label, Static
from textual.worker import Worker

from tui.api.client import WdsClient
from tui.api.errors import WdsError
from tui.contract.requests import WireModel
from tui.dashboard.kit.curl import curl_command, readable_curl
from tui.dashboard.kit.error_words import Say
from tui.dashboard.kit.form_body import INBOX_HINT, FormBody
from tui.dashboard.kit.form_issues import refusal
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.kit.widgets.request_progress import RequestProgress
from tui.dashboard.kit.worker_failures import ForwardsWorkerFailures

if TYPE_CHECKING:
    from tui.dashboard.kit.webhook_address import WebhookAddress


def launch_bindings(
    owner: str,
    send: str,
    cancel: str,
    cancel_action: str = "cancel_send",
    submit: str = "submit",
    close: tuple[str, str] = ("close", "Close"),
) -> list[BindingType]:
    """The keys of a launch form: `send` and `cancel` are what ctrl+s and Esc say in the footer.

    `owner` names the form in the bindings' ids (`scrape_form.submit`, as `[keys]` knows them);
    `cancel_action`, `submit` and `close` (action, words) are the form's names for Esc while
    sending, ctrl+s and Esc on the form, kept so that a `[keys]` entry written for them goes on
    working (the form's `check_action` reads them as `cancel_send`, `submit` and `close`).
    """
    return [
        # Priority: they work from inside a text area too.
        Binding("ctrl+s", submit, send, priority=True, id=f"{owner}.{submit}"),
        Binding("ctrl+y", "copy_curl", "Curl: copy the request as curl", priority=True, id=f"{owner}.copy_curl"),
        # One key, three meanings: check_action enables the one that fits what is shown.
        Binding("escape", cancel_action, cancel, id=f"{owner}.{cancel_action}"),
        Binding("escape", "back_to_form", "Form: back to the form", id=f"{owner}.back_to_form"),
        Binding("escape", close[0], close[1], id=f"{owner}.{close[0]}"),
    ]


class LaunchFormScreen(ForwardsWorkerFailures, Screen[None]):
    """A form that sends one request and waits for its answer; Esc steps back one level."""

    NAME: ClassVar[str]
    """The prefix of the screen's widget ids: `scrape` gives `#scrape-title`, `#scrape-form`, ..."""
    GROUP: ClassVar[str]
    """The worker group of the request: ctrl+c asks again while it runs (`tui.dashboard.keys.quitting.UNFINISHED_WORK`)."""
    HEADING: ClassVar[str]
    """The title above the form: what it does and the endpoint, `Scrape a URL · POST /v2/scrape`."""
    PATH: ClassVar[str]
    """The endpoint, for curl."""
    BODY: ClassVar[type[FormBody]]
    """The form's fields (`make_fields` builds it, with the id `<NAME>-form`)."""
    NOTHING_DONE: ClassVar[str]
    """The toast of a refusal: `Nothing was scraped; the form says why and keeps what you typed.`"""
    CANCELLED: ClassVar[str]
    """What the progress line says after Esc abandoned the request."""
    ANSWER: ClassVar[str] = ""
    """The id of the answer's place, when the answer opens in place of the form (else the form closes)."""
    ENTER_SENDS: ClassVar[bool] = True
    """Whether Enter in a one-line field sends, as ctrl+s does."""
    READABLE_CURL: ClassVar[bool] = False
    """Whether curl is shown with its body one member a line (a long body: a batch's URLs)."""
    FIRST: ClassVar[str] = "#url"
    """The field that has the focus when the form opens or comes back."""
    CANCEL_ACTION: ClassVar[str] = "cancel_send"
    """The action Esc runs while sending (as given to `launch_bindings`): `action_cancel_send` under that name."""

    DEFAULT_CSS = """
    LaunchFormScreen { layout: vertical; }
    LaunchFormScreen .form-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    LaunchFormScreen ContentSwitcher { height: 1fr; }
    LaunchFormScreen FormBody { height: 1fr; }
    LaunchFormScreen #curl-panel { height: auto; max-height: 12; }
    LaunchFormScreen #curl-scroll { height: auto; max-height: 9; }
    LaunchFormScreen #curl-text { color: $text-muted; }
    """

    pending: reactive[Any] = reactive(None, bindings=True, init=False)
    """The request on its way, None when none is (ctrl+s, Esc and the rest depend on it)."""
    view: reactive[str] = reactive("", bindings=True, init=False)
    """Which of the form (`<NAME>-form`) and the answer (`ANSWER`) is on screen (the ContentSwitcher shows it)."""

    def __init__(self, client: WdsClient, webhooks: WebhookAddress | None = None) -> None:
        super().__init__()
        self.client = client
        self.webhooks = webhooks  # the dashboard's webhook inbox: offered as `#webhook` when it listens
        self.offered: str | None = None  # the inbox address last offered there
        self.sent: Any = None  # the request whose answer is shown
        self._send: Worker[None] | None = None
        self.set_reactive(LaunchFormScreen.view, f"{self.NAME}-form")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Esc while sending runs under the form's own name (as `[keys]` knows it) the one cancel.
        setattr(cls, f"action_{cls.CANCEL_ACTION}", cls.action_cancel_send)

    # --- what each form says -----------------------------------------------------------

    def make_fields(self) -> FormBody:
        """The form's body."""
        return self.BODY(id=f"{self.NAME}-form")

    async def call(self, request: Any) -> Any:
        """Send `request` with the client; the answer, or a `WdsError`."""
        raise NotImplementedError

    def words(self, request: Any) -> Mapping[type[WdsError], Say]:
        """The form's own words for a refusal of `request`, over those of `tui.dashboard.kit.error_words`."""
        return {}

    def progress(self, request: Any, elapsed: int) -> str:
        """The line under the title while `request` is on its way for `elapsed` seconds."""
        raise NotImplementedError

    async def answered(self, answer: Any, request: Any) -> None:
        """Show the answer to `request` (in place: `show_answer`), or close and open where it goes."""
        raise NotImplementedError

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label(self.HEADING, id=f"{self.NAME}-title", classes="form-title")
        yield RequestProgress(id=f"{self.NAME}-progress")
        if self.ANSWER:
            with ContentSwitcher(initial=f"{self.NAME}-form"):
                yield self.make_fields()
                yield Vertical(id=self.ANSWER)
        else:
            yield self.make_fields()
        # Scrolled: a thousand URLs make a long command.
        with (
            Collapsible(
                title="The request as curl (key from the WDS_API_KEY variable)", collapsed=False, id="curl-panel"
            ),
            VerticalScroll(id="curl-scroll"),
        ):
            yield Static("", id="curl-text", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#curl-panel").display = False
        self.query_one(self.FIRST).focus()

    def on_screen_resume(self) -> None:
        # On opening, and back from the inbox (w started it): a form with a webhook field is offered the
        # inbox's address if the field is empty, and its hint says the inbox listens. Once per address
        # (`offered`): a field emptied on purpose stays empty after the help screen.
        address = self.webhooks.address if self.webhooks is not None else None
        if address is None or not self.query("#webhook"):
            return
        self.query_one("#webhook-hint", Static).update(INBOX_HINT)
        webhook = self.query_one("#webhook", Input)
        if address != self.offered and not webhook.value.strip():
            webhook.value = address
        self.offered = address

    @property
    def fields(self) -> Any:
        """The form's fields."""
        return self.query_one(FormBody)

    # --- state ------------------------------------------------------------------------

    @property
    def sending(self) -> bool:
        """Whether a request is on its way."""
        return self.pending is not None

    @property
    def showing_answer(self) -> bool:
        """Whether the answer is on screen (rather than the form)."""
        return bool(self.ANSWER) and self.view == self.ANSWER

    def watch_view(self, view: str) -> None:
        self.query_one(ContentSwitcher).current = view

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == self.CANCEL_ACTION:
            return self.sending
        if action == "back_to_form":
            return not self.sending and self.showing_answer
        if action in ("submit", "close"):
            return not self.sending and not self.showing_answer
        return True

    # --- sending ------------------------------------------------------------------------

    @on(Input.Submitted, "FormBody Input")
    def _enter_in_a_field(self) -> None:
        if self.ENTER_SENDS:
            self.action_submit()

    @mutates("sending this form")
    def action_submit(self) -> None:
        """Send if every value is within its limits."""
        if self.sending or self.showing_answer:
            return  # one request per press: a second ctrl+s must not send a second one
        request = self.fields.build_request()
        if request is None:
            return
        self.query_one("#curl-panel").display = False  # it showed an earlier request; ctrl+y shows this one
        self.pending = request
        self._send = self.run_worker(self.send(request), exclusive=True, exit_on_error=False, group=self.GROUP)
        self.query_one(RequestProgress).start(lambda elapsed: self.progress(request, elapsed) if self.sending else "")

    async def send(self, request: WireModel) -> None:
        """Send; on a refusal keep the form as typed and say why; on an answer go on with it."""
        try:
            answer = await self.call(request)
        except asyncio.CancelledError:
            raise  # Esc: action_cancel_send has said so already
        except WdsError as exc:
            self._stopped("")
            self.refused(exc, request)
            return
        except Exception:  # a bug of ours: the app's sink says so; the form must not stay "sending"
            self._stopped("")
            raise
        self._stopped("")
        self.fields.show_issues([])
        await self.answered(answer, request)

    def refused(self, error: WdsError, request: Any) -> None:
        """Say why `request` was refused: under the fields it names, else above the form, and in a toast."""
        words = refusal(error, self.words(request))
        # Short: the whole explanation is above the form, where it stays.
        self.notify(self.NOTHING_DONE, title=words.title, severity="error", timeout=6)
        self.fields.show_issues(words.issues, "" if words.issues else f"{words.title}: {words.text}")

    def _stopped(self, note: str) -> None:
        self.pending = None
        self.query_one(RequestProgress).stop(note)

    def action_cancel_send(self) -> None:
        """Abandon the request on its way; the form stays as typed."""
        if self._send is not None:
            self._send.cancel()
        self._stopped(self.CANCELLED)
        self.query_one(self.FIRST).focus()

    # --- the answer in place ------------------------------------------------------------

    async def show_answer(self, view: Any, request: WireModel, title: str, focus: str) -> None:
        """Put `view` in place of the form, `title` above it (as text), and the keys on `focus`."""
        self.sent = request
        holder = self.query_one(f"#{self.ANSWER}", Vertical)
        await holder.remove_children()
        await holder.mount(view)
        self.view = self.ANSWER
        self.query_one(f"#{self.NAME}-title", Label).update(shown(title))  # a URL may hold [ ]
        self.query_one(focus).focus()

    def action_back_to_form(self) -> None:
        """Back to the form as it was sent, to change an option and send again."""
        self.view = f"{self.NAME}-form"
        self.query_one(f"#{self.NAME}-title", Label).update(self.HEADING)
        self.query_one(self.FIRST).focus()

    def action_close(self) -> None:
        self.dismiss(None)

    # --- curl ---------------------------------------------------------------------------

    def action_copy_curl(self) -> None:
        """Copy the request as curl (the key read from $WDS_API_KEY) through OSC 52, and show it for terminals without OSC 52."""
        request = self.sent if self.showing_answer else self.fields.build_request()
        if request is None:
            self.notify(
                "Fix the fields marked first: curl would send what the service refuses.",
                title="Nothing copied",
                severity="warning",
            )
            return
        body = request.to_wire()
        command = curl_command("POST", self.client.base_url, self.PATH, body=body)
        self.app.copy_to_clipboard(command)
        # A long body shown one member a line: wrapped, it would break inside strings when copied from the screen.
        readable = readable_curl(command, body) if self.READABLE_CURL else command
        self.query_one("#curl-text", Static).update(shown(readable, lines=True))
        panel = self.query_one("#curl-panel", Collapsible)
        panel.display = True
        panel.collapsed = False
        self.notify(
            "It reads the key from the WDS_API_KEY variable; also shown below, for terminals without OSC 52.",
            title="Copied as curl",
        )
