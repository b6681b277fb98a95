"""A batch's whole status: `GET /v2/batch/scrape/{id}`, then every `next` page, as one answer.

The service splits the documents of a big batch into pages and says where
the next one is (`next`, a URL with `skip` and `limit`). The status screen
wants every URL's row, so the pages are fetched in turn and their documents
joined. A service that sends a `next` going nowhere (the same or an earlier
`skip`) would make this loop for ever: paging stops there, and after
`MAX_PAGES` pages.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from tui.api.client import WdsClient
from tui.contract.models.batch import BatchScrapeStatus
from tui.contract.models.common import Document

MAX_PAGES = 200
"""At most this many pages per look (200,000 documents at the emulator's largest page)."""


def next_page(next_url: str, skip: int, got: int) -> tuple[int, int | None]:
    """`(skip, limit)` of the page `next_url` points to; without them, the page after the `got` documents at `skip`."""
    query = parse_qs(urlsplit(next_url).query)
    try:
        next_skip = int(query["skip"][0])
    except (KeyError, ValueError, IndexError):
        next_skip = skip + got
    try:
        limit: int | None = int(query["limit"][0])
    except (KeyError, ValueError, IndexError):
        limit = None
    return next_skip, limit


async def fetch_whole_status(
    client: WdsClient, batch_id: str, *, page_size: int | None = None
) -> tuple[BatchScrapeStatus, int]:
    """The batch's status with the documents of every page, and how many pages that took."""
    first = await client.batch.get(batch_id, limit=page_size)
    documents: list[Document] = list(first.data)
    page, skip, pages = first, 0, 1
    while page.next and pages < MAX_PAGES:
        next_skip, limit = next_page(page.next, skip, len(page.data))
        if next_skip <= skip:
            break  # a `next` that goes nowhere: stop rather than loop
        skip = next_skip
        page = await client.batch.get(batch_id, skip=skip, limit=limit or page_size)
        documents.extend(page.data)
        pages += 1
    # The last page's counts are the freshest: the batch went on while the pages were fetched.
    whole = page.model_copy(update={"data": documents, "next": None})
    return whole, pages
