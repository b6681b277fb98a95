"""The browser sessions pane: list, filter, create, delete, copy URLs, open the console or an ended session.

When does a session end? The list endpoint carries neither `expiresAt` nor the
session's `activityTtl` (nor its profile), so the pane remembers them for the
sessions *this app* created (from the create response and the form, see
`tui.dashboard.features.sessions.notes`) and shows, for those, the
local clock time at which the session will end: the earlier of `expiresAt` and
`lastActivity + activityTtl`, marked "idle" when the idle limit comes first.
A clock time rather than a countdown: it only changes when the session's
activity does, so an idle dashboard repaints nothing, and it is exact, where a
countdown computed at each poll is up to one interval wrong. Other sessions
show "—": nobody can know when they end. The "Ends" column comes third so that
it stays in view in a quarter of an 80-column screen, where the other
columns give way (`SQUEEZE`); zoom (z) shows them all, the live view link whole.

Enter on an ended session shows what is known of it (times, profile, the
console runs of this dashboard), where on an active one it opens the console.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import urlsplit

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.reactive import reactive
from textual.style import Style
from textual.widgets import Static

from tui.api.errors import WdsError
from tui.contract.limits import ACTIVITY_TTL_DEFAULT
from tui.contract.models.browser import BrowserSession, SessionStatus
from tui.contract.requests import BrowserStatus
from tui.dashboard.features.sessions.notes import KnownLifetime, SessionNotebook, ends_at
from tui.dashboard.kit.formatting import NO_VALUE, clip, clock_time, short_id
from tui.dashboard.kit.job_copy import CopiesJobs, JobRef, job_copy_bindings
from tui.dashboard.kit.monitor_feed import tell_monitor
from tui.dashboard.kit.mutations import mutates
from tui.dashboard.kit.pane import Pane
from tui.dashboard.kit.widgets.live_table import Drop, LiveTable, Row, Shorten, Squeeze
from tui.dashboard.kit.widgets.table_fit import first_word, without_seconds
from tui.dashboard.shell.intents import Confirm, NewSession, OpenConsole, OpenEndedSession

if TYPE_CHECKING:
    from tui.dashboard.features.sessions.form import SessionCreated

STATUS_FILTERS: tuple[str, ...] = ("all", "active", "destroyed")
MONITORED_FILTERS = frozenset({"all", "active"})
"""The lists that hold every live session: only those are told to the monitor (`destroyed` would end them all)."""
PROFILE_WIDTH = 16
COLUMNS = ("ID", "Status", "Ends", "Profile", "Created", "Last activity", "Live view")
SQUEEZE = (
    Shorten("Last activity", lambda cell: cell, label="Active"),
    Shorten("Ends", without_seconds),
    Shorten("Created", without_seconds, label="Start"),
    Shorten("Last activity", without_seconds, label="Active"),
    Squeeze("Live view", 16),
    Squeeze("Profile", 8),
    Drop("Live view"),
    Drop("Profile"),
    Drop("Created"),
    Shorten("Status", first_word, label=""),
    Drop("Last activity"),
)
"""How the columns give way in a narrow pane, in order: id, status and end stay in view.

Zoomed at 120 columns the live view link is whole: the header and the seconds that give way first make room for it."""


@dataclass(eq=False)
class SessionStarted(Message):
    """A session the session form started, posted down to the pane that asked for the form (`NewSession.asker`)."""

    created: SessionCreated


@dataclass(frozen=True)
class SessionsView:
    """One answer of the list endpoint and the filter it was asked with."""

    status: str
    sessions: tuple[BrowserSession, ...]


def short_url(url: str | None) -> str:
    """Host and path, without the query (where the secret token lives); the table cuts it to its width."""
    if not url:
        return NO_VALUE
    parts = urlsplit(url)
    return f"{parts.netloc}{parts.path}"


def status_text(status: str) -> str:
    marks: dict[str, str] = {SessionStatus.ACTIVE: "●", SessionStatus.DESTROYED: "○"}
    return f"{marks.get(status, '?')} {status}"


def ends_text(session: BrowserSession, known: KnownLifetime | None, now: datetime) -> str:
    if not session.is_active:
        return "ended"
    end = ends_at(session, known)
    if end is None:
        return NO_VALUE
    at, idle = end
    return clock_time(at, now) + (" idle" if idle else "")


def copy_notice(what: str, url: str) -> str:
    # Anyone holding a URL with a token can drive the browser: say so.
    secret = " (contains a secret token)" if "token=" in url.lower() else ""
    return f"copied {what}{secret}"


class StatusFilterBar(Static):
    """One line: the status filter, clickable, and how many sessions are listed."""

    DEFAULT_CSS = """
    StatusFilterBar { text-wrap: nowrap; text-overflow: ellipsis; }
    """

    @dataclass(eq=False)
    class Picked(Message):
        """The user clicked a status."""

        status: str

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[str, int | None, int] | None = None

    def show(self, status: str, count: int | None) -> None:
        """Draw the bar; a no-op when nothing in it changed."""
        if (status, count, self.size.width) == self._shown:
            return
        self._shown = (status, count, self.size.width)
        options = []
        for option in STATUS_FILTERS:
            if option == status:
                options.append(Content.styled(f" {option} ", "reverse bold"))
            else:
                # A clickable option built as text and a style, not as markup written around a value.
                options.append(Content.assemble((f" {option} ", Style.from_meta({"@click": f"pick({option!r})"}))))
        counted = f" · {count} session{'s' if count != 1 else ''}" if count is not None else ""
        full = Content("").join([Content("Status "), *options, Content("  s: next" + counted)])
        # A quarter of 80 columns: the options and the count, without the words around them.
        short = Content("").join([*options, Content(f" · {count} listed" if count is not None else "")])
        self.update(full if full.cell_length <= self.size.width or not self.size.width else short)

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(*self._shown[:2])

    def action_pick(self, status: str) -> None:
        self.post_message(self.Picked(status))


class SessionsPane(Pane[SessionsView], CopiesJobs):
    """Browser sessions of the team, with create, delete, copy and console keys."""

    TITLE: ClassVar[str] = "Browser sessions"
    BINDINGS: ClassVar[list[BindingType]] = [
        *Pane.BINDINGS,
        Binding("s", "cycle_status", "Status filter", id="sessions.cycle_status"),
        Binding("c", "create", "Create", id="sessions.create"),
        Binding("d", "delete", "Delete", id="sessions.delete"),
        *job_copy_bindings("sessions", url_action="copy_cdp", url_label="Copy cdpUrl", show_url=True),
        Binding("v", "copy_live_view", "Copy live view", id="sessions.copy_live_view"),
        # priority: otherwise the table's own (hidden) Enter binding hides this one from the footer
        Binding("enter", "open_console", "Console", key_display="⏎", priority=True, id="sessions.open_console"),
        # Enter on an ended session: check_action lets only one of the two run (and show).
        Binding("enter", "show_ended", "Details", key_display="⏎", priority=True, id="sessions.show_ended"),
    ]

    status_filter: reactive[str] = reactive("all", init=False)
    highlighted: reactive[BrowserSession | None] = reactive(None, bindings=True, init=False)
    """The session under the cursor, as last listed: what `check_action` answers by (a change redraws the keys)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.notes = SessionNotebook()
        self._select_next: str | None = None

    def compose(self) -> ComposeResult:
        yield StatusFilterBar(id="sessions-filter", classes="pane-toolbar")
        yield LiveTable(*COLUMNS, id="sessions-table", squeeze=SQUEEZE)
        yield from self.compose_status()

    def on_mount(self) -> None:
        # Textual also runs Pane.on_mount (handlers run along the MRO): that starts the polling.
        self.query_one(StatusFilterBar).show(self.status_filter, None)

    # --- data -------------------------------------------------------------------

    async def fetch(self) -> SessionsView:
        status = self.status_filter
        wire_status: BrowserStatus | None = None if status == "all" else status  # type: ignore[assignment]
        listing = await self.client.browser.list(status=wire_status)
        if status in MONITORED_FILTERS:  # the monitor reads a session missing from the list as ended
            tell_monitor(self, lambda monitor: monitor.saw_sessions(listing.sessions))
        return SessionsView(status, tuple(listing.sessions))

    def show_again(self, data: SessionsView) -> bool:
        return self.show(data)  # the time left moves with the clock

    def show(self, data: SessionsView) -> bool:
        now = self.clock()
        self.notes.observe(data.sessions, now, complete=data.status == "all")
        table = self.query_one(LiveTable)
        changed = table.sync([self._row(session, now) for session in data.sessions])
        if self._select_next in table.row_keys:  # the session just created
            table.move_cursor(row=table.row_keys.index(self._select_next), animate=False)
            changed = True
        self._select_next = None
        self.query_one(StatusFilterBar).show(data.status, len(data.sessions))
        self.highlighted = self.selected_session()
        return changed

    def _row(self, session: BrowserSession, now: datetime) -> Row:
        known = self.notes.lifetime(session.id)
        return (
            session.id,
            (
                short_id(session.id),
                status_text(session.status),
                ends_text(session, known, now),
                clip(self.notes.profile(session) or NO_VALUE, PROFILE_WIDTH),
                clock_time(session.created_at, now),
                clock_time(session.last_activity, now),
                short_url(session.live_view_url),
            ),
        )

    def selected_session(self) -> BrowserSession | None:
        """The session under the table's cursor, as last listed."""
        if self.data is None:
            return None
        try:
            key = self.query_one(LiveTable).selected_key()
        except NoMatches:  # asked before compose (check_action can be)
            return None
        return next((s for s in self.data.sessions if s.id == key), None)

    # --- what works now -------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        session = self.selected_session()
        if action in ("delete", "open_console"):
            return session is not None and session.is_active or None
        if action == "show_ended":
            return session is not None and not session.is_active or None
        if action == "copy_job_id":
            return session is not None or None
        if action == "copy_cdp":
            return session is not None and bool(session.cdp_url) or None
        if action == "copy_live_view":
            return session is not None and bool(session.live_view_url) or None
        return super().check_action(action, parameters)

    @on(LiveTable.RowHighlighted)
    def _cursor_moved(self) -> None:
        self.highlighted = self.selected_session()

    @on(LiveTable.RowSelected)
    def _row_chosen(self, event: LiveTable.RowSelected) -> None:
        event.stop()
        if self.check_action("open_console", ()):
            self.action_open_console()
        elif self.check_action("show_ended", ()):
            self.action_show_ended()

    # --- filter ---------------------------------------------------------------------

    def action_cycle_status(self) -> None:
        """Show all sessions, then only active ones, then only destroyed ones."""
        index = STATUS_FILTERS.index(self.status_filter)
        self.status_filter = STATUS_FILTERS[(index + 1) % len(STATUS_FILTERS)]

    @on(StatusFilterBar.Picked)
    def _status_picked(self, message: StatusFilterBar.Picked) -> None:
        self.status_filter = message.status

    def watch_status_filter(self, status: str) -> None:
        count = len(self.data.sessions) if self.data is not None and self.data.status == status else None
        self.query_one(StatusFilterBar).show(status, count)
        self.refresh_data()

    # --- create -----------------------------------------------------------------------

    @mutates("creating a browser session")
    def action_create(self) -> None:
        """Ask for the form that starts a new session (the form sends the request; the session comes back here)."""
        self.post_message(NewSession(asker=self))

    @on(SessionStarted)
    def _session_started(self, message: SessionStarted) -> None:
        self.session_created(message.created)

    def session_created(self, created: SessionCreated) -> None:
        """A session this app started: remember when it ends and its profile, select it, say so."""
        notes = self.notes.of(created.session.id)
        notes.lifetime = lifetime = self._lifetime(created)
        # Only the create answer says when a session ends (the list never does): the monitor's expiry rule needs it.
        ttl = lifetime.activity_ttl
        tell_monitor(self, lambda monitor: monitor.saw_session_created(created.session, activity_ttl=ttl))
        notes.profile = created.request.profile.name if created.request.profile is not None else None
        self._select_next = created.session.id
        self.notify(f"session {short_id(created.session.id)} started", title="Browser session")
        self.refresh_data()

    def _lifetime(self, created: SessionCreated) -> KnownLifetime:
        expires, request = created.session.expires_at, created.request
        if expires is None and request.ttl is not None:
            expires = self.clock() + timedelta(seconds=request.ttl)
        return KnownLifetime(expires, request.activity_ttl or ACTIVITY_TTL_DEFAULT)

    # --- delete -----------------------------------------------------------------------

    @mutates("deleting a browser session")
    def action_delete(self) -> None:
        """Ask, then stop the selected session."""
        session = self.selected_session()
        if session is None:
            return
        message = (
            f"Delete browser session {short_id(session.id)}?\n"
            "Its browser is closed now; code running in it stops and its pages are gone."
        )
        self.post_message(Confirm(message, "Delete", partial(self.delete_session, session.id)))

    @work(group="sessions-delete", exit_on_error=False)
    async def delete_session(self, session_id: str) -> None:
        """Stop a session and say what it cost."""
        try:
            result = await self.client.browser.delete(session_id)
        except WdsError as exc:
            self.notify(exc.message, title=exc.title, severity="error", timeout=10)
            return
        details = []
        if result.session_duration_ms is not None:
            details.append(f"ran {result.session_duration_ms / 1000:.0f} s")
        if result.credits_billed is not None:
            details.append(f"{result.credits_billed:g} credits billed")
        notes = self.notes.of(session_id)
        notes.deleted_at, notes.delete_summary = self.clock(), ", ".join(details)
        suffix = f" ({', '.join(details)})" if details else ""
        self.notify(f"session {short_id(session_id)} deleted{suffix}", title="Browser session")
        self.refresh_data()

    # --- copy and console -----------------------------------------------------------------

    def job_to_copy(self) -> JobRef | None:
        session = self.selected_session()
        return JobRef("browser", session.id) if session is not None else None

    def action_copy_cdp(self) -> None:
        """Put the selected session's cdpUrl on the clipboard (OSC 52, works over SSH)."""
        self._copy("cdpUrl", lambda s: s.cdp_url)

    def action_copy_live_view(self) -> None:
        """Put the selected session's live view URL on the clipboard."""
        self._copy("live view URL", lambda s: s.live_view_url)

    def _copy(self, what: str, pick: Callable[[BrowserSession], str | None]) -> None:
        session = self.selected_session()
        url = pick(session) if session is not None else None
        if not url:
            self.notify(f"this session has no {what}", severity="warning")
            return
        self.app.copy_to_clipboard(url)
        self.notify(copy_notice(what, url), title="Clipboard")

    def action_open_console(self) -> None:
        """Ask the app for the execute console on the selected session."""
        session = self.selected_session()
        if session is not None and session.is_active:
            self.post_message(OpenConsole(session))

    def action_show_ended(self) -> None:
        """Ask the app for what is known of the selected session, which has ended."""
        session = self.selected_session()
        if session is None or session.is_active:
            return
        end = self.notes.ended(session)
        profile = self.notes.profile(session)
        self.post_message(OpenEndedSession(session, profile, end.how, end.at, end.after))
