"""How one question to the support agent reads: its state, the diagnosis, the fix, the test of the fix.

`SupportAnswerView` shows one `AskRecord` in parts, each hidden when the
envelope has nothing for it, so a small terminal shows what matters first:
a summary line (state, time taken, confidence), what went wrong with the call
(a 504's "out of time" note sits here, above the partial answer it kept), the
diagnosis as Markdown, the suggested fix (`fixParameters`, as indented JSON),
whether the agent tested it (`validation`), why it is stuck (`feedback`), and
the sources the answer cites.
"""

from __future__ import annotations

import json
import re
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Label, Markdown, Static

from tui.contract.limits import ASK_BUDGET_SECONDS
from tui.contract.models.support import FixValidation, SupportAskPartial
from tui.dashboard.features.support.log import AskRecord
from tui.dashboard.kit.formatting import clip
from tui.dashboard.kit.outside_text import shown
from tui.dashboard.kit.widgets.hyperlink import links_on, listed_links
from tui.dashboard.kit.widgets.outside_markdown import OutsideMarkdown

PARTS: tuple[tuple[str, str], ...] = (
    ("problem", "what went wrong"),
    ("answer", "Diagnosis"),
    ("fix", "Suggested fix: apply these parameters"),
    ("validation", "Fix tested"),
    ("stuck", "The agent is stuck"),
    ("sources", "Cited in the answer"),
)
"""Part id and heading, in the order shown."""

QUESTION_SHOWN = 400
"""Characters of the question shown above an answer: enough to tell two questions apart."""

STATE_MARKS = {"asking": "◌", "answered": "✓", "stuck": "⚠", "partial": "✗", "failed": "✗", "cancelled": "⊘"}

# URLs, documentation paths (docs/caching.md#anchor) and endpoints (GET /v2/team/activity) an answer names.
_CITATION = re.compile(
    r"https?://[^\s<>()\"']+|\b[\w./-]+\.md(?:#[\w-]+)?|\b(?:GET|POST|PUT|PATCH|DELETE) /v\d+/[\w/{}.-]+"
)


def took(seconds: float | None) -> str:
    """`850 ms`, `12.4 s`."""
    if seconds is None:
        return "—"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def summary_of(record: AskRecord, elapsed: float | None = None) -> str:
    """One line: how the question ended (or how long it has been asked), and how sure the agent is."""
    state = record.state
    mark = STATE_MARKS[state]
    if state == "asking":
        waited = f" {elapsed:.0f} s" if elapsed is not None else ""
        return (
            f"{mark} asking the support agent…{waited} (usually 15 to 30 s, at most {ASK_BUDGET_SECONDS}) · Esc cancels"
        )
    if state == "cancelled":
        return f"{mark} cancelled after {took(record.duration_s)}; the question is kept, ctrl+s sends it again"
    if state in ("failed", "partial"):
        assert record.failure is not None
        tail = ": the partial answer is below" if state == "partial" else ""
        return f"{mark} {record.failure.title} after {took(record.duration_s)}{tail}"
    answer = record.answer
    assert answer is not None
    confidence = f" · confidence {answer.confidence}" if answer.confidence else ""
    stuck = "the agent is stuck · " if state == "stuck" else ""
    return f"{mark} {stuck}answered in {took(record.duration_s)}{confidence}"


def citations(text: str) -> list[str]:
    """The URLs, doc paths and endpoints `text` cites, in order, once each."""
    found: list[str] = []
    for match in _CITATION.finditer(text):
        cited = match.group(0).rstrip(".,;:!?")
        if cited not in found:
            found.append(cited)
    return found


def fix_text(fix: dict[str, Any]) -> str:
    """The suggested parameters as indented JSON (null means: leave the parameter out)."""
    text = json.dumps(fix, indent=2, ensure_ascii=False)
    if any(value is None for value in fix.values()):
        text += "\n(null: leave that parameter out)"
    return text


def validation_text(validation: FixValidation) -> str:
    """Whether the agent tried its fix against the live API, and what came of it."""
    result = str(validation.result) if validation.result is not None else None
    evidence = f"\n{validation.evidence}" if validation.evidence else ""
    if validation.tested and result == "success":
        return f"✓ tested against the live API: the fix works.{evidence}"
    if validation.tested and result == "failure":
        return f"✗ tested against the live API: the fix did not work.{evidence}"
    if validation.tested:
        return f"tested against the live API: {result or 'no result given'}.{evidence}"
    return f"– not tested ({result or 'no result given'}).{evidence}"


def parts_of(record: AskRecord) -> dict[str, str | None]:
    """The text of each part (None hides it); `answer` is Markdown, the others plain text."""
    texts: dict[str, str | None] = dict.fromkeys(part for part, _ in PARTS)
    if record.failure is not None:
        problem = record.failure.message  # its title is the summary line's
        if record.answer is None:
            problem += "\nThe question is kept: edit it, or send it again with ctrl+s."
        texts["problem"] = problem
    answer: SupportAskPartial | None = record.answer
    if answer is None:
        return texts
    if answer.answer:
        texts["answer"] = answer.answer
        cited = citations(answer.answer)
        texts["sources"] = "\n".join(f"• {item}" for item in cited) if cited else None
    if answer.fix_parameters:
        texts["fix"] = fix_text(answer.fix_parameters)
    if answer.validation is not None:
        texts["validation"] = validation_text(answer.validation)
    if answer.feedback is not None:
        lines = [f"Blocked by: {answer.feedback.blocked_by or 'not said'}"]
        if answer.feedback.attempted:
            lines.append("Tried:")
            lines.extend(f"• {step}" for step in answer.feedback.attempted)
        texts["stuck"] = "\n".join(lines)
    return texts


class SupportAnswerView(VerticalScroll):
    """One question and its answer, in parts; see the module doc."""

    DEFAULT_CSS = """
    SupportAnswerView { height: 1fr; border: round $primary 40%; padding: 0 1; }
    SupportAnswerView:focus-within { border: round $primary; }
    SupportAnswerView #ans-summary { height: auto; color: $text-muted; text-style: bold; }
    SupportAnswerView #ans-summary.-good { color: $success; }
    SupportAnswerView #ans-summary.-bad { color: $error; }
    SupportAnswerView #ans-summary.-stuck { color: $warning; }
    SupportAnswerView #ans-asked { height: auto; color: $text-muted; }
    SupportAnswerView .ans-part { height: auto; margin-top: 1; }
    SupportAnswerView .ans-heading { color: $text-muted; text-style: bold; }
    SupportAnswerView .ans-text { height: auto; }
    SupportAnswerView Markdown { height: auto; margin: 0; padding: 0; }
    SupportAnswerView Markdown > MarkdownBlock:last-child { margin-bottom: 0; }
    SupportAnswerView #ans-problem { border: round $error; padding: 0 1; }
    SupportAnswerView #ans-problem .ans-text { color: $error; text-style: bold; }
    SupportAnswerView #ans-fix { border: round $success; padding: 0 1; }
    SupportAnswerView #ans-fix .ans-heading { color: $success; }
    SupportAnswerView #ans-stuck { border: round $warning; padding: 0 1; }
    SupportAnswerView #ans-stuck .ans-heading { color: $warning; }
    """

    def __init__(
        self,
        empty_note: str,
        *,
        with_question: bool = True,
        id: str | None = None,  # noqa: A002 - Textual's name
    ) -> None:
        super().__init__(id=id)
        self.empty_note = empty_note
        # False beside the editor, which already shows the question: one line saved for the answer.
        self.with_question = with_question
        self.record: AskRecord | None = None

    def compose(self) -> ComposeResult:
        yield Static(self.empty_note, id="ans-summary", markup=False)
        yield Static("", id="ans-asked", markup=False)
        for part, heading in PARTS:
            with Vertical(id=f"ans-{part}", classes="ans-part"):
                if part != "problem":  # the problem's own title is its heading
                    yield Label(heading, classes="ans-heading")
                if part == "answer":
                    yield OutsideMarkdown("")
                else:
                    yield Static("", classes="ans-text", markup=False)

    def on_mount(self) -> None:
        self.query_one("#ans-asked").display = False
        for part, _ in PARTS:
            self.query_one(f"#ans-{part}").display = False

    def show(self, record: AskRecord | None, elapsed: float | None = None) -> None:
        """Show `record` as it stands now (asking, or ended); None shows the empty note."""
        moved = record is not self.record
        self.record = record
        summary = self.query_one("#ans-summary", Static)
        asked = self.query_one("#ans-asked", Static)
        if record is None:
            summary.update(self.empty_note)
            summary.set_classes("")
            asked.display = False
            texts: dict[str, str | None] = dict.fromkeys(part for part, _ in PARTS)
        else:
            summary.update(shown(summary_of(record, elapsed)))  # a failure's title may be the service's
            state = record.state
            summary.set_class(state == "answered", "-good")
            summary.set_class(state in ("failed", "partial"), "-bad")
            summary.set_class(state == "stuck", "-stuck")
            when = record.asked_at.astimezone().strftime("%H:%M:%S")
            about = f"#{record.number} asked {when} about {record.subject.label}"
            asked.update(
                shown(
                    f"{about}: {clip(record.question.strip(), QUESTION_SHOWN)}" if self.with_question else about,
                    lines=True,
                )
            )
            asked.display = True
            texts = parts_of(record)
        for part, _ in PARTS:
            box = self.query_one(f"#ans-{part}", Vertical)
            text = texts[part]
            box.display = text is not None
            if text is None:
                continue
            if part == "answer":
                markdown = box.query_one(Markdown)
                if markdown.source != text:
                    markdown.update(text)
            elif part == "sources":  # one cited item a line: the web addresses among them are links
                cited = [line.removeprefix("• ") for line in text.split("\n")]
                box.query_one(".ans-text", Static).update(listed_links(cited, bullet="• ", enabled=links_on(self.app)))
            else:
                box.query_one(".ans-text", Static).update(shown(text, lines=True))  # the agent's or the service's words
        if moved:
            self.scroll_home(animate=False)

    def part_text(self, part: str) -> str | None:
        """The text shown in a part (the Markdown source for the answer), or None when hidden."""
        box = self.query_one(f"#ans-{part}", Vertical)
        if not box.display:
            return None
        if part == "answer":
            return box.query_one(Markdown).source
        return str(box.query_one(".ans-text", Static).render())

    @property
    def summary(self) -> str:
        return str(self.query_one("#ans-summary", Static).render())
