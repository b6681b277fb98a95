"""How the execute console shows runs: the latest one in its parts, and the list of all.

`RunOutput` shows one run:
a summary line (state, duration measured by the console, exit code, killed),
then each part that has something to say: why the call failed, the code's
`error`, the AI agent's `output`, `stdout`, `result` and `stderr`. Parts
without content are hidden rather than shown empty, so a small terminal shows
what matters first; the summary still says when a part was empty.
`RunList` lists a target's runs, newest first, one line each.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from tui.dashboard.features.console.history import RunHistory, RunRecord
from tui.dashboard.kit.outside_text import shown, visible

PARTS: tuple[tuple[str, str], ...] = (
    ("failure", "call failed"),
    ("error", "error"),
    ("output", "output (AI agent)"),
    ("stdout", "stdout"),
    ("result", "result"),
    ("stderr", "stderr"),
)
"""Part id and heading, in the order shown (what went wrong comes first)."""

STATE_MARKS = {"running": "…", "succeeded": "✓", "failed": "✗", "call failed": "!", "cancelled": "–"}


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def summary_of(record: RunRecord) -> str:
    """One line: how the run ended, how long it took, exit code and killed."""
    took = format_duration(record.duration_s)
    state = record.state
    if state == "running":
        return "running…"
    if state == "cancelled":
        return f"cancelled after {took} (the console was closed); the code is kept in the history"
    if state == "call failed":
        return f"✗ the call failed after {took}; nothing was lost: the code is still in the editor"
    outcome = record.outcome
    assert outcome is not None
    mark = "✗" if outcome.failed else "✓"
    exit_code = "—" if outcome.exit_code is None else str(outcome.exit_code)
    killed = "killed by the timeout" if outcome.killed else "not killed"
    empty = [name for name in ("stdout", "stderr") if not getattr(outcome, name)]
    tail = f" · {' and '.join(empty)} empty" if empty else ""
    return f"{mark} {state} in {took} · exit code {exit_code} · {killed}{tail}"


def history_line(record: RunRecord) -> Text:
    """A run as one line of the history list: number, time, language, outcome, first line."""
    kind = record.spec.language if record.spec.mode == "code" else "prompt"
    at = record.started_at.astimezone().strftime("%H:%M:%S")
    line = Text(f"#{record.number} {at} {kind:<6} {STATE_MARKS[record.state]} ")
    line.append(visible(record.spec.headline[:80]), style="dim" if record.state == "running" else "")
    return line


def stop_notice(duration_ms: int | None, credits_billed: float | None) -> str:
    """What stopping a scrape's browser session cost, as a sentence."""
    took = "" if duration_ms is None else f" after {format_duration(duration_ms / 1000)}"
    billed = "" if credits_billed is None else f"; {credits_billed:g} credits billed"
    return f"The session ended{took}{billed}."


def parts_of(record: RunRecord) -> dict[str, str | None]:
    """The text of each part (None hides it)."""
    texts: dict[str, str | None] = dict.fromkeys(part for part, _ in PARTS)
    if record.failure is not None:
        texts["failure"] = f"{record.failure.title}\n{record.failure.message}"
    outcome = record.outcome
    if outcome is not None:
        for name in ("error", "output", "stdout", "result", "stderr"):
            value = getattr(outcome, name)
            texts[name] = value.removesuffix("\n") if value else None  # a final newline is no content
        if outcome.result is not None and outcome.result == outcome.stdout:
            texts["result"] = None  # the contract's alias of stdout: saying it twice helps nobody
    return texts


class RunOutput(VerticalScroll):
    """Shows the latest run (or a notice) in parts; see the module doc."""

    DEFAULT_CSS = """
    RunOutput { height: 1fr; border: round $primary 40%; padding: 0 1; }
    RunOutput:focus-within { border: round $primary; }
    RunOutput #out-summary { height: auto; color: $text-muted; }
    RunOutput #out-summary.-failed { color: $error; }
    RunOutput #out-summary.-succeeded { color: $success; }
    RunOutput .out-part { height: auto; margin-top: 1; }
    RunOutput .out-heading { color: $text-muted; text-style: bold; }
    RunOutput .out-text { height: auto; }
    RunOutput #out-failure .out-text, RunOutput #out-error .out-text { color: $error; }
    RunOutput #out-stderr .out-text { color: $warning; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.border_title = "Output"
        self._summary = ""

    def compose(self) -> ComposeResult:
        yield Static("Nothing run yet. Write code and press ctrl+r.", id="out-summary", markup=False)
        for part, heading in PARTS:
            with Vertical(id=f"out-{part}", classes="out-part"):
                yield Label(heading, classes="out-heading")
                yield Static("", classes="out-text", markup=False)

    def on_mount(self) -> None:
        self._show_parts(dict.fromkeys(part for part, _ in PARTS))

    def show_run(self, record: RunRecord) -> None:
        """Show `record` as it stands now (running, or ended)."""
        self._set_summary(summary_of(record), record.state)
        self._show_parts(parts_of(record))
        self.scroll_home(animate=False)

    def show_notice(self, title: str, message: str, *, failed: bool = False) -> None:
        """Show something that is not a run (e.g. the answer to stopping a session)."""
        self._set_summary(title, "failed" if failed else "notice")
        texts: dict[str, str | None] = dict.fromkeys(part for part, _ in PARTS)
        texts["failure" if failed else "output"] = message
        self._show_parts(texts, headings={"output": "notice"})

    def part_text(self, part: str) -> str | None:
        """The text shown in a part, or None when that part is hidden."""
        box = self.query_one(f"#out-{part}", Vertical)
        return str(box.query_one(".out-text", Static).render()) if box.display else None

    @property
    def summary(self) -> str:
        return self._summary

    def _set_summary(self, text: str, state: str) -> None:
        summary = self.query_one("#out-summary", Static)
        summary.set_class(state in ("failed", "call failed"), "-failed")
        summary.set_class(state == "succeeded", "-succeeded")
        if text != self._summary:
            self._summary = text
            summary.update(shown(text))

    def _show_parts(self, texts: dict[str, str | None], headings: dict[str, str] | None = None) -> None:
        names = dict(PARTS) | (headings or {})
        for part, _ in PARTS:
            box = self.query_one(f"#out-{part}", Vertical)
            text = texts.get(part)
            box.display = text is not None
            if text is not None:
                box.query_one(".out-heading", Label).update(names[part])
                # What the code printed, or the service's reason: shown as text, controls visible.
                box.query_one(".out-text", Static).update(shown(text, lines=True))


class RunList(OptionList):
    """The history of runs, newest first; options are keyed by run number."""

    DEFAULT_CSS = """
    RunList { height: 8; border: round $primary 40%; text-wrap: nowrap; text-overflow: ellipsis; }
    RunList:focus { border: round $primary; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.border_title = "History (Enter recalls)"

    def show(self, history: RunHistory) -> None:
        """List every run of `history` and highlight the newest."""
        self.set_options(Option(history_line(run), id=str(run.number)) for run in reversed(list(history)))
        if self.option_count:
            self.highlighted = 0

    def update_run(self, record: RunRecord) -> None:
        """Redraw the line of one run (it ended)."""
        self.replace_option_prompt(str(record.number), history_line(record))

    @property
    def highlighted_number(self) -> int | None:
        option = self.highlighted_option
        return int(option.id) if option is not None and option.id else None
