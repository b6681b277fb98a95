"""What is known of a browser session that has ended: read-only, from the list and from this run.

The service lists an ended session with its id, status and times; the rest
comes from this dashboard: the profile it was created with, how and when it
ended (deleted here, its ttl, seen between two polls), and the code run in its
console during this run (`tui.dashboard.features.console.history`), each run with its outcome.
Nothing here calls the service: an ended session has nothing more to tell.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Label, Static

from tui.dashboard.features.console.history import RunHistory, RunRecord
from tui.dashboard.features.console.output import PARTS, history_line, parts_of, summary_of
from tui.dashboard.kit.formatting import NO_VALUE, local_time, short_id
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.footer import Footer
from tui.dashboard.shell.intents import OpenEndedSession


def ended_text(intent: OpenEndedSession) -> str:
    """How and when the session ended, in one line."""
    if intent.ended_after is not None and intent.ended_at is not None:
        when = f"between {local_time(intent.ended_after)} and {local_time(intent.ended_at)}"
    elif intent.ended_at is not None:
        when = local_time(intent.ended_at)
    else:
        return intent.ended or NO_VALUE
    return f"{when} · {intent.ended}" if intent.ended else when


def run_text(record: RunRecord) -> Content:
    """One console run: its history line, the code as sent, how it ended, and each part it produced."""
    lines = [Content.from_rich_text(history_line(record)).stylize("bold")]
    lines.extend(Content.styled(f"  {line}", "$text-muted") for line in record.spec.text.splitlines())
    lines.append(Content(f"  {summary_of(record)}"))
    texts = parts_of(record)
    for part, heading in PARTS:
        text = texts[part]
        if text:
            lines.append(Content.styled(f"  {heading}", "bold"))
            lines.extend(Content(f"    {line}") for line in text.splitlines())
    return Content("\n").join(lines)


class SessionDetailScreen(Screen[None]):
    """An ended session: id, status, profile, created, last activity, ended, and this run's console runs."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Back", id="session_detail.close")]

    DEFAULT_CSS = """
    SessionDetailScreen { layout: vertical; }
    SessionDetailScreen .session-title { height: 1; padding: 0 1; text-style: bold; background: $panel; width: 100%; }
    SessionDetailScreen #session-body { height: 1fr; padding: 0 1; }
    SessionDetailScreen .session-facts {
        grid-size: 2; grid-columns: auto 1fr; grid-gutter: 0 2; height: auto; margin: 1 0;
    }
    SessionDetailScreen .fact-name { color: $text-muted; text-style: bold; }
    SessionDetailScreen .section-title { text-style: bold; margin-top: 1; }
    SessionDetailScreen .session-run { margin-top: 1; }
    SessionDetailScreen .session-note { color: $text-muted; }
    """

    def __init__(self, ended: OpenEndedSession, history: RunHistory | None) -> None:
        super().__init__()
        self.ended = ended
        self.history = history

    def compose(self) -> ComposeResult:
        session = self.ended.session
        yield Label(shown(f"Browser session {short_id(session.id)} · {session.status}"), classes="session-title")
        with VerticalScroll(id="session-body"):
            with Grid(classes="session-facts"):
                for name, value in self.facts():
                    yield Label(name, classes="fact-name")
                    yield Label(shown(value), id=f"session-{name.replace(' ', '-')}")
            yield Static("Console runs in this dashboard", classes="section-title")
            runs = list(self.history or [])
            if not runs:
                yield Static(
                    "None: no code was run in this session's console since this dashboard started.",
                    id="session-no-runs",
                    classes="session-note",
                    markup=False,
                )
            for record in reversed(runs):  # newest first, as in the console
                yield Static(shown(run_text(record), lines=True), classes="session-run")  # what the code printed
        yield Footer()

    def facts(self) -> list[tuple[str, str]]:
        """(name, value) of what is known, in the order shown."""
        session = self.ended.session
        return [
            ("id", session.id),
            ("status", str(session.status)),
            ("profile", self.ended.profile or NO_VALUE),
            ("created", local_time(session.created_at)),
            ("last activity", local_time(session.last_activity)),
            ("ended", ended_text(self.ended)),
            *([("reason", session.end_reason)] if session.end_reason else []),  # as the service says it
        ]

    def on_mount(self) -> None:
        self.query_one("#session-body").focus()  # arrow and page keys scroll a long history

    def action_close(self) -> None:
        """Back to the sessions."""
        self.dismiss(None)
