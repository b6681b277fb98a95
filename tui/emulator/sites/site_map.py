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
- `timeout` (ms): a map that would take longer answers 408 (`map_cost_ms`).

A site's catalogue (`catalogue.py`) is not walked link by link: its pages
are added in bulk, and titles are derived only for the links answered.
"""

from __future__ import annotations

from collections import deque

from tui.contract.limits import MAP_LIMIT_DEFAULT, MAP_SEARCH_MAX
from tui.contract.requests import MapRequest
from tui.emulator.core.errors import InvalidRequest
from tui.emulator.sites.map_search import rank
from tui.emulator.sites.site import SiteSource, SyntheticSite, split_url

# What listing URLs costs the emulated mapper, for `timeout`: the first ones are looked at
# one by one, the bulk of a big site is read from its sitemap files (~6 s for 160,000 URLs).
MAP_BASE_MS = 150
MAP_MS_PER_URL = 4
MAP_URLS_LOOKED_AT = 1_000
MAP_BULK_URLS_PER_MS = 30


def map_links(sites: SiteSource, request: MapRequest) -> list[dict[str, str]]:
    """The links `POST /v2/map` answers for `request` (raises TimeoutError past `timeout`).

    Raises `InvalidRequest` for a search longer than `MAP_SEARCH_MAX`. A site's
    catalogue is not walked page by page: the first catalogue page the walk meets
    adds every page the catalogue's links reach (`Catalogue.linked_items`), and
    titles are derived only for the links answered, so mapping 100,000 of them
    takes well under a second.
    """
    if request.search is not None and len(request.search) > MAP_SEARCH_MAX:
        message = f"String should have at most {MAP_SEARCH_MAX} characters"
        raise InvalidRequest(f"Invalid request body: search: {message}", [{"path": ["search"], "message": message}])
    start_host, _, _ = split_url(request.url)
    site = sites.site(start_host)
    include_subdomains = request.include_subdomains is not False
    ignore_query = request.ignore_query_parameters is not False
    mode = request.sitemap or "include"

    # URL -> its catalogue item number (-1 for other pages), in the order they were found.
    found: dict[str, int] = {}
    catalogue = site.catalogue
    if mode != "skip":
        found.update(dict.fromkeys(site.sitemap_urls(with_catalogue=False), -1))
        if catalogue is not None:
            found.update(catalogue.sitemap_items())
    if mode != "only":
        reached, catalogue_met = _walk_links(site, request.url)
        for url in reached:
            found.setdefault(url, -1)
        if catalogue_met and catalogue is not None:
            found.update(catalogue.linked_items(skip_sitemapped=mode != "skip"))

    own = start_host.removeprefix("www.")
    hosts = [host for host in site.hosts if host == own or (include_subdomains and host.endswith("." + own))]
    if own == site.base:
        hosts.append(f"www.{own}")
    prefixes = tuple(f"https://{host}{end}" for host in hosts for end in ("/", "?"))
    urls = [
        (url, item) for url, item in found.items() if url.startswith(prefixes) and not (ignore_query and "?" in url)
    ]

    cost_ms = map_cost_ms(len(urls))
    if request.timeout is not None and request.timeout < cost_ms:
        raise TimeoutError(f"Map timed out after {request.timeout} ms (this site needs about {cost_ms} ms).")

    limit = request.limit or MAP_LIMIT_DEFAULT
    if not request.search:
        return [_link(site, url, item) for url, item in urls[:limit]]
    links = [_link(site, url, item) for url, item in urls]
    parts = [
        catalogue.text_parts(item)
        if item >= 0 and catalogue is not None
        else (f"{link['url']} {link['title']} {link['description']}",)
        for link, (_, item) in zip(links, urls, strict=True)
    ]
    return [links[i] for i in rank(parts, request.search)[:limit]]


def map_cost_ms(urls: int) -> int:
    """How long the emulated mapper takes to list `urls` URLs (a `timeout` below it answers 408)."""
    looked_at = min(urls, MAP_URLS_LOOKED_AT)
    return MAP_BASE_MS + MAP_MS_PER_URL * looked_at + (urls - looked_at) // MAP_BULK_URLS_PER_MS


def _walk_links(site: SyntheticSite, start_url: str) -> tuple[list[str], bool]:
    """URLs reached by following links from `start_url`, breadth first, within the site's own hosts.

    Catalogue pages are not walked (see `Catalogue.linked_items`); the flag says whether one was met.
    """
    catalogue = site.catalogue
    reached: list[str] = []
    queue = deque([start_url])
    visited = {start_url}
    catalogue_met = False
    while queue:
        url = queue.popleft()
        page = site.lookup(url)
        reached.append(page.url if page is not None else url)
        if page is None or page.status_code >= 400:
            continue
        if catalogue is not None and catalogue.owns(url):  # the start URL itself
            catalogue_met = True
        for link in page.links:
            if link in visited:
                continue
            visited.add(link)
            if catalogue is not None and catalogue.owns(link):
                catalogue_met = True
                continue
            # Links to other sites are not this site's URLs: a map never lists or follows them.
            if split_url(link)[0].removeprefix("www.") in site.hosts:
                queue.append(link)
    return reached, catalogue_met


def _link(site: SyntheticSite, url: str, item: int) -> dict[str, str]:
    """The map link of `url`: a catalogue page's title is derived without building the page."""
    catalogue = site.catalogue
    if item >= 0 and catalogue is not None:
        title, description = catalogue.entry(item)
        return {"url": url, "title": title, "description": description}
    described = catalogue.describe(url) if catalogue is not None and catalogue.owns(url) else None
    if described is not None:
        return {"url": url, "title": described[0], "description": described[1]}
    page = site.lookup(url)
    return {"url": url, "title": page.title if page else "", "description": page.description if page else ""}
