"""`POST /v2/map`: the URLs of a synthetic site, as the service lists them.

URLs come from the host's sitemap and from following links from the start
URL (breadth first, within the site's own hosts), then:
- `sitemap`: `include` (default) both, `skip` links only, `only` the sitemap only;
- `includeSubdomains` (default true): keep `docs.<host>`-style hosts;
- `ignoreQueryParameters` (default true): leave out URLs that carry a query;
- `search`: order by BM25 relevance of URL, title and description (non-matching URLs follow);
  at most `MAP_SEARCH_MAX` characters (the contract states no bound; a 200 KB search
  once held the event loop for seconds), longer answers 400;
- `limit` (default 5000): at most that many links;
- `timeout` (ms): a map that would take longer answers 408.
"""

from __future__ import annotations

from collections import deque

from tui.api.limits import MAP_LIMIT_DEFAULT, MAP_SEARCH_MAX
from tui.api.requests import MapRequest
from tui.emulator.sites.site import SiteSource, same_host, split_url
from tui.emulator.core.errors import InvalidRequest
from tui.emulator.core.text_search import BM25Index

# What listing one URL costs the emulated mapper, for `timeout`.
MAP_BASE_MS = 150
MAP_MS_PER_URL = 4


def _in_scope(host: str, start_host: str, include_subdomains: bool) -> bool:
    if same_host(host, start_host):
        return True
    return include_subdomains and host.endswith("." + start_host.removeprefix("www."))


def map_links(sites: SiteSource, request: MapRequest) -> list[dict[str, str]]:
    """The links `POST /v2/map` answers for `request` (raises TimeoutError past `timeout`).

    Raises `InvalidRequest` for a search longer than `MAP_SEARCH_MAX`.
    """
    if request.search is not None and len(request.search) > MAP_SEARCH_MAX:
        message = f"String should have at most {MAP_SEARCH_MAX} characters"
        raise InvalidRequest(f"Invalid request body: search: {message}", [{"path": ["search"], "message": message}])
    start_host, _, _ = split_url(request.url)
    site = sites.site(start_host)
    include_subdomains = request.include_subdomains is not False
    ignore_query = request.ignore_query_parameters is not False
    mode = request.sitemap or "include"

    found: dict[str, None] = {}
    if mode != "skip":
        for url in site.sitemap_urls():
            found[url] = None
    if mode != "only":
        queue = deque([request.url])
        visited = {request.url}
        while queue:
            url = queue.popleft()
            page = site.lookup(url)
            found.setdefault(page.url if page is not None else url, None)
            if page is None or page.status_code >= 400:
                continue
            for link in page.links:
                if link in visited:
                    continue
                visited.add(link)
                # Links to other sites are not this site's URLs: a map never lists or follows them.
                if split_url(link)[0].removeprefix("www.") in site.hosts:
                    queue.append(link)

    urls = []
    for url in found:
        host, _, query = split_url(url)
        if not _in_scope(host, start_host, include_subdomains):
            continue
        if query and ignore_query:
            continue
        urls.append(url)

    cost_ms = MAP_BASE_MS + MAP_MS_PER_URL * len(urls)
    if request.timeout is not None and request.timeout < cost_ms:
        raise TimeoutError(f"Map timed out after {request.timeout} ms (this site needs about {cost_ms} ms).")

    links = []
    for url in urls:
        page = site.lookup(url)
        links.append({"url": url, "title": page.title if page else "", "description": page.description if page else ""})
    if request.search:
        index = BM25Index([f"{link['url']} {link['title']} {link['description']}" for link in links])
        ranked = [hit.index for hit in index.search(request.search)]
        ranked_set = set(ranked)
        rest = [i for i in range(len(links)) if i not in ranked_set]
        links = [links[i] for i in ranked + rest]
    return links[: request.limit or MAP_LIMIT_DEFAULT]
