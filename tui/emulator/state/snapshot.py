"""An emulator's whole state as one JSON-able dict, and back: what the state file and `/_emulator/state` hold.

Format (version 1):

    {"format": "wds-emulator-state", "version": 1, "saved_at": "<ISO time>", "seed": 0,
     "parts": {"ids": {...}, "teams": {...}, "activity": {...}, "usage": {...}, "jobs": {...},
               "cache": {...}, "webhooks": {...}, "browser": {...}, "profiles": {...},
               "progression": {"modes": {...}}}}

Each part is a dict of rows (row key -> JSON value): the state file keeps one
table per part and one line per row. What each row holds is said by the
part's module (`core_parts`, `job_parts`, `browser_parts`).

Restoring reads every part first and changes the emulator only once all of
them have been read: a snapshot refused half way leaves the emulator as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tui.emulator.core.errors import InvalidRequest
from tui.emulator.core.teams import DEFAULT_CREDITS
from tui.emulator.jobs.progression import Mode, Steering
from tui.emulator.state import browser_parts, core_parts, job_parts
from tui.emulator.state.core_parts import Apply, Rows, moment, need, resolved
from tui.emulator.state.values import SnapshotError

if TYPE_CHECKING:
    from tui.emulator.state.stateful import Stateful

FORMAT = "wds-emulator-state"
VERSION = 1
PARTS = ("ids", "teams", "activity", "usage", "jobs", "cache", "webhooks", "browser", "profiles", "progression")


class SnapshotReader:
    """Takes snapshots of one emulator, writing again only the jobs and profiles that have changed."""

    def __init__(self, emulator: Stateful) -> None:
        self.emulator = emulator
        self._jobs = job_parts.JobRows()
        self._activity = core_parts.ActivityRows()
        self._cache = job_parts.CacheRows()
        self._profiles = browser_parts.ProfileRows()

    def parts(self) -> dict[str, Rows]:
        """Every part's rows now (call it on the event loop: it reads live state).

        Slow rows come back `Deferred`: write them (`resolved`) off the loop.
        """
        emulator = self.emulator
        readers: dict[str, Callable[[Stateful], Rows]] = {
            "ids": core_parts.read_ids,
            "teams": core_parts.read_teams,
            "activity": self._activity.read,
            "usage": core_parts.read_usage,
            "jobs": self._jobs.read,
            "cache": self._cache.read,
            "webhooks": job_parts.read_webhooks,
            "browser": browser_parts.read_sessions,
            "profiles": self._profiles.read,
            "progression": read_progression,
        }
        return {name: readers[name](emulator) for name in PARTS}

    def snapshot(self) -> dict[str, Any]:
        """The whole snapshot (see the module's docstring), every row written out."""
        parts = {name: {key: resolved(row) for key, row in rows.items()} for name, rows in self.parts().items()}
        return wrap(parts, self.emulator.clock.now(), self.emulator.seed)


def wrap(parts: dict[str, Rows], saved_at: datetime, seed: int) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, "saved_at": saved_at.isoformat(), "seed": seed, "parts": parts}


def restore(emulator: Stateful, snapshot: Any, *, reason: str = browser_parts.RESTARTED) -> None:
    """Make `emulator`'s state the snapshot's (`SnapshotError` and no change at all when it cannot be read).

    Sessions that were active are listed `destroyed` with `reason`. Browsers still open
    here must be closed first (`close_sessions`).
    """
    prepared = prepare(emulator, snapshot, reason=reason)
    for apply in prepared:
        apply()


def prepare(emulator: Stateful, snapshot: Any, *, reason: str) -> list[Apply]:
    """Read a snapshot into the changes that make it the emulator's state, changing nothing yet."""
    try:
        return _prepare(emulator, snapshot, reason=reason)
    except SnapshotError:
        raise
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        # A value of the right type the parts did not foresee (a huge number, a nesting too deep).
        raise SnapshotError(f"a value cannot be read ({type(exc).__name__}: {exc})") from None


def _prepare(emulator: Stateful, snapshot: Any, *, reason: str) -> list[Apply]:
    need(snapshot, dict, "the snapshot")
    if snapshot.get("format") != FORMAT:
        raise SnapshotError(f"format: expected {FORMAT!r}, got {snapshot.get('format')!r}")
    version = snapshot.get("version")
    if version != VERSION:
        raise SnapshotError(f"version: this emulator reads version {VERSION}, the snapshot is version {version!r}")
    saved_at = moment(snapshot.get("saved_at"), "saved_at")
    parts = need(snapshot.get("parts"), dict, "parts")
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise SnapshotError(f"parts: unknown part {unknown[0]!r}; the parts are {', '.join(PARTS)}")
    for name in ("ids", "teams"):
        if name not in parts:
            raise SnapshotError(f"parts.{name}: missing (a snapshot holds at least ids and teams)")
    rows: dict[str, Rows] = {name: need(parts.get(name, {}), dict, f"parts.{name}") for name in PARTS}
    context = job_parts.state_context(emulator)
    return [
        core_parts.parse_ids(rows["ids"], emulator),
        core_parts.parse_teams(rows["teams"], emulator),
        core_parts.parse_activity(rows["activity"], emulator),
        core_parts.parse_usage(rows["usage"], emulator),
        job_parts.parse_cache(rows["cache"], emulator),
        job_parts.parse_jobs(rows["jobs"], emulator, context),
        job_parts.parse_webhooks(rows["webhooks"], emulator, context, rows["jobs"]),
        browser_parts.parse_sessions(rows["browser"], emulator, context, saved_at, reason),
        parse_progression(rows["progression"], emulator),  # after the jobs: it holds them again
        browser_parts.parse_profiles(rows["profiles"], emulator),  # last: it unpacks (aside) as it reads
    ]


def read_progression(emulator: Stateful) -> Rows:
    """The tester's job modes (`tui.emulator.jobs.steering`): one row, as `JobControl.snapshot()` gives it."""
    return {"modes": emulator.job_control.snapshot()}


def parse_progression(rows: Rows, emulator: Stateful) -> Apply:
    """Read the modes now (a bad one refuses the snapshot), take them back once the jobs are restored."""
    modes = need(rows.get("modes", {}), dict, "parts.progression.modes")
    teams = need(modes.get("teams", {}), dict, "parts.progression.modes.teams")
    jobs = need(modes.get("jobs", {}), dict, "parts.progression.modes.jobs")
    try:
        for wire in teams.values():
            Mode.from_wire(need(wire, dict, "parts.progression.modes.teams.*"))
        for wire in jobs.values():
            Steering.from_wire(need(wire, dict, "parts.progression.modes.jobs.*"))
    except (InvalidRequest, KeyError, TypeError, ValueError, OverflowError) as exc:
        raise SnapshotError(f"parts.progression: {exc}") from None
    return lambda: emulator.job_control.restore(modes)


def emptied(emulator: Stateful) -> dict[str, Any]:
    """A snapshot of `emulator` with its teams and keys but nothing they did: what a reset restores.

    Credits are full again (the usage that spent them is gone); ids go on from where they are,
    so nothing made after a reset has the id of something made before it.
    """
    teams = core_parts.read_teams(emulator)
    for team in teams.values():
        team["credits_remaining"] = DEFAULT_CREDITS
    activity = {core_parts.LOG_ROW: {"next_seq": emulator.activity._next_seq, "pruned": [], "job_entries": []}}
    parts: dict[str, Rows] = {"ids": core_parts.read_ids(emulator), "teams": teams, "activity": activity}
    return wrap(parts, emulator.clock.now(), emulator.seed)


async def close_sessions(emulator: Stateful, reason: str) -> None:
    """End every active session and close every browser still open, before their records are replaced."""
    manager = emulator.browser
    for session in list(manager._sessions.values()):
        await manager.destroy(session, reason)


def counts(snapshot: dict[str, Any]) -> tuple[int, int]:
    """(jobs, activity entries) in a snapshot, for the banner."""
    parts = snapshot.get("parts", {})
    jobs = len(parts.get("jobs", {}).get(job_parts.ORDER_ROW, []))
    activity = sum(len(rows) for key, rows in parts.get("activity", {}).items() if key != core_parts.LOG_ROW)
    return jobs, activity
