"""`/_emulator/state` and `/_emulator/reset`: export a snapshot, import one, clear everything.

- `GET /_emulator/state`: the snapshot (`tui.emulator.state.snapshot`) as JSON, for a fixture file.
- `PUT /_emulator/state`: make a snapshot the emulator's state. It is read whole before anything
  changes: a bad one is refused (400, saying where and what was expected) and changes nothing.
  Sessions open now are ended first; sessions the snapshot saw running are listed `destroyed`.
- `POST /_emulator/reset`: an empty emulator that keeps its teams and keys, so callers go on with
  the keys they hold: activity, usage (credits full again), jobs, the cache, webhook deliveries
  and sessions are gone; open sessions are ended first. Saved profiles are removed.
"""

from __future__ import annotations

import asyncio
import json
from datetime import datetime

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from tui.emulator.admin.guard import ADMIN_PREFIX
from tui.emulator.http.errors import ApiError
from tui.emulator.http.parsing import decode_json_object
from tui.emulator.state.core_parts import Rows, resolved
from tui.emulator.state.snapshot import SnapshotReader, close_sessions, counts, emptied, prepare, wrap
from tui.emulator.state.stateful import Stateful
from tui.emulator.state.values import SnapshotError

STATE_PATH = ADMIN_PREFIX + "/state"
RESET_PATH = ADMIN_PREFIX + "/reset"
IMPORTED = "the state was imported"
RESET = "the emulator was reset"


INDEX = {
    f"GET {STATE_PATH}": "the emulator's whole state as a JSON snapshot (teams, activity, usage, jobs ...)",
    f"PUT {STATE_PATH}": "replace the state with a snapshot that GET gave (400 and no change if it is bad)",
    f"POST {RESET_PATH}": "clear everything but the teams and their keys",
}


def written(parts: dict[str, Rows], saved_at: datetime, seed: int) -> bytes:
    """The snapshot of rows read on the loop, as JSON bytes (slow rows written here, in a worker thread)."""
    resolved_parts = {name: {key: resolved(row) for key, row in rows.items()} for name, rows in parts.items()}
    return json.dumps(wrap(resolved_parts, saved_at, seed), ensure_ascii=False, separators=(",", ":")).encode()


def routes(service: Stateful) -> list[BaseRoute]:
    """The state routes over `service`."""

    async def export(request: Request) -> Response:
        # Rows are read on the loop (live state); writing them (a long crawl's pages: megabytes) is not.
        parts = SnapshotReader(service).parts()
        saved_at = service.clock.now()
        body = await asyncio.to_thread(written, parts, saved_at, service.seed)
        return Response(body, media_type="application/json")

    async def import_(request: Request) -> JSONResponse:
        # The service's own reader: no NaN or Infinity, no 5,000-digit numbers, no nesting past the stack.
        snapshot = decode_json_object(await request.body())
        try:
            changes = prepare(service, snapshot, reason=IMPORTED)
        except SnapshotError as exc:
            raise ApiError(400, f"Not a state snapshot this emulator can load: {exc}.", code="BAD_SNAPSHOT") from None
        await close_sessions(service, IMPORTED)
        for change in changes:
            change()
        jobs, activity = counts(snapshot)
        return JSONResponse({"success": True, "jobs": jobs, "activityEntries": activity})

    async def reset(request: Request) -> JSONResponse:
        changes = prepare(service, emptied(service), reason=RESET)
        await close_sessions(service, RESET)
        for change in changes:
            change()
        return JSONResponse({"success": True, "teams": len(service.teams)})

    return [
        Route(STATE_PATH, export, methods=["GET"]),
        Route(STATE_PATH, import_, methods=["PUT"]),
        Route(RESET_PATH, reset, methods=["POST"]),
    ]
