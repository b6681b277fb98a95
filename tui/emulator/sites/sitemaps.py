"""The sitemap files of a synthetic site, as its server would send them.

A site without a catalogue has one `sitemap.xml` per host listing every page.
A site with one follows the sitemap protocol's limit (50,000 URLs a file) as
big sites do: `sitemap.xml` is a sitemap index naming `sitemap-pages.xml` (the
standard pages and the hub) and `sitemap-catalogue-<n>.xml` files, each the
host's items numbered within `SITEMAP_SPAN` (at most 14,000 URLs).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tui.emulator.sites.catalogue import Catalogue

SITEMAP_SPAN = 20_000  # item numbers per catalogue sitemap file
PAGES_FILE = "/sitemap-pages.xml"
_CATALOGUE_FILE = re.compile(r"/sitemap-catalogue-(\d+)\.xml")
_HEAD = '<?xml version="1.0" encoding="UTF-8"?>'
_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9"


def urlset(urls: Iterable[str]) -> str:
    """A sitemap file listing `urls`."""
    entries = "".join(f"<url><loc>{url}</loc></url>" for url in urls)
    return f'{_HEAD}<urlset xmlns="{_NAMESPACE}">{entries}</urlset>\n'


def sitemap_index(locations: Iterable[str]) -> str:
    """A sitemap index naming the sitemap files at `locations`."""
    entries = "".join(f"<sitemap><loc>{location}</loc></sitemap>" for location in locations)
    return f'{_HEAD}<sitemapindex xmlns="{_NAMESPACE}">{entries}</sitemapindex>\n'


def catalogue_files(catalogue: Catalogue) -> int:
    """How many `sitemap-catalogue-<n>.xml` files each host of the site has."""
    return max(1, -(-catalogue.size // SITEMAP_SPAN))


def catalogue_file_number(catalogue: Catalogue, path: str) -> int | None:
    """`n` when `path` is an existing `/sitemap-catalogue-<n>.xml`, else None."""
    matched = _CATALOGUE_FILE.fullmatch(path)
    if matched is None:
        return None
    number = int(matched.group(1))
    return number if 1 <= number <= catalogue_files(catalogue) else None


def index_of_host(catalogue: Catalogue, host: str) -> str:
    """`sitemap.xml` of `host` on a site with a catalogue."""
    files = [f"https://{host}{PAGES_FILE}"]
    files += [f"https://{host}/sitemap-catalogue-{n}.xml" for n in range(1, catalogue_files(catalogue) + 1)]
    return sitemap_index(files)


def catalogue_file(catalogue: Catalogue, host: str, number: int) -> str:
    """`sitemap-catalogue-<number>.xml` of `host`: its items numbered in that file's span."""
    first, end = (number - 1) * SITEMAP_SPAN, min(number * SITEMAP_SPAN, catalogue.size)
    return urlset(
        catalogue.url(i) for i in range(first, end) if catalogue.host_of_item(i) == host and catalogue.in_sitemap(i)
    )
