"""How a crawl or batch moves: with the clock, only when told (`manual`), or on its Nth status poll.

A job's progress is arithmetic on its `Timeline` (`crawl_progress`), and so is holding it:
a `SteeredTimeline` is the job's own timeline with the time it was held cut out. While
held, no page is scraped and the job stays `scraping`; told to end, it ends at that
moment as a natural end would read:
- `completed`: every page the job planned is scraped at that moment (a batch scrapes
  and bills its remaining URLs then; a crawl was billed for its pages when it started);
- `failed`: the pages done so far stay, the rest never happen, and the job carries the
  tester's error (`failed_with`: its errors list and a crawl's `failed` webhook say it);
- `cancelled`: what a `DELETE` does (`JobStore.cancel`), so it is not a state of its own here.
Let go (`clock` again), it carries on from where it stood, later by the time it was held.

The state (`Mode`, `Steering`) is plain data kept by `steering.JobControl` by job id, not
in the job: the timeline only reads it. `to_wire`/`from_wire` make it JSON for snapshots.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from tui.emulator.core.errors import InvalidRequest
from tui.emulator.jobs.crawl_progress import JobStatus, Timeline

if TYPE_CHECKING:
    from tui.emulator.jobs.model import BatchJob, CrawlJob

ModeName = Literal["clock", "manual", "after_polls"]
Outcome = Literal["completed", "failed", "cancelled"]
MODE_NAMES: tuple[ModeName, ...] = ("clock", "manual", "after_polls")
OUTCOMES: tuple[Outcome, ...] = ("completed", "failed", "cancelled")
MODE_MEANINGS = {
    "clock": "progress with the emulator's clock (the default)",
    "manual": "hold in its state until POST /_emulator/jobs/{id}/transition moves it",
    "after_polls": "hold, then move to `outcome` on the `polls`-th GET of its status by its team",
}
# What a `failed` job says when the tester gave no error (the words of a natural failure's webhook).
DEFAULT_ERROR = "The job failed."
ERROR_MAX = 2000
POLLS_MAX = 1_000_000
# Where a page lands that a job held for good will never reach.
NEVER = datetime(9999, 12, 31, tzinfo=UTC)


class Progression(Protocol):
    """What decides how a crawl or batch moves: with the clock, or as a tester says (`steering.JobControl`)."""

    def adopt(self, job: CrawlJob | BatchJob) -> None:
        """A new job of its team: held from its start when the team's mode says so."""

    def polled(self, job: CrawlJob | BatchJob) -> None:
        """Its team read its status (`after N polls` moves on the Nth)."""


class ClockProgression:
    """Every job follows the clock: the store's progression until a tester's control is wired in."""

    def adopt(self, job: CrawlJob | BatchJob) -> None:
        pass

    def polled(self, job: CrawlJob | BatchJob) -> None:
        pass


def _choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise InvalidRequest(f"{name} must be one of {', '.join(allowed)} (got {value!r}).")
    return cast(str, value)


def _fields(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise InvalidRequest(f"Unknown field {unknown[0]!r}: the body takes {', '.join(allowed)}.")


def read_error(data: Mapping[str, Any], outcome: str) -> str | None:
    """The `error` of a body whose end is `outcome`: a short text, and only for `failed`."""
    if "error" not in data:
        return None
    error = data["error"]
    if outcome != "failed":
        raise InvalidRequest(f"error is only for a failed end, not for {outcome}.")
    if not isinstance(error, str) or not error.strip():
        raise InvalidRequest("error must be a non-empty string: the message the failed job carries.")
    if len(error) > ERROR_MAX:
        raise InvalidRequest(f"error must be at most {ERROR_MAX} characters (got {len(error)}).")
    return error


@dataclass(frozen=True)
class Mode:
    """How a job moves: `clock`, `manual`, or `after_polls` (then `polls` and its `outcome`)."""

    name: ModeName = "clock"
    polls: int = 0
    outcome: Outcome = "completed"
    error: str | None = None

    @property
    def holds(self) -> bool:
        """Whether a job in this mode waits to be moved rather than following the clock."""
        return self.name != "clock"

    def to_wire(self) -> dict[str, Any]:
        if self.name != "after_polls":
            return {"mode": self.name}
        wire: dict[str, Any] = {"mode": self.name, "polls": self.polls, "outcome": self.outcome}
        if self.error is not None:
            wire["error"] = self.error
        return wire

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Mode:
        """A mode from its JSON; `InvalidRequest` says exactly which field is wrong and what it takes."""
        _fields(data, ("mode", "polls", "outcome", "error"))
        if "mode" not in data:
            raise InvalidRequest(f"mode is required: one of {', '.join(MODE_NAMES)}.")
        name = cast(ModeName, _choice(data["mode"], "mode", MODE_NAMES))
        if name != "after_polls":
            extra = [key for key in ("polls", "outcome", "error") if key in data]
            if extra:
                raise InvalidRequest(f"{extra[0]} is only for mode after_polls, not for {name}.")
            return cls(name)
        polls = data.get("polls")
        if "polls" not in data:
            raise InvalidRequest("polls is required with mode after_polls: the poll that moves the job (1 or more).")
        if isinstance(polls, bool) or not isinstance(polls, int) or not 1 <= polls <= POLLS_MAX:
            raise InvalidRequest(f"polls must be a whole number from 1 to {POLLS_MAX} (got {polls!r}).")
        outcome = cast(Outcome, _choice(data.get("outcome", "completed"), "outcome", OUTCOMES))
        return cls(name, polls, outcome, read_error(data, outcome))


@dataclass
class Ending:
    """How a held job was told to end (`completed` or `failed`), when, and with what error."""

    state: Literal["completed", "failed"]
    at: datetime
    error: str | None = None


@dataclass
class Steering:
    """One job's course under the tester's control: its mode, when it was held, its polls, its end."""

    mode: Mode
    # (start, end) of each time the job was held, in order; the last one's end is None while held.
    pauses: list[tuple[datetime, datetime | None]] = field(default_factory=list)
    polls: int = 0
    ending: Ending | None = None

    @property
    def held_since(self) -> datetime | None:
        if self.pauses and self.pauses[-1][1] is None:
            return self.pauses[-1][0]
        return None

    def hold(self, at: datetime) -> None:
        if self.held_since is None:
            self.pauses.append((at, None))

    def let_go(self, at: datetime) -> None:
        if self.held_since is not None:
            self.pauses[-1] = (self.pauses[-1][0], at)

    def to_wire(self) -> dict[str, Any]:
        ending = self.ending
        return {
            "mode": self.mode.to_wire(),
            # Full precision (not the wire's milliseconds): a restored job must stand exactly where it stood.
            "pauses": [[start.isoformat(), end.isoformat() if end else None] for start, end in self.pauses],
            "polls": self.polls,
            "ending": None
            if ending is None
            else {"state": ending.state, "at": ending.at.isoformat(), "error": ending.error},
        }

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Steering:
        ending = data.get("ending")
        return cls(
            mode=Mode.from_wire(data["mode"]),
            pauses=[(_moment(start), _moment(end) if end else None) for start, end in data.get("pauses", [])],
            polls=int(data.get("polls", 0)),
            ending=None if ending is None else Ending(ending["state"], _moment(ending["at"]), ending.get("error")),
        )


def _moment(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(UTC)


class SteeredTimeline(Timeline):
    """A job's own timeline with its held time cut out and, once told, its end.

    Its dataclass fields are the natural timeline's, so anything that reads them (or
    copies them into a snapshot) sees the job as it was planned; `steering` is read live.
    """

    steering: Steering

    def __init__(self, natural: Timeline, steering: Steering) -> None:
        super().__init__(natural.created_at, natural.pages, natural.interval, natural.fails_at_start)
        object.__setattr__(self, "steering", steering)

    def natural(self) -> Timeline:
        """The timeline as planned, as if never held."""
        return Timeline(self.created_at, self.pages, self.interval, self.fails_at_start)

    def _own_time(self, moment: datetime) -> datetime:
        """`moment` on the job's own clock: real time less the time it was held before `moment`."""
        held = timedelta(0)
        for start, end in self.steering.pauses:
            if moment <= start:
                break
            held += min(moment, end or moment) - start
        return moment - held

    def _real_time(self, own: datetime) -> datetime:
        """The real moment the job's own clock reaches `own` (`NEVER` past a hold that has not ended)."""
        held = timedelta(0)
        for start, end in self.steering.pauses:
            if own <= start - held:
                break
            if end is None:
                return NEVER
            held += end - start
        return own + held

    def _completed_at(self) -> datetime | None:
        ending = self.steering.ending
        return ending.at if ending is not None and ending.state == "completed" else None

    def page_done_at(self, index: int) -> datetime:
        done_at = self._real_time(super().page_done_at(index))
        told = self._completed_at()
        return min(done_at, told) if told is not None else done_at

    @property
    def ends_at(self) -> datetime:
        if self.steering.ending is not None:
            return self.steering.ending.at
        return self._real_time(self.natural().ends_at)

    def done_by(self, moment: datetime) -> int:
        told = self._completed_at()
        if told is not None and moment >= told:
            return self.pages
        return super().done_by(self._own_time(moment))

    def status(self, now: datetime, cancelled_at: datetime | None = None) -> JobStatus:
        state = super().status(now, cancelled_at)
        if state == "completed" and self.failed_with is not None:
            return "failed"
        return state

    @property
    def failed_with(self) -> str | None:
        ending = self.steering.ending
        return ending.error if ending is not None and ending.state == "failed" else None
