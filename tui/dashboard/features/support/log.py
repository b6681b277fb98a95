"""What this run asked the support agent and what it answered: plain data, no widgets.

The ask-support screen fills these in; its answer view and side list read
them. The Navigator holds one `SupportLog` for the app's lifetime, so the
questions and answers outlive the screen (two answers can be compared later)
and an unsent, edited question comes back when the screen is opened again for
the same job. Nothing is written to disk: questions often carry URLs and
details of the team's jobs.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tui.api.errors import (
    APIConnectionError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadGatewayError,
    BadRequestError,
    GatewayTimeoutError,
    InternalServerError,
    InvalidResponseError,
    RateLimitError,
    RequestValidationError,
    ServiceUnavailableError,
    WdsError,
)
from tui.contract.limits import ASK_BUDGET_SECONDS
from tui.contract.models.support import SupportAskPartial
from tui.dashboard.kit.error_words import WORDS, Say, Words, words_for
from tui.dashboard.kit.form_issues import field_issues
from tui.dashboard.kit.formatting import short_id
from tui.dashboard.kit.status_look import is_failure

LOG_LIMIT = 50
"""Questions kept for the run; the oldest go first."""

AskState = Literal["asking", "answered", "stuck", "partial", "failed", "cancelled"]
QuestionField = Literal["question", "rationale"]

_HTTP_STATUS = re.compile(r"^(?:HTTP\s*)?(\d{3})$", re.IGNORECASE)
_KIND_WORDS = {"batch_scrape": "batch scrape", "deep_research": "deep research"}
_RUNNING = ("scraping", "processing", "pending", "running")


@dataclass(frozen=True)
class AskSubject:
    """The job a question is about, with what the screen that asked knew of it."""

    job_id: str
    kind: str
    status: str | None = None
    error: str | None = None
    target: str | None = None

    @property
    def label(self) -> str:
        """`scrape 1a2b3c4d`: the job as the lists name it."""
        return f"{self.kind} {short_id(self.job_id)}"

    @property
    def http_status(self) -> int | None:
        """The page's HTTP status when `error` is one ("404", "HTTP 404")."""
        match = _HTTP_STATUS.match((self.error or "").strip())
        return int(match.group(1)) if match else None


def prefilled_question(subject: AskSubject) -> str:
    """A first question from what is known: "My scrape job 1a2b3c4d of https://x/y failed with HTTP 404. Why, ...?"."""
    kind = _KIND_WORDS.get(subject.kind, subject.kind.replace("_", " "))
    about = f"My {kind} job {short_id(subject.job_id)}"
    if subject.target:
        about += f" of {subject.target}"
    status, error = subject.status, (subject.error or "").strip()
    code = subject.http_status
    if code is not None:
        return f"{about} failed with HTTP {code}. Why, and how do I fix it?"
    if error:
        return f"{about} failed: {error.rstrip('.')}. Why, and how do I fix it?"
    if is_failure(status):
        return f"{about} failed. Why, and how do I fix it?"
    if status == "cancelled":
        return f"{about} was cancelled. Why, and how do I run it to the end?"
    if status in _RUNNING:
        return f"{about} is still {status}. Is something wrong with it?"
    if status:
        return f"{about} ended with status {status}. Is anything wrong with it, and how do I fix it?"
    return f"{about}: what happened, and is anything wrong with it?"


@dataclass(frozen=True)
class AskFailure:
    """Why an ask brought no full answer, in words; `field` names what the user must edit, if anything."""

    title: str
    message: str
    status: int | None = None
    field: QuestionField | None = None

    @classmethod
    def of(cls, error: WdsError) -> AskFailure:
        """The words for every error the contract (and the network) can give support ask."""
        status = error.status if isinstance(error, APIStatusError | InvalidResponseError) else None
        words = words_for(error, _ASK_WORDS)
        # The fields a refusal names, ours or the service's 400, read as the launch forms read them.
        named = _field_of([str(issue["path"]) for issue in field_issues(error)])
        if isinstance(error, RequestValidationError):
            return cls(words.title, words.text, field=named)
        if isinstance(error, BadRequestError):
            field_name = named or "question"
            return cls(words.title, f"{words.text} Edit the {field_name} and send it again.", status, field_name)
        return cls(words.title, words.text, status)


def _text(error: WdsError) -> str:
    return error.message.strip().rstrip(".")  # each message below ends its own sentence


def _other(error: APIStatusError) -> Words:
    return Words(f"{error.title} ({error.status})", error.message)


def _out_of_time(error: GatewayTimeoutError) -> Words:
    said = "this is what it had." if partial_of(error) is not None else "it sent back nothing."
    return Words("Out of time (504)", f"The agent ran out of its {ASK_BUDGET_SECONDS} s budget; {said}")


_ASK_WORDS: dict[type[WdsError], Say] = {
    RequestValidationError: lambda e: Words("Not sent", e.message),
    BadRequestError: lambda e: Words("The service refused the question (400)", f"{_text(e)}."),
    # The advice for a refused key is every screen's (tui.dashboard.kit.error_words); the heading is this screen's kind.
    AuthenticationError: lambda e: Words(f"API key refused ({e.status})", WORDS[AuthenticationError](e).text),
    RateLimitError: lambda e: Words(
        "Too many requests (429)",
        f"{_text(e)}. {f'Wait {e.retry_after:g} s' if e.retry_after is not None else 'Wait a little'}, then send again.",
    ),
    ServiceUnavailableError: lambda e: Words(
        "No AI backend (503)",
        "This deployment of the service has no AI backend, so its support agent cannot answer "
        f"(the service said: {_text(e)}). The hosted service can.",
    ),
    GatewayTimeoutError: _out_of_time,
    BadGatewayError: lambda e: Words(
        "Support agent unreachable (502)",
        f"The service could not reach its AI support agent: {_text(e)}. Try again in a minute.",
    ),
    InternalServerError: lambda e: Words(
        f"Server error ({e.status})", f"The service failed while answering: {_text(e)}."
    ),
    APIStatusError: _other,  # any other refusal, by its title and status
    APITimeoutError: lambda e: Words(
        "No answer in time",
        f"The service sent nothing back in time (the agent's budget is {ASK_BUDGET_SECONDS} s): {_text(e)}.",
    ),
    APIConnectionError: lambda e: Words(
        "Connection lost", f"The service could not be reached: {_text(e)}. Check the network."
    ),
    InvalidResponseError: lambda e: Words(
        "Unreadable answer", f"The service answered {e.status} with something the dashboard cannot read: {_text(e)}."
    ),
}
"""Support ask's own words: headings that carry the status, and the agent's budget where time ran out."""


def partial_of(error: GatewayTimeoutError) -> SupportAskPartial | None:
    """A 504's partial envelope, or None when it holds nothing to show (a bare `{"error": ...}`)."""
    partial = error.partial
    if partial is None:
        return None
    parts = (partial.answer, partial.fix_parameters, partial.validation, partial.feedback)
    return partial if any(part is not None for part in parts) else None


def _field_of(paths: list[str]) -> QuestionField | None:
    for path in paths:
        name = path.split(".")[0]
        if name in ("question", "rationale"):
            return name  # type: ignore[return-value]
    return None


@dataclass
class AskRecord:
    """One question sent: what, about which job, when, and how it ended (filled in when it ends).

    A 504 sets both `answer` (the partial envelope, when the service sent one)
    and `failure`.
    """

    number: int
    subject: AskSubject
    question: str
    rationale: str | None
    asked_at: datetime
    duration_s: float | None = None
    answer: SupportAskPartial | None = None
    failure: AskFailure | None = None
    cancelled: bool = False

    @property
    def state(self) -> AskState:
        if self.cancelled:
            return "cancelled"
        if self.failure is not None:
            return "partial" if self.answer is not None else "failed"
        if self.answer is None:
            return "asking"
        return "stuck" if self.answer.is_stuck else "answered"

    @property
    def headline(self) -> str:
        """The question's first non-blank line, for the list."""
        return next((line.strip() for line in self.question.splitlines() if line.strip()), "")

    def finish(self, answer: SupportAskPartial, duration_s: float) -> None:
        self.answer, self.duration_s = answer, duration_s

    def fail(self, failure: AskFailure, duration_s: float, partial: SupportAskPartial | None = None) -> None:
        self.failure, self.answer, self.duration_s = failure, partial, duration_s

    def cancel(self, duration_s: float) -> None:
        self.cancelled, self.duration_s = True, duration_s


@dataclass
class AskDraft:
    """What is typed but not yet sent, per job, kept while the screen is closed."""

    question: str
    rationale: str = ""


@dataclass
class SupportLog:
    """The questions of this run, oldest first (at most `limit`), and the unsent draft of each job."""

    limit: int = LOG_LIMIT
    _records: deque[AskRecord] = field(init=False)
    _drafts: dict[str, AskDraft] = field(default_factory=dict)
    _count: int = 0

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise ValueError(f"a support log keeps at least one question, not {self.limit}")
        self._records = deque(maxlen=self.limit)

    def start(self, subject: AskSubject, question: str, rationale: str | None, at: datetime) -> AskRecord:
        """Record a question being sent now and return it (to be finished later)."""
        self._count += 1
        record = AskRecord(self._count, subject, question, rationale, at)
        self._records.append(record)
        return record

    def get(self, number: int) -> AskRecord | None:
        """The question numbered `number`, unless it fell off the end."""
        return next((record for record in self._records if record.number == number), None)

    def latest_for(self, job_id: str) -> AskRecord | None:
        """The last question asked about `job_id`."""
        return next((record for record in reversed(self._records) if record.subject.job_id == job_id), None)

    def draft_for(self, subject: AskSubject) -> AskDraft:
        """The job's unsent draft: what was last typed, or a question prefilled from `subject`."""
        draft = self._drafts.get(subject.job_id)
        if draft is None:
            draft = AskDraft(prefilled_question(subject))
            self.keep_draft(subject.job_id, draft)
        return draft

    def keep_draft(self, job_id: str, draft: AskDraft) -> None:
        """Remember what is typed for `job_id` (called on every edit)."""
        self._drafts.pop(job_id, None)  # re-inserted last: the most recently edited is dropped last
        self._drafts[job_id] = draft
        while len(self._drafts) > self.limit:  # a dashboard open for days asks about many jobs
            del self._drafts[next(iter(self._drafts))]

    def __iter__(self) -> Iterator[AskRecord]:
        return iter(self._records)

    def __len__(self) -> int:
        return len(self._records)
