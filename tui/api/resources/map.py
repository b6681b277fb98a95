"""`client.map(url, ...)`: the URLs of a site."""

from __future__ import annotations

from typing import Any

from tui.api.body_reader import map_answer_max_bytes
from tui.api.resources._base import READ_MARGIN, Resource, build_request
from tui.contract.models.map import MapResult
from tui.contract.requests import Location, MapRequest, SitemapMode

MAP_READ_TIMEOUT = 60.0
"""Read timeout when the call sets none: mapping a big site takes a while."""


class MapResource(Resource):
    """Map a site. The resource is called directly: `await client.map(url, limit=100)`."""

    async def __call__(
        self,
        url: str | None = None,
        *,
        search: str | None = None,
        sitemap: SitemapMode | None = None,
        include_subdomains: bool | None = None,
        ignore_query_parameters: bool | None = None,
        ignore_cache: bool | None = None,
        limit: int | None = None,
        timeout: int | None = None,
        location: Location | dict[str, Any] | None = None,
        request: MapRequest | None = None,
    ) -> MapResult:
        """The URLs of the site at `url` (`POST /v2/map`).

        `search` orders by relevance; `sitemap` is `skip`, `include` (default)
        or `only`; `limit` up to 100000 (default 5000); `timeout` in ms.
        """
        body = build_request(
            MapRequest,
            request,
            url=url,
            search=search,
            sitemap=sitemap,
            include_subdomains=include_subdomains,
            ignore_query_parameters=ignore_query_parameters,
            ignore_cache=ignore_cache,
            limit=limit,
            timeout=timeout,
            location=location,
        )
        read = body.timeout / 1000 + READ_MARGIN if body.timeout else MAP_READ_TIMEOUT
        # the answer lists at most the links asked for: its cap follows `limit`
        cap = map_answer_max_bytes(body.limit)
        return await self._client.request(
            "POST", "/v2/map", MapResult, json=body.to_wire(), read_timeout=read, max_bytes=cap
        )
