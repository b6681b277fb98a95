"""The team activity log behind `GET /v2/team/activity`.

Design, because the paging promise depends on it:

- Every entry gets a sequence number from one counter that only grows, and
  entries are appended in that order, so within a team `seq` and `created_at`
  both increase along the list.
- Each team has one append-only list of all its entries plus one per endpoint
  kind. A page is a slice of one list found by two binary searches (the cursor's
  sequence number from above, the 24-hour window from below), so a page costs
  O(limit + log n) no matter how long the history is.
- Entries that have left the 24-hour window are dropped by `prune` (the
  retention sweep calls it), so memory holds one day of calls, not all of them.
- Pages run newest first; the cursor is the sequence number of the last entry
  returned. Entries that arrive while someone pages get higher numbers, so they
  never appear in a later page of that walk, and no entry is skipped or repeated.
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tui.contract.limits import ACTIVITY_LIMIT_DEFAULT, ACTIVITY_LIMIT_MAX, ACTIVITY_WINDOW_HOURS
from tui.contract.requests import ACTIVITY_ENDPOINTS
from tui.emulator.core.clock import Clock, isoformat_z
from tui.emulator.core.errors import InvalidRequest

# One list of kinds and one set of limits, shared with the client.
ENDPOINT_KINDS = ACTIVITY_ENDPOINTS
API_VERSION = "v2"
WINDOW = timedelta(hours=ACTIVITY_WINDOW_HOURS)
MAX_LIMIT = ACTIVITY_LIMIT_MAX
DEFAULT_LIMIT = ACTIVITY_LIMIT_DEFAULT


@dataclass(frozen=True)
class ActivityEntry:
    """One recorded call."""

    seq: int
    id: str
    team_id: str
    endpoint: str
    target: str
    created_at: datetime
    api_key: str | None = None
    api_version: str = API_VERSION

    def to_wire(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "endpoint": self.endpoint,
            "api_version": self.api_version,
            "created_at": isoformat_z(self.created_at),
            "target": self.target,
        }


@dataclass
class ActivityPage:
    """One page of a team's activity, newest first."""

    entries: list[ActivityEntry]
    next_cursor: str | None
    has_more: bool

    # Lets callers write `entries, cursor, has_more = log.page(...)`.
    def __iter__(self) -> Iterator[Any]:
        return iter((self.entries, self.next_cursor, self.has_more))


class ActivityLog:
    """Append-only, per-team activity with O(page) cursor paging."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._next_seq = 1
        self._all: dict[str, list[ActivityEntry]] = defaultdict(list)
        self._by_endpoint: dict[tuple[str, str], list[ActivityEntry]] = defaultdict(list)
        # Entries dropped by `prune`, per list, so `count` still counts every entry ever recorded.
        self._pruned: dict[str | tuple[str, str], int] = defaultdict(int)
        # Ids of the kept entries that name a job: the job store keeps such a job while its entry is listed.
        self._job_entries: dict[str, ActivityEntry] = {}
        # How many entries the last `page()` call looked at (binary-search probes plus entries
        # returned); tests use it to prove a page never scans the history.
        self.last_page_reads = 0

    def record(
        self,
        team_id: str,
        endpoint: str,
        target: str,
        job_id: str | None = None,
        api_key: str | None = None,
        at: datetime | None = None,
    ) -> ActivityEntry:
        """Append an entry; `job_id` becomes its id (a fresh UUID when the call made no job).

        Entries must arrive in time order per team (paging bisects on time); an `at`
        earlier than the team's newest entry is moved up to that entry's time.
        """
        if endpoint not in ENDPOINT_KINDS:
            raise ValueError(f"unknown activity endpoint kind {endpoint!r}")
        created_at = at or self._clock.now()
        history = self._all[team_id]
        if history and created_at < history[-1].created_at:
            created_at = history[-1].created_at
        entry = ActivityEntry(
            seq=self._next_seq,
            id=job_id or str(uuid.uuid4()),
            team_id=team_id,
            endpoint=endpoint,
            target=target,
            created_at=created_at,
            api_key=api_key,
        )
        self._next_seq += 1
        history.append(entry)
        self._by_endpoint[(team_id, endpoint)].append(entry)
        if job_id:
            self._job_entries[entry.id] = entry
        return entry

    def count(self, team_id: str, endpoint: str | None = None) -> int:
        """All entries ever recorded for the team (including those outside the window, even dropped)."""
        key: str | tuple[str, str] = team_id if endpoint is None else (team_id, endpoint)
        return len(self._entries(team_id, endpoint)) + self._pruned.get(key, 0)

    def lists(self, job_id: str) -> bool:
        """Whether an entry of the job `job_id` is still inside the 24-hour window."""
        entry = self._job_entries.get(job_id)
        return entry is not None and entry.created_at > self._clock.now() - WINDOW

    def prune(self) -> int:
        """Drop every entry that has left the 24-hour window (no page can show it again); how many."""
        cutoff = self._clock.now() - WINDOW
        dropped = 0
        lists: list[tuple[str | tuple[str, str], list[ActivityEntry]]] = [
            *self._all.items(),
            *self._by_endpoint.items(),
        ]
        for key, entries in lists:
            # Each list is in time order: the entries to drop are a prefix. The same cutoff as `page`.
            gone = bisect_right(entries, cutoff, key=lambda entry: entry.created_at)
            if gone:
                if isinstance(key, str):
                    dropped += gone
                    for entry in entries[:gone]:
                        if self._job_entries.get(entry.id) is entry:
                            del self._job_entries[entry.id]
                del entries[:gone]
                self._pruned[key] += gone
        return dropped

    def page(
        self, team_id: str, endpoint: str | None = None, limit: int = DEFAULT_LIMIT, cursor: str | None = None
    ) -> ActivityPage:
        """The next page of the team's last-24-hours activity, newest first.

        Raises `InvalidRequest` for an unknown endpoint, a limit outside 1-100, or a
        cursor that is malformed or was issued for a different endpoint filter.
        """
        if endpoint is not None and endpoint not in ENDPOINT_KINDS:
            raise InvalidRequest(f"Invalid endpoint {endpoint!r}; expected one of: {', '.join(ENDPOINT_KINDS)}.")
        if not 1 <= limit <= MAX_LIMIT:
            raise InvalidRequest(f"limit must be between 1 and {MAX_LIMIT}.")
        entries = self._entries(team_id, endpoint)
        reads = 0

        def seq_key(entry: ActivityEntry) -> int:
            nonlocal reads
            reads += 1
            return entry.seq

        def time_key(entry: ActivityEntry) -> datetime:
            nonlocal reads
            reads += 1
            return entry.created_at

        high = len(entries)
        if cursor is not None:
            high = bisect_left(entries, decode_cursor(cursor, endpoint), key=seq_key)
        # An entry exactly 24 h old has left the window.
        low = bisect_right(entries, self._clock.now() - WINDOW, hi=high, key=time_key)
        start = max(low, high - limit)
        chosen = entries[start:high][::-1]
        self.last_page_reads = reads + len(chosen)
        has_more = start > low
        next_cursor = encode_cursor(chosen[-1].seq, endpoint) if has_more else None
        return ActivityPage(chosen, next_cursor, has_more)

    def _entries(self, team_id: str, endpoint: str | None) -> list[ActivityEntry]:
        if endpoint is None:
            return self._all.get(team_id, [])
        return self._by_endpoint.get((team_id, endpoint), [])


def encode_cursor(seq: int, endpoint: str | None) -> str:
    """Opaque base64url cursor: the sequence number to continue below, and the filter it belongs to."""
    raw = json.dumps({"s": seq, "e": endpoint}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, endpoint: str | None) -> int:
    """The sequence number inside `cursor` (`InvalidRequest` "Invalid cursor..." when it is not one of ours)."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        data = json.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
        seq = data["s"]
        issued_for = data["e"]
    except (ValueError, KeyError, TypeError, binascii.Error, UnicodeEncodeError):
        raise InvalidRequest("Invalid cursor. Pass the `cursor` value of the previous response unchanged.") from None
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise InvalidRequest("Invalid cursor. Pass the `cursor` value of the previous response unchanged.")
    if issued_for != endpoint:
        raise InvalidRequest("Invalid cursor: it was issued for a different endpoint filter.")
    return seq
