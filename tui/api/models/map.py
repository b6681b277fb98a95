"""Site maps (`POST /v2/map`)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator

from tui.api.models.common import WdsModel


class MapLink(WdsModel):
    """One URL of a site, with its title and description when known."""

    url: str
    title: str | None = None
    description: str | None = None


def _link_from_string(value: Any) -> Any:
    # Older deployments answer with bare URL strings instead of link objects.
    return {"url": value} if isinstance(value, str) else value


class MapResult(WdsModel):
    """The URLs of a site, most relevant first when a search was given."""

    success: bool = True
    # always sent: a map without `links` is a broken answer, not a site without pages
    links: list[Annotated[MapLink, BeforeValidator(_link_from_string)]]
