"""Admin routes of job states under the tester's control (`jobs.steering.JobControl`).

- `GET  /_emulator/progression`: the modes, each team's, and every job whose mode was set;
- `PUT  /_emulator/teams/{team}/progression`: the mode of the team's new crawls and batches;
- `PUT  /_emulator/jobs/{id}/progression`: one running job's mode;
- `POST /_emulator/jobs/{id}/transition`: end a running job now (`{"to": ..., "error"?: ...}`);
- `GET  /_emulator/jobs/{id}`: a job's kind, team, state, mode and polls counted.

A mode is `{"mode": "clock"}`, `{"mode": "manual"}` or `{"mode": "after_polls", "polls": N,
"outcome"?: "completed"|"failed"|"cancelled", "error"?: "..."}`. Teams are named by name.
Refusals use the service's error body: 400 with the field and what it takes, 404 for an
unknown team or job, 409 for a job that has ended or has no course (a scrape).
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Route

from tui.emulator.admin.guard import ADMIN_PREFIX
from tui.emulator.core.errors import NotFound
from tui.emulator.http.parsing import job_id_param, ok, read_json_object
from tui.emulator.jobs.model import Job
from tui.emulator.jobs.progression import Mode
from tui.emulator.jobs.steering import JobControl, read_transition
from tui.emulator.jobs.store import JobStore

PROGRESSION_PATH = ADMIN_PREFIX + "/progression"
TEAM_MODE_PATH = ADMIN_PREFIX + "/teams/{team}/progression"
JOB_PATH = ADMIN_PREFIX + "/jobs/{jobId}"
JOB_MODE_PATH = JOB_PATH + "/progression"
TRANSITION_PATH = JOB_PATH + "/transition"

INDEX = {
    f"GET {PROGRESSION_PATH}": "the progression modes, each team's mode and every job whose mode was set",
    f"PUT {TEAM_MODE_PATH}": 'how the team\'s new crawls and batches move: {"mode": "clock"|"manual"|"after_polls", ...}',
    f"PUT {JOB_MODE_PATH}": "how one running crawl or batch moves from now on (the same modes)",
    f"POST {TRANSITION_PATH}": 'end a running job now: {"to": "completed"|"failed"|"cancelled", "error"?: "..."}',
    f"GET {JOB_PATH}": "a job's kind, team, state, mode and status polls counted",
}


class JobControlParts(Protocol):
    """What these routes reach of the emulated service."""

    @property
    def jobs(self) -> JobStore: ...
    @property
    def job_control(self) -> JobControl: ...


def routes(service: JobControlParts) -> list[BaseRoute]:
    """The job-control routes over `service`'s job store and its `JobControl` (each said in `INDEX`)."""
    control = service.job_control

    def job_of(request: Request) -> Job:
        job_id = job_id_param(request)
        job = service.jobs.get(job_id)
        if job is None:
            raise NotFound(f"No job with id {job_id} (it never existed here, or retention dropped it).")
        return job

    async def body_of(request: Request) -> dict[str, Any]:
        return await read_json_object(request)

    async def overview(request: Request) -> JSONResponse:
        return ok(control.overview())

    async def set_team_mode(request: Request) -> JSONResponse:
        team = request.path_params["team"]
        mode = control.set_team_mode(team, Mode.from_wire(await body_of(request)))
        return ok({"team": team, "mode": mode.to_wire()})

    async def set_job_mode(request: Request) -> JSONResponse:
        job = job_of(request)
        control.set_job_mode(job, Mode.from_wire(await body_of(request)))
        return ok({"job": control.view(job)})

    async def transition(request: Request) -> JSONResponse:
        job = job_of(request)
        to, error = read_transition(await body_of(request))
        control.transition(job, to, error)
        return ok({"job": control.view(job)})

    async def show(request: Request) -> JSONResponse:
        return ok({"job": control.view(job_of(request))})

    return [
        Route(PROGRESSION_PATH, overview, methods=["GET"]),
        Route(TEAM_MODE_PATH, set_team_mode, methods=["PUT"]),
        Route(JOB_MODE_PATH, set_job_mode, methods=["PUT"]),
        Route(TRANSITION_PATH, transition, methods=["POST"]),
        Route(JOB_PATH, show, methods=["GET"]),
    ]
