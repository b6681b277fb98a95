"""Many short texts held end to end in one string: a column of a map's links without an object per text.

A `str` costs 49 bytes besides its characters; a map of 100,000 links has
300,000 of them, 15 MB of headers alone, each one more object left in the
heap. `PackedTexts` keeps the characters of a whole column in one string and
where each text ends in an `array` (4 bytes a text), and cuts a text out when
it is asked for (a row drawn, a URL copied). Only a column of ASCII texts is
packed: one wide character would make the whole string 2 or 4 bytes a
character, so such a column stays a list.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain
from typing import cast, overload


class PackedTexts(Sequence[str | None]):
    """Texts (or None) end to end in one string, read back one at a time; equal to a list of the same texts."""

    __slots__ = ("_ends", "_missing", "_text")

    def __init__(self, text: str, ends: array[int], missing: bytes | None) -> None:
        self._text = text
        self._ends = ends  # where each text ends in `_text`
        self._missing = missing  # a 1 for each text that is None; None when none is

    @classmethod
    def pack(cls, texts: list[str | None]) -> Sequence[str | None]:
        """`texts` packed, or `texts` themselves when they are not all ASCII (or too few to be worth it)."""
        present = [text or "" for text in texts]
        joined = "".join(present)
        if not joined.isascii() or len(joined) >= 2**32:
            return texts
        missing = bytes([text is None for text in texts]) if None in texts else None
        return cls(joined, array("I", accumulate(map(len, present))), missing)

    def none_as_empty(self) -> Sequence[str]:
        """The same texts with "" for each None (the characters are shared, not copied)."""
        return cast("Sequence[str]", PackedTexts(self._text, self._ends, None))

    def __len__(self) -> int:
        return len(self._ends)

    @overload
    def __getitem__(self, index: int) -> str | None: ...
    @overload
    def __getitem__(self, index: slice) -> list[str | None]: ...
    def __getitem__(self, index: int | slice) -> str | None | list[str | None]:
        if isinstance(index, slice):
            return [self[position] for position in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self._ends)
        end = self._ends[index]  # raises IndexError past the end, as a list does
        if self._missing is not None and self._missing[index]:
            return None
        return self._text[self._ends[index - 1] if index else 0 : end]

    def __iter__(self) -> Iterator[str | None]:
        text, missing = self._text, self._missing
        cut = map(text.__getitem__, map(slice, chain((0,), self._ends), self._ends))
        if missing is None:
            return cut
        return (None if gone else piece for piece, gone in zip(cut, missing, strict=True))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(other) == len(self) and all(mine == theirs for mine, theirs in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have none

    def __repr__(self) -> str:
        return f"PackedTexts({len(self):,} texts, {len(self._text):,} characters)"
