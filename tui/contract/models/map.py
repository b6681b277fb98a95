"""Site maps (`POST /v2/map`).

A map may hold 100,000 links, and the map explorer must draw them within a
quarter of a second of the answer. A pydantic model per link costs ~0.27 s for
that many, a slotted dataclass per link ~0.08 s more than needed, and 100,000
objects stay alive. So `MapResult.links` is a `MapLinks`: three columns (url,
title, description) read straight off the parsed JSON in one pass, and a
`MapLink` is made only when a link is asked for. An answer that does not read
as plain links (a wrong type, a missing url, bare URL strings from older
deployments) goes through pydantic's validation of `list[MapLink]`, which gives
the same errors, naming the bad link, as before. What it gives up: fields of a
link beyond url, title and description are not kept (the contract defines no
others).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, cast, overload

from pydantic import ConfigDict, GetCoreSchemaHandler, ValidationError, ValidatorFunctionWrapHandler
from pydantic_core import CoreSchema, core_schema

from tui.contract.models.common import WdsModel
from tui.contract.models.packed_texts import PackedTexts

_NONE_OR_TEXT = frozenset({str, type(None)})
_url_of = itemgetter("url")


@dataclass(frozen=True, slots=True)
class MapLink:
    """One URL of a site, with its title and description when known."""

    # A slotted link has no room for unknown fields: they are dropped, not refused.
    __pydantic_config__ = ConfigDict(extra="ignore")

    url: str
    title: str | None = None
    description: str | None = None


class MapLinks(Sequence[MapLink]):
    """The links of a map as three columns; indexing or iterating gives `MapLink`s, made as asked.

    Read the columns (`urls`, `titles`, `descriptions`: lists of texts, or
    after `pack` one string each) to go over 100,000 links without making an
    object per link. Equal to any sequence of the same links
    (`result.links == []`).
    """

    __slots__ = ("descriptions", "titles", "urls")

    def __init__(self, urls: Sequence[str], titles: Sequence[str | None], descriptions: Sequence[str | None]) -> None:
        if not len(urls) == len(titles) == len(descriptions):
            raise ValueError("the columns of a map's links differ in length")
        self.urls = urls
        self.titles = titles
        self.descriptions = descriptions

    @classmethod
    def of(cls, links: Iterable[MapLink]) -> MapLinks:
        """The columns of `links`."""
        links = list(links)
        return cls([link.url for link in links], [link.title for link in links], [link.description for link in links])

    def pack(self) -> None:
        """Hold each column of ASCII texts as one string (`PackedTexts`): the same texts, a third less memory.

        Not done as the answer is read: packing 100,000 links takes longer
        than drawing them, so whoever keeps them packs them once they are shown.
        """
        self.urls = cast("Sequence[str]", _packed(self.urls))
        self.titles = _packed(self.titles)
        self.descriptions = _packed(self.descriptions)

    def __len__(self) -> int:
        return len(self.urls)

    @overload
    def __getitem__(self, index: int) -> MapLink: ...
    @overload
    def __getitem__(self, index: slice) -> MapLinks: ...
    def __getitem__(self, index: int | slice) -> MapLink | MapLinks:
        if isinstance(index, slice):
            return MapLinks(list(self.urls[index]), list(self.titles[index]), list(self.descriptions[index]))
        return MapLink(self.urls[index], self.titles[index], self.descriptions[index])

    def __iter__(self) -> Iterator[MapLink]:
        return map(MapLink, self.urls, self.titles, self.descriptions)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MapLinks):
            return (self.urls, self.titles, self.descriptions) == (other.urls, other.titles, other.descriptions)
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(other) == len(self) and all(mine == theirs for mine, theirs in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which have none

    def __repr__(self) -> str:
        return f"MapLinks({len(self):,} links)"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_wrap_validator_function(
            _links_from_answer,
            handler.generate_schema(list[MapLink]),
            serialization=core_schema.plain_serializer_function_ser_schema(_links_to_wire),
        )


def _packed(texts: Sequence[str | None]) -> Sequence[str | None]:
    return PackedTexts.pack(texts) if isinstance(texts, list) else texts


def _columns(value: Any) -> MapLinks | None:
    """The links of a list of link objects whose fields all have their contract's types, else None.

    Every step runs in C (`map` over the list): ~0.05 s for 100,000 links.
    """
    if type(value) is not list or (value and set(map(type, value)) != {dict}):
        return None
    try:
        urls = list(map(_url_of, value))
    except KeyError:
        return None
    titles = list(map(dict.get, value, repeat("title")))
    descriptions = list(map(dict.get, value, repeat("description")))
    if not set(map(type, urls)) <= {str} or not set(map(type, chain(titles, descriptions))) <= _NONE_OR_TEXT:
        return None
    return MapLinks(urls, titles, descriptions)


def _links_from_answer(value: Any, handler: ValidatorFunctionWrapHandler) -> MapLinks:
    if isinstance(value, MapLinks):
        return value
    plain = _columns(value)
    if plain is not None:
        return plain
    # Not plain links: pydantic's validation says which link is wrong, and how.
    try:
        return MapLinks.of(handler(value))
    except ValidationError:
        # Older deployments answer with bare URL strings instead of link objects.
        if isinstance(value, list) and any(isinstance(item, str) for item in value):
            return MapLinks.of(handler([{"url": item} if isinstance(item, str) else item for item in value]))
        raise


def _links_to_wire(links: MapLinks) -> list[dict[str, str | None]]:
    return [
        {"url": url, "title": title, "description": description}
        for url, title, description in zip(links.urls, links.titles, links.descriptions, strict=True)
    ]


class MapResult(WdsModel):
    """The URLs of a site, most relevant first when a search was given."""

    success: bool = True
    # always sent: a map without `links` is a broken answer, not a site without pages
    links: MapLinks
