"""What the execute console runs and remembers: its target, each run, and the history of runs.

Plain data, no widgets: the console screen fills these in and the output view
and history list read them. The history lives in memory, one per target, for
as long as the app runs (`ConsoleHistories`), so closing a console and opening
it again on the same session brings back its runs and the unsent draft: code
typed is never lost. It is deliberately not written to disk, since run code
often carries URLs, cookies or credentials of the sites it drives.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from tui.api.errors import APIStatusError, WdsError
from tui.contract.limits import CODE_MAX, EXEC_TIMEOUT_MAX, EXEC_TIMEOUT_MIN
from tui.contract.models.browser import BrowserSession, BrowserSessionCreated, ExecuteResult
from tui.contract.models.scrape import InteractResult
from tui.contract.requests import ExecuteRequest, InteractRequest, Language
from tui.dashboard.features.console.python_result import split_result, with_result_echo
from tui.dashboard.kit.formatting import short_id

TargetKind = Literal["session", "interact"]
RunMode = Literal["code", "prompt"]
RunState = Literal["running", "succeeded", "failed", "call failed", "cancelled"]

HISTORY_LIMIT = 100
"""Runs kept per target; the oldest are dropped first."""

LANGUAGES: tuple[Language, ...] = ("node", "python", "bash")
EXAMPLES: dict[Language | RunMode, str] = {
    "node": "await page.goto('https://example.com')\nawait page.title()",
    "python": "await page.goto('https://example.com')\nprint(await page.title())",
    "bash": "agent-browser open https://example.com\nagent-browser get title",
    "prompt": "Describe a task for the AI agent, e.g. open the pricing page and read the plans",
}
"""What to write, per language (and for a prompt): the editors' placeholders."""


@dataclass(frozen=True)
class ConsoleTarget:
    """What a console runs code in: a browser session, or the browser bound to a scrape job.

    `cdp_url` is the session's DevTools websocket; for `interact` it is not
    known until the first interact answer carries it.
    """

    kind: TargetKind
    id: str
    cdp_url: str | None = None
    title: str = ""

    @classmethod
    def for_session(cls, session: BrowserSession | BrowserSessionCreated) -> ConsoleTarget:
        """The console of a standalone session (from the list or from the create answer)."""
        return cls("session", session.id, session.cdp_url, f"Execute console · browser session {short_id(session.id)}")

    @classmethod
    def for_interact(cls, job_id: str, title: str | None = None) -> ConsoleTarget:
        """The console of the browser bound to scrape job `job_id` (`/v2/scrape/{id}/interact`)."""
        return cls("interact", job_id, None, title or f"Interact · browser of scrape {short_id(job_id)}")

    @property
    def interact(self) -> bool:
        return self.kind == "interact"


@dataclass(frozen=True)
class RunSpec:
    """What was sent: code (in a language) or, for interact only, a prompt."""

    mode: RunMode
    text: str
    language: Language
    timeout: int | None

    @property
    def headline(self) -> str:
        """The first non-blank line of the text, for the history list."""
        for line in self.text.splitlines():
            if line.strip():
                return line.strip()
        return ""


@dataclass(frozen=True)
class RunOutcome:
    """The parts of an execute or interact answer, as the console shows them."""

    success: bool
    stdout: str | None = None
    result: str | None = None
    output: str | None = None  # the AI agent's final answer (interact prompt only)
    stderr: str | None = None
    exit_code: int | None = None
    killed: bool = False
    error: str | None = None

    @classmethod
    def of(cls, answer: ExecuteResult | InteractResult) -> RunOutcome:
        exit_code = int(answer.exit_code) if answer.exit_code is not None else None
        stdout, echoed = split_result(answer.stdout)  # python's value, printed by the console's lines
        result = answer.result
        if echoed is not None or result == answer.stdout:
            result = echoed if echoed is not None else stdout  # stdout's alias stays an alias
        return cls(
            success=answer.success,
            stdout=stdout,
            result=result,
            output=answer.output if isinstance(answer, InteractResult) else None,  # ExecuteResult.output is stdout
            stderr=answer.stderr,
            exit_code=exit_code,
            killed=answer.killed,
            error=answer.error,
        )

    @property
    def failed(self) -> bool:
        """The code raised, exited non-zero or was killed (the call itself worked)."""
        return self.error is not None or self.killed or self.exit_code not in (None, 0)


@dataclass(frozen=True)
class CallFailure:
    """Why a call did not produce an answer (410, 429, 502, timeout, network...)."""

    title: str
    message: str
    status: int | None = None

    @classmethod
    def of(cls, error: WdsError) -> CallFailure:
        status = error.status if isinstance(error, APIStatusError) else None
        return cls(error.title, str(error), status)


@dataclass
class RunRecord:
    """One run: what was sent, when, and how it ended (filled in when it ends)."""

    number: int
    spec: RunSpec
    started_at: datetime
    duration_s: float | None = None
    outcome: RunOutcome | None = None
    failure: CallFailure | None = None
    cancelled: bool = False

    @property
    def state(self) -> RunState:
        if self.cancelled:
            return "cancelled"
        if self.failure is not None:
            return "call failed"
        if self.outcome is None:
            return "running"
        return "failed" if self.outcome.failed else "succeeded"

    def finish(self, outcome: RunOutcome, duration_s: float) -> None:
        self.outcome, self.duration_s = outcome, duration_s

    def fail(self, failure: CallFailure, duration_s: float) -> None:
        self.failure, self.duration_s = failure, duration_s

    def cancel(self, duration_s: float) -> None:
        self.cancelled, self.duration_s = True, duration_s


def parse_timeout(raw: str) -> tuple[int | None, str | None]:
    """The timeout field as seconds (None: the service's default), or a message saying what is wrong."""
    raw = raw.strip()
    if not raw:
        return None, None
    try:
        value = int(raw)
    except ValueError:
        return None, f"timeout must be a whole number of seconds, {EXEC_TIMEOUT_MIN}-{EXEC_TIMEOUT_MAX}"
    if not EXEC_TIMEOUT_MIN <= value <= EXEC_TIMEOUT_MAX:
        return None, f"timeout must be {EXEC_TIMEOUT_MIN}-{EXEC_TIMEOUT_MAX} seconds, not {value}"
    return value, None


def request_for(target: ConsoleTarget, spec: RunSpec) -> ExecuteRequest | InteractRequest:
    """The request model for a run; raises pydantic's `ValidationError` on a broken contract limit."""
    if spec.mode == "prompt" and target.interact:
        return InteractRequest(prompt=spec.text, timeout=spec.timeout)  # language goes with code only
    # Python's value comes back only if asked for (see tui.dashboard.features.console.python_result); the limits are the typed code's.
    code = with_result_echo(spec.text) if spec.language == "python" and len(spec.text) <= CODE_MAX else spec.text
    if not target.interact:
        return ExecuteRequest(code=code, language=spec.language, timeout=spec.timeout)
    return InteractRequest(code=code, language=spec.language, timeout=spec.timeout)


@dataclass
class Draft:
    """What is in the editors but not (yet) sent, kept while the console is closed."""

    code: str = ""
    prompt: str = ""
    mode: RunMode = "code"
    language: Language = "node"
    timeout: str = ""


class RunHistory:
    """The runs of one target, oldest first, at most `limit` of them; plus the current draft."""

    def __init__(self, limit: int = HISTORY_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"a history keeps at least one run, not {limit}")
        self._runs: deque[RunRecord] = deque(maxlen=limit)
        self._count = 0
        self.draft = Draft()

    def start(self, spec: RunSpec, started_at: datetime) -> RunRecord:
        """Record a run that is starting now and return it (to be finished later)."""
        self._count += 1
        record = RunRecord(self._count, spec, started_at)
        self._runs.append(record)
        return record

    def get(self, number: int) -> RunRecord | None:
        """The run numbered `number`, unless it fell off the end."""
        return next((run for run in self._runs if run.number == number), None)

    @property
    def latest(self) -> RunRecord | None:
        return self._runs[-1] if self._runs else None

    def __iter__(self) -> Iterator[RunRecord]:
        return iter(self._runs)

    def __len__(self) -> int:
        return len(self._runs)


@dataclass
class ConsoleHistories:
    """One `RunHistory` per target, for the app's lifetime (hand it to every console)."""

    limit: int = HISTORY_LIMIT
    _by_target: dict[tuple[TargetKind, str], RunHistory] = field(default_factory=dict)

    def for_target(self, target: ConsoleTarget) -> RunHistory:
        key = (target.kind, target.id)
        if key not in self._by_target:
            self._by_target[key] = RunHistory(self.limit)
        return self._by_target[key]
