"""Teams and their API keys: who may call, and as whom.

A key belongs to one team only; the bearer key of a request names its caller.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

# Team ids are derived from team names so that the same CLI flags give the same ids.
_TEAM_NAMESPACE = uuid.UUID("6f1c1b8e-4a35-4c1e-9d7e-2a8f0f6b7c11")
DEFAULT_CREDITS = 100_000


@dataclass
class Team:
    """A customer account: its keys, its webhook secret and its limits."""

    id: str
    name: str
    api_keys: list[str]
    webhook_secret: str | None = None
    max_browser_sessions: int = 5
    credits_remaining: int = DEFAULT_CREDITS

    @classmethod
    def named(cls, name: str, api_keys: list[str], **kw: Any) -> Team:
        """A team whose id is derived from its name (stable across runs)."""
        return cls(id=str(uuid.uuid5(_TEAM_NAMESPACE, name)), name=name, api_keys=list(api_keys), **kw)


@dataclass(frozen=True)
class Caller:
    """Who made a request: the team and the exact key it used."""

    team: Team
    api_key: str


class TeamDirectory(Mapping[str, Team]):
    """Every team by id, and the team of each key."""

    def __init__(self, teams: Iterable[Team] = ()) -> None:
        self._by_id: dict[str, Team] = {}
        self._by_key: dict[str, Team] = {}
        for team in teams:
            self.add(team)

    def add(self, team: Team) -> Team:
        """Register a team; a key may belong to one team only."""
        if not team.api_keys:
            raise ValueError(f"team {team.name!r} needs at least one API key")
        for key in team.api_keys:
            owner = self._by_key.get(key)
            if owner is not None and owner.id != team.id:
                raise ValueError(f"an API key is given to both team {owner.name!r} and team {team.name!r}")
        self._by_id[team.id] = team
        for key in team.api_keys:
            self._by_key[key] = team
        return team

    def by_key(self, key: str) -> Team | None:
        """The team that owns `key`, if any."""
        return self._by_key.get(key)

    def by_name(self, name: str) -> Team | None:
        """The team called `name`, if any."""
        return next((team for team in self._by_id.values() if team.name == name), None)

    def __getitem__(self, team_id: str) -> Team:
        return self._by_id[team_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)
