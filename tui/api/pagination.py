"""An async iterator over all the pages of a cursor-paged list.

After anthropic-sdk-python's `pagination.py`: a page is a model that knows
whether more follows (`has_more`) and how to ask for it (`cursor`)
(`tui.contract.models.page.CursorPage`); an `AsyncCursorPager` walks every
page for you:

    async for entry in client.team.iter_activity(endpoint="crawl"):
        ...
    async for page in client.team.iter_activity().pages():
        ...
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Generic, TypeVar

from tui.api.errors import InvalidResponseError
from tui.contract.models.page import CursorPage

ItemT = TypeVar("ItemT")


PageFetcher = Callable[[str | None], Awaitable[CursorPage[ItemT]]]


class AsyncCursorPager(Generic[ItemT]):
    """Iterates over every item of every page, fetching pages as they are needed.

    `fetch_page(cursor)` returns one page; it is first called with None. Each
    `async for` starts again from the first page. Iteration stops on the last
    page, or raises `InvalidResponseError` if the server hands back a cursor it
    already gave, which would otherwise loop for ever.
    """

    def __init__(self, fetch_page: PageFetcher[ItemT], *, max_pages: int | None = None) -> None:
        self._fetch_page = fetch_page
        self._max_pages = max_pages

    def __aiter__(self) -> AsyncIterator[ItemT]:
        return self._items()

    async def _items(self) -> AsyncIterator[ItemT]:
        async for page in self.pages():
            for item in page.data:
                yield item

    async def pages(self) -> AsyncIterator[CursorPage[ItemT]]:
        """Every page in turn, from the first."""
        cursor: str | None = None
        seen: set[str] = set()
        fetched = 0
        while True:
            page = await self._fetch_page(cursor)
            fetched += 1
            yield page
            cursor = page.next_cursor
            if cursor is None or (self._max_pages is not None and fetched >= self._max_pages):
                return
            if cursor in seen:
                raise InvalidResponseError(
                    f"the server sent cursor {cursor[:40]!r} a second time; stopped paging to avoid an endless loop",
                    status=200,
                    content_type="application/json",
                    excerpt=cursor[:200],
                )
            seen.add(cursor)

    async def to_list(self) -> list[ItemT]:
        """Every item of every page, collected in a list."""
        return [item async for item in self]
