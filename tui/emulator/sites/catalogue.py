"""The catalogue of a big synthetic site: up to ~160,000 pages that exist only when asked for.

Item `i` (0 <= i < size) is derived from (seed, base, i) with integer
arithmetic, never stored: a map of 100,000 URLs costs a few microseconds a
URL and keeps nothing once answered. By `i % 10` an item is

- 0-6: a product, `https://<base>/catalog/<tag>/<product>-<i>`,
- 7-8: an archive post, `https://blog.<base>/archive/<year>/<topic>-<i>`,
- 9: a knowledge-base article, `https://docs.<base>/kb/<guide>-<i>`.

Every item ends in `-<i>`, so a URL leads back to its item. Each section has a
hub (`/catalog`, `/archive`, `/kb`) whose listing pages (`?page=2`, ...) link
the items `LISTING_SPAN` at a time; the site's home page links the hubs. As on
real sites, the sitemap and the links disagree a little: items with
`i % SITEMAP_ONLY_EVERY == 0` are only in the sitemap, those with
`i % LINKED_ONLY_EVERY == 0` only linked (when both hold, the sitemap wins).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from tui.emulator.sites.content import Theme, slugify, titled
from tui.emulator.sites.page import Page

LISTING_SPAN = 500  # items (of every section) covered by one listing page
SITEMAP_ONLY_EVERY = 13
LINKED_ONLY_EVERY = 17
_SECTION_OF_SLOT = ("catalog",) * 7 + ("archive",) * 2 + ("kb",)
_HUB_PATH = {"catalog": "/catalog", "archive": "/archive", "kb": "/kb"}
_PAGE_SECTION = {"catalog": "products", "archive": "blog", "kb": "docs"}  # as the scrape engine knows them


def _article(word: str) -> str:
    return "An" if word[:1].lower() in "aeiou" else "A"


class Catalogue:
    """`size` pages of one site, derived on demand; the hosts are the site's (main, docs, blog)."""

    def __init__(self, seed: int, base: str, theme: Theme, brand: str, size: int) -> None:
        self.base, self.theme, self.brand, self.size = base, theme, brand, size
        self._salt = zlib.crc32(f"catalogue:{seed}:{base}".encode())
        self._host_of = {"catalog": base, "archive": f"blog.{base}", "kb": f"docs.{base}"}
        self._prefix_of = {section: f"https://{host}{_HUB_PATH[section]}" for section, host in self._host_of.items()}
        self.listing_pages = max(1, -(-size // LISTING_SPAN))
        self._tables()

    def _tables(self) -> None:
        """Every URL prefix and text an item can draw, formatted once: a map derives 100,000 items."""
        theme, brand, hubs = self.theme, self.brand, self._prefix_of
        products = [(p, slugify(p)) for p in theme.products]
        topics = [(t, slugify(t)) for t in theme.topics]
        self._catalog_urls = [[f"{hubs['catalog']}/{tag}/{slug}-" for _, slug in products] for tag in theme.tags]
        self._archive_urls = [[f"{hubs['archive']}/{2015 + year}/{slug}-" for _, slug in topics] for year in range(11)]
        self._kb_urls = [f"{hubs['kb']}/{guide}-" for guide in theme.guides]
        self._catalog_texts = [
            [
                (
                    f"{product}, {adjective} edition #",
                    f" | {brand}",
                    [
                        f"{_article(adjective)} {adjective} {product.lower()} from {brand}, chosen for {topic}."
                        for topic in theme.topics
                    ],
                )
                for adjective in theme.adjectives
            ]
            for product in theme.products
        ]
        self._archive_texts = [f"From the {brand} archive: what {topic} taught us." for topic in theme.topics]
        self._kb_texts = [
            [
                (
                    f"{titled(guide)}: how to {verb} (",
                    [f"Knowledge base: {verb} with {topic}, step by step." for topic in theme.topics],
                )
                for verb in theme.verbs
            ]
            for guide in theme.guides
        ]

    # -- items ---------------------------------------------------------------------

    def _mix(self, i: int) -> int:
        return ((i + 1) * 2654435761 ^ self._salt) & 0xFFFFFFFF

    def url(self, i: int) -> str:
        """The URL of item `i`."""
        h = ((i + 1) * 2654435761 ^ self._salt) & 0xFFFFFFFF
        slot = i % 10
        if slot < 7:
            by_tag = self._catalog_urls[h % len(self._catalog_urls)]
            return f"{by_tag[(h >> 8) % len(by_tag)]}{i}"
        if slot < 9:
            by_year = self._archive_urls[(h >> 4) % 11]
            return f"{by_year[(h >> 8) % len(by_year)]}{i}"
        return f"{self._kb_urls[(h >> 8) % len(self._kb_urls)]}{i}"

    def entry(self, i: int) -> tuple[str, str]:
        """(title, description) of item `i`, as a map lists them."""
        h = ((i + 1) * 2654435761 ^ self._salt) & 0xFFFFFFFF
        slot = i % 10
        topic = (h >> 12) % len(self._archive_texts)
        if slot < 7:
            by_adjective = self._catalog_texts[(h >> 8) % len(self._catalog_texts)]
            head, tail, descriptions = by_adjective[(h >> 3) % len(by_adjective)]
            return f"{head}{i}{tail}", descriptions[topic]
        if slot < 9:
            return f"Notes on {self.theme.topics[topic]}, part {i}", self._archive_texts[topic]
        by_verb = self._kb_texts[(h >> 8) % len(self._kb_texts)]
        head, descriptions = by_verb[(h >> 16) % len(by_verb)]
        return f"{head}{i})", descriptions[topic]

    def text_parts(self, i: int) -> tuple[str, ...]:
        """`url title description` of item `i` as parts split at non-word characters, for `map_search`."""
        number = str(i)
        url = self.url(i)
        title, description = self.entry(i)
        head, _, tail = title.partition(number)
        return url[: -len(number)], number, " ", head, number, tail, " ", description

    def host_of_item(self, i: int) -> str:
        return self._host_of[_SECTION_OF_SLOT[i % 10]]

    def in_sitemap(self, i: int) -> bool:
        return i % LINKED_ONLY_EVERY != 0 or i % SITEMAP_ONLY_EVERY == 0

    def is_linked(self, i: int) -> bool:
        return i % SITEMAP_ONLY_EVERY != 0

    def index_of(self, url: str) -> int | None:
        """The item at `url` (no query), or None when `url` is not one."""
        _, dash, number = url.rpartition("-")
        if not dash or not number.isdigit():
            return None
        i = int(number)
        return i if i < self.size and self.url(i) == url else None

    # -- hubs and listings ---------------------------------------------------------------

    def hub_urls(self) -> tuple[str, ...]:
        """The three section hubs, linked from the site's home page."""
        return tuple(self._prefix_of.values())

    def listing_url(self, section: str, page: int) -> str:
        hub = self._prefix_of[section]
        return hub if page == 1 else f"{hub}?page={page}"

    def owns(self, url: str) -> bool:
        """Whether `url` is one of the catalogue's pages (a hub, a listing or an item)."""
        return url.startswith(tuple(self._prefix_of.values()))

    # -- what a map or a crawl sees --------------------------------------------------------

    def sitemap_items(self, host: str | None = None) -> Iterator[tuple[str, int]]:
        """(URL, item number) of what the sitemap of `host` lists (every host when None); hubs are -1."""
        for section, hub in self._prefix_of.items():
            if host is None or self._host_of[section] == host:
                yield hub, -1
        slots = [
            slot for slot, section in enumerate(_SECTION_OF_SLOT) if host is None or self._host_of[section] == host
        ]
        url, in_sitemap = self.url, self.in_sitemap
        for start in range(0, self.size, 10):
            for slot in slots:
                i = start + slot
                if i < self.size and in_sitemap(i):
                    yield url(i), i

    def sitemap_urls(self, host: str | None = None) -> Iterator[str]:
        """Hubs and items listed in the sitemap of `host` (every host when None)."""
        return (url for url, _ in self.sitemap_items(host))

    def linked_items(self, *, skip_sitemapped: bool = False) -> Iterator[tuple[str, int]]:
        """(URL, item number) of every catalogue page reachable by links: listing pages (-1), linked items.

        Any catalogue page links its listing and the site's header, so one reached
        page reaches all of these; a map adds them at once instead of walking them.
        `skip_sitemapped` leaves out the items the sitemap lists (a map that read it has them).
        """
        for section in self._prefix_of:
            for page in range(1, self.listing_pages + 1):
                yield self.listing_url(section, page), -1
        url, linked, in_sitemap = self.url, self.is_linked, self.in_sitemap
        for i in range(self.size):
            if linked(i) and not (skip_sitemapped and in_sitemap(i)):
                yield url(i), i

    def describe(self, url: str) -> tuple[str, str] | None:
        """(title, description) of a catalogue page without deriving its links; None when there is none."""
        i = self.index_of(url)
        if i is not None:
            return self.entry(i)
        plain, _, query = url.partition("?")
        for section, hub in self._prefix_of.items():
            if plain == hub:
                page = self._listing_number(query)
                return None if page is None else self._listing_text(section, page)
        return None

    def lookup(self, host: str, path: str, query: str) -> Page | None:
        """The catalogue page at (host, path, query), links included; None when there is none."""
        plain = f"https://{host}{path}"
        for section, hub in self._prefix_of.items():
            if plain == hub:
                return self._listing(section, query)
        i = self.index_of(plain)
        if i is None:
            return None
        title, description = self.entry(i)
        section = _SECTION_OF_SLOT[i % 10]
        links = [self.listing_url(section, i // LISTING_SPAN + 1)]
        neighbour = i + 10
        if neighbour < self.size and self.is_linked(neighbour):
            links.append(self.url(neighbour))
        return Page(
            host=host,
            path=path,
            query=query,
            title=title,
            description=description,
            section=_PAGE_SECTION[section],
            links=tuple(links),
            in_sitemap=self.in_sitemap(i) and not query,
            load_ms=250 + self._mix(i) % 1500,
        )

    def _listing_number(self, query: str) -> int | None:
        if not query:
            return 1
        key, _, value = query.partition("=")
        if key != "page" or not value.isdigit() or not 1 <= int(value) <= self.listing_pages:
            return None
        return int(value)

    def _listing_text(self, section: str, page: int) -> tuple[str, str]:
        name = {"catalog": "Catalog", "archive": "Archive", "kb": "Knowledge base"}[section]
        title = f"{name} | {self.brand}" if page == 1 else f"{name}, page {page} | {self.brand}"
        return title, f"{name} of {self.brand}: page {page} of {self.listing_pages}."

    def _listing(self, section: str, query: str) -> Page | None:
        page = self._listing_number(query)
        if page is None:
            return None
        first = (page - 1) * LISTING_SPAN
        items = [
            self.url(i)
            for i in range(first, min(first + LISTING_SPAN, self.size))
            if _SECTION_OF_SLOT[i % 10] == section and self.is_linked(i)
        ]
        if page < self.listing_pages:
            items.append(self.listing_url(section, page + 1))
        title, description = self._listing_text(section, page)
        return Page(
            host=self._host_of[section],
            path=_HUB_PATH[section],
            query=query,
            title=title,
            description=description,
            section=_PAGE_SECTION[section],
            links=tuple(items),
            in_sitemap=page == 1,
            load_ms=400,
        )
