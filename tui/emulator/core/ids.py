"""Seeded ids and keys: the same seed gives the same ids, run after run.

Every id the emulator hands out (jobs, sessions, activity entries, webhook
deliveries) is drawn from one generator, so a seeded emulator, and every
screenshot and test built on it, is deterministic.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterable, Sequence

NewId = Callable[[], str]
"""What a part that hands out ids is given: a callable returning a fresh UUID4 string."""

NewIds = Callable[[int], "IdBlock"]
"""What a part that hands out many ids at once is given: `count` -> an `IdBlock` of fresh ids."""


class IdBlock(Sequence[str]):
    """`count` UUID4 strings kept as 16 bytes each, each made when asked for.

    A batch of 100,000 URLs needs an id per URL: as strings they were 9 MB
    (and 100,000 objects), as bytes they are 1.6 MB in one object.
    """

    __slots__ = ("_bits",)

    def __init__(self, bits: bytes) -> None:
        if len(bits) % 16:
            raise ValueError("an id block holds 16 bytes per id")
        self._bits = bits

    @classmethod
    def of(cls, ids: Iterable[str]) -> IdBlock:
        """A block holding `ids` (UUID strings)."""
        return cls(b"".join(uuid.UUID(value).int.to_bytes(16, "little") for value in ids))

    def __len__(self) -> int:
        return len(self._bits) // 16

    def __getitem__(self, index: int) -> str:  # type: ignore[override]  # no slices: one id at a time
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        value = int.from_bytes(self._bits[16 * index : 16 * index + 16], "little")
        return str(uuid.UUID(int=value, version=4))


class SeededIds:
    """UUIDs and API keys drawn from one generator seeded with the emulator's seed."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def new_id(self) -> str:
        """A UUID4 string drawn from the seeded generator."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def new_ids(self, count: int) -> IdBlock:
        """`count` ids, the very ones `count` calls of `new_id` would give, drawn in one call.

        `getrandbits(128 * count)` takes the generator's words in the order `count`
        calls of `getrandbits(128)` take them, least significant first, so the ids
        and everything drawn after them are the same either way (a seeded history
        stays the same when its batches take their page ids in one block).
        """
        if count <= 0:
            return IdBlock(b"")
        return IdBlock(self.rng.getrandbits(128 * count).to_bytes(16 * count, "little"))

    def new_api_key(self) -> str:
        """A key in the service's format (`wds-` and 32 hex characters), drawn from the seeded generator."""
        return f"wds-{self.rng.getrandbits(128):032x}"
