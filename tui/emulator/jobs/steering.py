"""The tester's control of job states: each team's mode for its new jobs, each job's own, and the moves.

`JobControl` is the job store's `Progression`: the store hands it every new crawl and batch
(`adopt`) and every status poll by the job's team (`polled`). A job in `manual` or
`after_polls` is held: its timeline becomes a `SteeredTimeline` (on the job and on a batch's
run), and its crawl webhooks due later are dropped. A move ends it the way the clock would
have (`progression` says how each end reads); the events of that end are queued for the
same moment, so a receiver, the crawl socket and every status read see a natural end.

What counts as a poll: a `GET /v2/crawl/{id}` or `GET /v2/batch/scrape/{id}` that the job's
own team makes and that answers 200, while the job is held. Its errors list, the crawl
socket, another team's read (403), a refused page (400) and admin reads do not count.

Scrapes and extract/agent jobs end when they are created (nothing of them is asynchronous
here): they have no course to steer, and asking to steer one is a `Conflict`.

The state is kept here, by team name and job id, never in the jobs: `snapshot()` is plain
JSON and `restore()` takes it back over the store's jobs (after they were restored).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from tui.emulator.core.clock import Clock, isoformat_z
from tui.emulator.core.errors import Conflict, InvalidRequest, NotFound
from tui.emulator.core.teams import TeamDirectory
from tui.emulator.jobs.model import BatchJob, CrawlJob, Job
from tui.emulator.jobs.progression import (
    DEFAULT_ERROR,
    MODE_MEANINGS,
    OUTCOMES,
    Ending,
    Mode,
    Outcome,
    SteeredTimeline,
    Steering,
    read_error,
)
from tui.emulator.jobs.store import JobStore
from tui.emulator.jobs.webhooks import WebhookDispatcher

PagedJob = CrawlJob | BatchJob


def _steerable(job: Job) -> PagedJob:
    """`job` if it has a course to steer (a crawl or a batch); `Conflict` for a scrape or an agent job."""
    if not isinstance(job, CrawlJob | BatchJob):
        raise Conflict(
            f"Job {job.id} is a {job.kind} job: it ended when it was created, so it has no course to steer "
            "(only crawls and batch scrapes progress)."
        )
    return job


class JobControl:
    """Modes by team and by job, and the moves that end held jobs."""

    def __init__(self, *, store: JobStore, webhooks: WebhookDispatcher, teams: TeamDirectory, clock: Clock) -> None:
        self._store = store
        self._webhooks = webhooks
        self._teams = teams
        self._clock = clock
        self._team_modes: dict[str, Mode] = {}  # by team name; a team not here is on the clock
        self._steered: dict[str, Steering] = {}  # by job id: every job whose mode was ever set

    # -- the store's hooks -----------------------------------------------------------

    def adopt(self, job: CrawlJob | BatchJob) -> None:
        team = self._teams.get(job.team_id)
        mode = self._team_modes.get(team.name) if team is not None else None
        if mode is not None and mode.holds:
            self._hold(job, Steering(mode), job.created_at)

    def polled(self, job: CrawlJob | BatchJob) -> None:
        steering = self._steered.get(job.id)
        now = self._clock.now()
        if steering is None or steering.held_since is None or job.status(now) != "scraping":
            return
        steering.polls += 1
        mode = steering.mode
        if mode.name == "after_polls" and steering.polls >= mode.polls:
            outcome = mode.outcome
            if outcome == "completed" and job.timeline.fails_at_start:
                outcome = "failed"  # nothing to complete: it fails with its own failure, as the clock had it
            self._end(job, steering, outcome, mode.error)

    # -- modes -----------------------------------------------------------------------

    def team_mode(self, team_name: str) -> Mode:
        """The mode a team's new crawls and batches start in."""
        return self._team_modes.get(self._team(team_name), Mode())

    def set_team_mode(self, team_name: str, mode: Mode) -> Mode:
        """Start the team's crawls and batches made from now on in `mode` (jobs already made keep theirs)."""
        name = self._team(team_name)
        if mode.holds:
            self._team_modes[name] = mode
        else:
            self._team_modes.pop(name, None)
        return mode

    def set_job_mode(self, job: Job, mode: Mode) -> None:
        """Put a running job in `mode`: hold it now, change how it is held (polls count afresh), or let it go."""
        paged = self._running(_steerable(job))
        now = self._clock.now()
        steering = self._steered.get(paged.id)
        if steering is None:
            if not mode.holds:
                return  # on the clock already
            steering = Steering(mode)
        steering.mode, steering.polls = mode, 0
        if mode.holds:
            self._hold(paged, steering, now)
            return
        if steering.held_since is not None and isinstance(paged, CrawlJob):
            done = paged.completed(now)
            steering.let_go(now)
            # Its later events were dropped when it was held: they happen at their new times.
            team = self._teams.get(paged.team_id)
            if team is not None:
                self._webhooks.schedule_course(paged, team, from_page=done)
        else:
            steering.let_go(now)
        self._steered[paged.id] = steering

    # -- moves -----------------------------------------------------------------------

    def transition(self, job: Job, to: str, error: str | None = None) -> None:
        """End a running crawl or batch now as `to` (`completed`, `failed` or `cancelled`), held or not."""
        if to not in OUTCOMES:
            raise InvalidRequest(f"to must be one of {', '.join(OUTCOMES)} (got {to!r}).")
        paged = self._running(_steerable(job))
        if to == "completed" and paged.timeline.fails_at_start:
            why = paged.failure.message if paged.failure else "no page answered"
            raise Conflict(
                f"Crawl {paged.id} failed at its start ({why}): it has no pages to complete. Move it to failed or cancelled."
            )
        steering = self._steered.get(paged.id) or Steering(Mode("manual"))
        self._hold(paged, steering, self._clock.now())
        self._end(paged, steering, to, error)

    def _end(self, job: PagedJob, steering: Steering, to: Outcome, error: str | None) -> None:
        now = self._clock.now()
        if to == "cancelled":
            self._store.cancel(job, at=now)  # as a DELETE does: its `crawl.cancelled` included
            return
        done = job.completed(now)
        if to == "failed" and error is None and not job.timeline.fails_at_start:
            error = DEFAULT_ERROR  # a crawl that failed at its start needs none: it fails for its own reason
        steering.ending = Ending(to, now, error if to == "failed" else None)
        team = self._teams.get(job.team_id)
        if isinstance(job, CrawlJob) and team is not None:
            self._webhooks.schedule_course(job, team, from_page=done)
        # A batch's remaining pages and its `completed` follow from its timeline (`_BatchEvents`);
        # the service has no `batch_scrape.failed`, so a failed batch, like a cancelled one, sends no end.

    # -- reading ---------------------------------------------------------------------

    def view(self, job: Job) -> dict[str, Any]:
        """What `GET /_emulator/jobs/{id}` says of `job`: its kind, team, state, mode and polls."""
        now = self._clock.now()
        team = self._teams.get(job.team_id)
        steering = self._steered.get(job.id)
        view: dict[str, Any] = {
            "id": job.id,
            "kind": job.kind,
            "team": team.name if team is not None else None,
            "state": job.status(now),
        }
        if not isinstance(job, CrawlJob | BatchJob):
            return {**view, "steerable": False, "mode": None, "polls": None, "heldSince": None}
        held = steering.held_since if steering is not None else None
        return {
            **view,
            "steerable": True,
            "completed": job.completed(now),
            "total": job.total,
            "mode": (steering.mode if steering is not None else Mode()).to_wire(),
            "polls": steering.polls if steering is not None else None,
            "heldSince": isoformat_z(held) if held is not None and view["state"] == "scraping" else None,
        }

    def overview(self) -> dict[str, Any]:
        """What `GET /_emulator/progression` says: the modes, each team's, and every steered job."""
        return {
            "modes": MODE_MEANINGS,
            "outcomes": list(OUTCOMES),
            "teams": {team.name: self.team_mode(team.name).to_wire() for team in self._teams.values()},
            "jobs": [self.view(job) for job_id in self._steered if (job := self._store.get(job_id)) is not None],
        }

    # -- state -----------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """Every team's mode and every steered job's course, as plain JSON."""
        return {
            "teams": {name: mode.to_wire() for name, mode in self._team_modes.items()},
            "jobs": {job_id: steering.to_wire() for job_id, steering in self._steered.items()},
        }

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Take back a `snapshot()`, over the store's jobs as they are now (restore those first).

        Jobs no longer in the store are dropped; held jobs read held again. Webhooks are not
        queued again: those pending were saved as they stood.
        """
        self._team_modes = {name: Mode.from_wire(wire) for name, wire in snapshot.get("teams", {}).items()}
        self._steered = {}
        for job_id, wire in snapshot.get("jobs", {}).items():
            job = self._store.get(job_id)
            if isinstance(job, CrawlJob | BatchJob):
                self._install(job, Steering.from_wire(wire))

    def prune(self) -> int:
        """Forget the courses of jobs the store has dropped (retention); how many."""
        gone = [job_id for job_id in self._steered if self._store.get(job_id) is None]
        for job_id in gone:
            del self._steered[job_id]
        return len(gone)

    # -- helpers ---------------------------------------------------------------------

    def _team(self, name: str) -> str:
        if self._teams.by_name(name) is None:
            known = ", ".join(sorted(team.name for team in self._teams.values()))
            raise NotFound(f"No team named {name!r}. Teams: {known}.")
        return name

    def _running(self, job: PagedJob) -> PagedJob:
        state = job.status(self._clock.now())
        if state != "scraping":
            raise Conflict(f"Job {job.id} already ended: it is {state}. Only a running job can be steered or moved.")
        return job

    def _hold(self, job: PagedJob, steering: Steering, at: datetime) -> None:
        """Hold `job` from `at`: no page after it, and none of its crawl events due after it."""
        if steering.held_since is None:
            steering.hold(at)
            self._webhooks.cancel_pending(job.id, after=at)
        self._install(job, steering)

    def _install(self, job: PagedJob, steering: Steering) -> None:
        self._steered[job.id] = steering
        if not isinstance(job.timeline, SteeredTimeline) or job.timeline.steering is not steering:
            natural = job.timeline.natural() if isinstance(job.timeline, SteeredTimeline) else job.timeline
            job.timeline = SteeredTimeline(natural, steering)
            if isinstance(job, BatchJob):
                job.run.timeline = job.timeline  # its URLs are scraped (and billed) at the timeline's moments


def read_transition(data: Mapping[str, Any]) -> tuple[str, str | None]:
    """`{"to": ..., "error"?: ...}` read: where to move a job, and the error of a `failed` move."""
    unknown = sorted(set(data) - {"to", "error"})
    if unknown:
        raise InvalidRequest(f"Unknown field {unknown[0]!r}: the body takes to and error.")
    if "to" not in data:
        raise InvalidRequest(f"to is required: one of {', '.join(OUTCOMES)}.")
    to = data["to"]
    if to not in OUTCOMES:
        raise InvalidRequest(f"to must be one of {', '.join(OUTCOMES)} (got {to!r}).")
    return to, read_error(data, to)
