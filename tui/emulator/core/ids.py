"""Seeded ids and keys: the same seed gives the same ids, run after run.

Every id the emulator hands out (jobs, sessions, activity entries, webhook
deliveries) is drawn from one generator, so a seeded emulator, and every
screenshot and test built on it, is deterministic.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable

NewId = Callable[[], str]
"""What a part that hands out ids is given: a callable returning a fresh UUID4 string."""


class SeededIds:
    """UUIDs and API keys drawn from one generator seeded with the emulator's seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def new_id(self) -> str:
        """A UUID4 string drawn from the seeded generator."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def new_api_key(self) -> str:
        """A key in the service's format (`wds-` and 32 hex characters), drawn from the seeded generator."""
        return "wds-" + "%032x" % self.rng.getrandbits(128)
