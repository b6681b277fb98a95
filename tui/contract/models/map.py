"""Site maps (`POST /v2/map`).

A map may hold 100,000 links, and the map explorer must show them within half
a second of the answer. A pydantic model per link costs ~0.27 s for that many;
a slotted frozen dataclass validated by pydantic's core costs ~0.08 s, with the
same typed attributes and the same errors naming the bad link. What it gives
up: fields of a link beyond url, title and description are not kept (the
contract defines no others).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import ConfigDict, ValidationError, ValidatorFunctionWrapHandler, WrapValidator

from tui.contract.models.common import WdsModel


@dataclass(frozen=True, slots=True)
class MapLink:
    """One URL of a site, with its title and description when known."""

    # A slotted link has no room for unknown fields: they are dropped, not refused.
    __pydantic_config__ = ConfigDict(extra="ignore")

    url: str
    title: str | None = None
    description: str | None = None


def _links_from_strings(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    # Older deployments answer with bare URL strings instead of link objects. Looked
    # for only when the list does not read as links: no extra pass over 100,000 of them.
    try:
        return handler(value)
    except ValidationError:
        if isinstance(value, list) and any(isinstance(item, str) for item in value):
            return handler([{"url": item} if isinstance(item, str) else item for item in value])
        raise


class MapResult(WdsModel):
    """The URLs of a site, most relevant first when a search was given."""

    success: bool = True
    # always sent: a map without `links` is a broken answer, not a site without pages
    links: Annotated[list[MapLink], WrapValidator(_links_from_strings)]
