"""The snapshot's accounts part: ids, teams, activity and usage.

Each part reads its rows off a running emulator (`read`) and reads rows back
(`parse`) into a change to make (`Apply`) without touching the emulator, so
an import that fails half way changes nothing. The parts' private records are
read and set here, not through new methods on each part, so that the parts
stay as they are (other work changes them at the same time).

Activity keeps each entry's sequence number and the counter: a cursor is a
sequence number (`core.activity.encode_cursor`), so a cursor taken before a
restart pages the same after it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from tui.emulator.core.activity import ENDPOINT_KINDS, ActivityEntry, ActivityLog
from tui.emulator.core.teams import DEFAULT_CREDITS, Team
from tui.emulator.state.values import SnapshotError

if TYPE_CHECKING:
    from tui.emulator.state.stateful import Stateful

Rows = dict[str, Any]
Apply = Callable[[], None]


class Deferred:
    """A row whose writing is slow (a crawl's documents): read on the loop, written later, off it, once.

    What it reads must not change on the loop meanwhile (a crawl's plan never does; a batch's
    progress does, so a batch is written at once).
    """

    __slots__ = ("_write", "_value", "_done")

    def __init__(self, write: Callable[[], Any]) -> None:
        self._write = write
        self._value: Any = None
        self._done = False

    def value(self) -> Any:
        if not self._done:
            self._value, self._done = self._write(), True
        return self._value


def resolved(row: Any) -> Any:
    """The row itself, written now if it was deferred."""
    return row.value() if isinstance(row, Deferred) else row


LOG_ROW = "log"  # the activity counter and what was pruned; the other rows are one per team


def moment(value: Any, where: str) -> datetime:
    """A time as the snapshot writes it (ISO 8601 with its offset)."""
    try:
        parsed = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise SnapshotError(f"{where}: expected an ISO 8601 time, got {value!r}") from None
    if parsed.tzinfo is None:
        raise SnapshotError(f"{where}: the time {value!r} has no time zone")
    return parsed


def need(value: Any, kind: type | tuple[type, ...], where: str) -> Any:
    """`value` if it is of `kind`, else a `SnapshotError` that says what was expected."""
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise SnapshotError(f"{where}: expected {names}, got {type(value).__name__}")
    return value


def bounded(value: Any, where: str, most: int = 2**53) -> int:
    """`value` if it is an integer from 0 to `most` (the snapshot's counters, credits and limits)."""
    if not 0 <= need(value, int, where) <= most:
        raise SnapshotError(f"{where}: expected an integer from 0 to {most}, got {value}")
    return int(value)


# --- ids ----------------------------------------------------------------------------


def read_ids(emulator: Stateful) -> Rows:
    """The id generator's state: ids made after a restore never repeat ones made before."""
    version, words, gauss = emulator.ids.rng.getstate()
    return {"rng": {"version": version, "words": list(words), "gauss": gauss}}


def parse_ids(rows: Rows, emulator: Stateful) -> Apply:
    state = need(rows.get("rng"), dict, "ids.rng")
    words = need(state.get("words"), list, "ids.rng.words")
    if len(words) != 625 or not all(isinstance(w, int) and 0 <= w < 2**32 for w in words):
        raise SnapshotError("ids.rng.words: expected the 625 integers of a random generator's state")
    rng_state = (state.get("version"), tuple(words), state.get("gauss"))
    try:
        emulator.ids.rng.__class__().setstate(rng_state)  # checked on a spare generator first
    except (TypeError, ValueError, OverflowError) as exc:
        raise SnapshotError(f"ids.rng: not a random generator's state ({exc})") from None
    return lambda: emulator.ids.rng.setstate(rng_state)


# --- teams --------------------------------------------------------------------------


def read_teams(emulator: Stateful) -> Rows:
    return {
        team.id: {
            "name": team.name,
            "api_keys": list(team.api_keys),
            "webhook_secret": team.webhook_secret,
            "max_browser_sessions": team.max_browser_sessions,
            "credits_remaining": team.credits_remaining,
        }
        for team in emulator.teams.values()
    }


def parse_teams(rows: Rows, emulator: Stateful) -> Apply:
    teams = []
    keys: dict[str, str] = {}
    for team_id, row in rows.items():
        where = f"teams[{team_id!r}]"
        need(row, dict, where)
        api_keys = need(row.get("api_keys"), list, f"{where}.api_keys")
        if not api_keys or not all(isinstance(key, str) and key for key in api_keys):
            raise SnapshotError(f"{where}.api_keys: expected a non-empty list of keys")
        for key in api_keys:
            if key == emulator.admin_token:  # a team's key must never open the admin prefix
                raise SnapshotError(f"{where}.api_keys: a key is this emulator's admin token")
            if keys.setdefault(key, team_id) != team_id:
                raise SnapshotError(f"{where}.api_keys: a key also belongs to team {keys[key]!r}")
        secret = row.get("webhook_secret")
        teams.append(
            Team(
                id=team_id,
                name=need(row.get("name"), str, f"{where}.name"),
                api_keys=list(api_keys),
                webhook_secret=need(secret, str, f"{where}.webhook_secret") if secret is not None else None,
                max_browser_sessions=bounded(
                    row.get("max_browser_sessions", 5), f"{where}.max_browser_sessions", 10_000
                ),
                credits_remaining=bounded(row.get("credits_remaining", DEFAULT_CREDITS), f"{where}.credits_remaining"),
            )
        )
    if not teams:
        raise SnapshotError("teams: a snapshot needs at least one team")

    def apply() -> None:
        # The directory is shared by every part (sessions, webhooks, traffic): refilled, not replaced.
        directory = emulator.teams
        directory._by_id.clear()
        directory._by_key.clear()
        for team in teams:
            directory.add(team)

    return apply


# --- activity -----------------------------------------------------------------------


class ActivityRows:
    """Activity as rows: the counter and what was pruned, and one row per team, rebuilt only when it grew or was pruned.

    A team's list only grows at its end and loses a prefix when pruned, so its length and its
    first and last sequence numbers say whether it changed.
    """

    def __init__(self) -> None:
        self._rows: dict[str, tuple[Any, Any]] = {}

    def read(self, emulator: Stateful) -> Rows:
        log = emulator.activity
        rows: Rows = {LOG_ROW: self._kept(LOG_ROW, (log._next_seq, sum(log._pruned.values())), lambda: _header(log))}
        for team_id, entries in log._all.items():
            mark = (len(entries), entries[0].seq if entries else 0, entries[-1].seq if entries else 0)
            rows[f"team:{team_id}"] = self._kept(team_id, mark, partial(_team_row, entries))
        self._rows = {key: self._rows[key] for key in [LOG_ROW, *log._all]}
        return rows

    def _kept(self, key: str, mark: Any, build: Callable[[], Any]) -> Any:
        kept = self._rows.get(key)
        if kept is None or kept[0] != mark:
            kept = self._rows[key] = (mark, build())
        return kept[1]


def _header(log: ActivityLog) -> dict[str, Any]:
    return {
        "next_seq": log._next_seq,
        "pruned": [[*(key if isinstance(key, tuple) else (key, None)), n] for key, n in log._pruned.items()],
        "job_entries": list(log._job_entries),
    }


def _team_row(entries: list[ActivityEntry]) -> list[list[Any]]:
    return [[e.seq, e.id, e.endpoint, e.target, e.created_at.isoformat(), e.api_key, e.api_version] for e in entries]


def parse_activity(rows: Rows, emulator: Stateful) -> Apply:
    header = need(rows.get(LOG_ROW, {"next_seq": 1, "pruned": [], "job_entries": []}), dict, f"activity.{LOG_ROW}")
    next_seq = bounded(header.get("next_seq"), "activity.log.next_seq")
    by_team: dict[str, list[ActivityEntry]] = {}
    for key, raw_entries in rows.items():
        if key == LOG_ROW:
            continue
        if not key.startswith("team:"):
            raise SnapshotError(f"activity: unknown row {key!r} (expected 'log' or 'team:<team id>')")
        team_id = key.removeprefix("team:")
        entries: list[ActivityEntry] = []
        for index, raw in enumerate(need(raw_entries, list, f"activity[{key!r}]")):
            where = f"activity[{key!r}][{index}]"
            if not isinstance(raw, list) or len(raw) != 7:
                raise SnapshotError(f"{where}: expected [seq, id, endpoint, target, created_at, api_key, api_version]")
            seq, entry_id, endpoint, target, created_at, api_key, api_version = raw
            if endpoint not in ENDPOINT_KINDS:
                raise SnapshotError(f"{where}: unknown endpoint kind {endpoint!r}")
            need(seq, int, f"{where}.seq")
            created = moment(created_at, where)
            if not 1 <= seq < next_seq:
                raise SnapshotError(f"{where}: its sequence number is not below activity.log.next_seq")
            if entries and (seq <= entries[-1].seq or created < entries[-1].created_at):
                raise SnapshotError(f"{where}: entries must run oldest first, with growing sequence numbers")
            if api_key is not None:
                need(api_key, str, f"{where}.api_key")
            entries.append(
                ActivityEntry(
                    seq=seq,
                    id=need(entry_id, str, f"{where}.id"),
                    team_id=team_id,
                    endpoint=endpoint,
                    target=need(target, str, f"{where}.target"),
                    created_at=created,
                    api_key=api_key,
                    api_version=need(api_version, str, f"{where}.api_version"),
                )
            )
        by_team[team_id] = entries
    pruned: dict[str | tuple[str, str], int] = {}
    for item in need(header.get("pruned", []), list, "activity.log.pruned"):
        if not (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and (item[1] is None or isinstance(item[1], str))
            and isinstance(item[2], int)
        ):
            raise SnapshotError("activity.log.pruned: expected [team id, endpoint or null, count] items")
        team_id, endpoint, count = item[0], item[1], bounded(item[2], "activity.log.pruned[*][2]")
        pruned[team_id if endpoint is None else (team_id, endpoint)] = count
    job_entry_ids = need(header.get("job_entries", []), list, "activity.log.job_entries")
    if not all(isinstance(entry_id, str) for entry_id in job_entry_ids):
        raise SnapshotError("activity.log.job_entries: expected a list of activity entry ids")
    job_entry_ids = set(job_entry_ids)

    def apply() -> None:
        log = emulator.activity
        log._next_seq = next_seq
        log._all = defaultdict(list)
        log._by_endpoint = defaultdict(list)
        log._job_entries = {}
        for team_id, entries in by_team.items():
            log._all[team_id] = entries
            for entry in entries:
                log._by_endpoint[(team_id, entry.endpoint)].append(entry)
                if entry.id in job_entry_ids:
                    log._job_entries[entry.id] = entry
        log._pruned = defaultdict(int, pruned)

    return apply


# --- usage --------------------------------------------------------------------------


def read_usage(emulator: Stateful) -> Rows:
    return {
        team_id: [
            [month.isoformat(), key, credits] for month, by_key in months.items() for key, credits in by_key.items()
        ]
        for team_id, months in emulator.usage._credits.items()
    }


def parse_usage(rows: Rows, emulator: Stateful) -> Apply:
    credits: dict[str, dict[datetime, dict[str, int]]] = {}
    for team_id, items in rows.items():
        months: dict[datetime, dict[str, int]] = defaultdict(dict)
        for index, item in enumerate(need(items, list, f"usage[{team_id!r}]")):
            where = f"usage[{team_id!r}][{index}]"
            if not isinstance(item, list) or len(item) != 3:
                raise SnapshotError(f"{where}: expected [month start, api key, credits]")
            month, key, used = item
            months[moment(month, where)][need(key, str, where)] = bounded(used, where)
        credits[team_id] = months

    def apply() -> None:
        ledger = emulator.usage._credits
        ledger.clear()
        for team_id, months in credits.items():
            ledger[team_id].update(months)

    return apply
