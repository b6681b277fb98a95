"""Synthetic web sites: what the emulator "fetches" instead of the internet.

Any host gets a site, built deterministically from (seed, base domain): a main
host with a home page, blog, products, docs and legal pages, plus the
subdomains `docs.<base>` and `blog.<base>`, a robots.txt, per-host sitemaps,
query-parameter variants, and a few pages that fail for a known reason, so
jobs can fail the way real ones do and the support desk can say why:

- a broken link (404) from the blog's second page,
- `/status/legacy` answers 500,
- `/reports/annual-<year>` takes longer than the default 60 s timeout to load,
- `/pricing/enterprise` is behind anti-bot protection (403 unless an enhanced proxy is used),
- `/products` renders its list client-side after a few seconds (needs `waitFor`),
- `/admin` and `/internal` are disallowed by robots.txt,
- `/landing/...` pages are only in the sitemap, `/careers/...` only linked.

That is the `standard` layout; `sizes.py` says which hosts have it, which ones
are a brochure of a handful of pages, and which ones add a catalogue of up to
~160,000 pages derived on demand (`catalogue.py`).

Nothing here touches the network.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Protocol

from tui.emulator.sites import sitemaps
from tui.emulator.sites.catalogue import Catalogue
from tui.emulator.sites.content import THEMES, PageBody, Theme, slugify, titled, write_sections
from tui.emulator.sites.page import Page, base_domain, path_depth, same_host, split_url
from tui.emulator.sites.site_layout import PageKey, SiteLayout
from tui.emulator.sites.sizes import SiteSize, site_size

# Re-exported: the rest of the emulator imports the URL helpers from here.
__all__ = ["Page", "SiteSource", "SyntheticSite", "base_domain", "path_depth", "same_host", "split_url"]

ROBOTS_DISALLOWED = ("/admin", "/internal")


class SyntheticSite:
    """All pages of one base domain and its `docs.`/`blog.` subdomains."""

    def __init__(self, seed: int, base: str) -> None:
        self.seed = seed
        self.base = base_domain(base)
        self.hosts = (self.base, f"docs.{self.base}", f"blog.{self.base}")
        rng = random.Random(f"site:{seed}:{self.base}")
        self.theme: Theme = rng.choice(THEMES)
        label = self.base.split(".")[0] if "." in self.base else self.base
        self.brand = label.replace("-", " ").title() or "Example"
        self.size: SiteSize = site_size(seed, self.base)
        self.catalogue: Catalogue | None = None
        if self.size.catalogue_pages:
            self.catalogue = Catalogue(seed, self.base, self.theme, self.brand, self.size.catalogue_pages)
        chrome = ([href for _, href in self.nav()], [href for _, href in self.footer()])
        hubs = self.catalogue.hub_urls() if self.catalogue is not None else ()
        layout = SiteLayout(rng, self.theme, self.brand, self.hosts, chrome, hubs)
        self._pages: dict[PageKey, Page] = layout.brochure() if self.size.kind == "brochure" else layout.standard()

    # -- lookup ------------------------------------------------------------------

    @property
    def root_url(self) -> str:
        return f"https://{self.base}/"

    def pages(self) -> Iterator[Page]:
        """Every page built with the site, in order (a catalogue's pages are derived on demand, not listed)."""
        return iter(self._pages.values())

    def url_count(self) -> int:
        """How many pages the site has, its catalogue included (query variants not counted)."""
        return len(self._pages) + (self.catalogue.size if self.catalogue is not None else 0)

    def lookup(self, url: str) -> Page | None:
        """The page at `url`, or None when this site has no such path."""
        asked, path, query = split_url(url)
        host = self._canonical_host(asked)
        if host is None:
            return None
        found = self._pages.get((host, path, query))
        if found is None and self.catalogue is not None:
            if self.catalogue.owns(f"https://{host}{path}"):
                return self._with_chrome(self.catalogue.lookup(host, path, query))
            if path.startswith("/sitemap-") and not query:
                return self._sitemap_file(host, path)
        if found is None and query:
            # Servers ignore query parameters they do not know: same page, different URL.
            plain = self._pages.get((host, path, ""))
            if plain is not None and plain.section not in ("robots", "sitemap"):
                found = Page(**{**plain.__dict__, "query": query, "in_sitemap": False})
        return found

    def fetch(self, url: str) -> Page:
        """What a request for `url` meets: the page, or a 404 page when the path does not exist."""
        found = self.lookup(url)
        if found is not None:
            return found
        host, path, query = split_url(url)
        return Page(
            host=host,
            path=path,
            query=query,
            title="Page not found",
            description="The page you were looking for does not exist.",
            section="missing",
            in_sitemap=False,
            status_code=404,
            load_ms=200,
            exists=False,
        )

    def robots_allows(self, path: str) -> bool:
        """Whether robots.txt lets a crawler fetch `path` (same rules on every host)."""
        return not any(path == rule or path.startswith(rule + "/") for rule in ROBOTS_DISALLOWED)

    def sitemap_urls(self, host: str | None = None, *, with_catalogue: bool = True) -> Iterator[str]:
        """URLs listed in the sitemap of `host` (all hosts when None), derived as they are read."""
        wanted = None if host is None else self._canonical_host(host)
        if host is not None and wanted is None:
            return iter(())
        core = (p.url for p in self._pages.values() if p.in_sitemap and (wanted is None or p.host == wanted))
        if self.catalogue is None or not with_catalogue:
            return core
        return itertools.chain(core, self.catalogue.sitemap_urls(wanted))

    def body(self, page: Page) -> PageBody:
        """The readable content of `page`, written on demand from (seed, URL)."""
        rng = random.Random(f"page:{self.seed}:{page.url}")
        nav, footer = self.nav(), self.footer()
        if page.section == "robots":
            return PageBody(page.title, page.description, (), (), (), (), (), raw_text=self._robots_txt())
        if page.section == "sitemap":
            return PageBody(
                page.title, page.description, (), (), (), (), (), raw_text=self._sitemap_xml(page.host, page.path)
            )
        if not page.exists:
            return PageBody(page.title, page.description, (), nav, footer, (), ())
        if page.status_code >= 500:
            return PageBody("Internal Server Error", "The server encountered an error.", (), (), (), (), ())
        sections = write_sections(rng, self.theme, rng.randint(1, 3))
        main_links = tuple(
            (self._label_for(link), link) for link in page.links if not self._is_chrome(link, nav, footer)
        )
        has_image = page.section in ("products", "blog") and path_depth(page.path) >= 2
        images = (f"https://{self.base}/images/{slugify(page.title)}.jpg",) if has_image else ()
        return PageBody(page.title, page.description, sections, nav, footer, main_links, images)

    # -- helpers -------------------------------------------------------------------

    def _with_chrome(self, page: Page | None) -> Page | None:
        """A catalogue page with the header and footer links every ordinary page carries."""
        if page is None:
            return None
        nav = [href for _, href in self.nav()]
        footer = [href for _, href in self.footer()]
        links = [link for link in dict.fromkeys(nav + list(page.links) + footer) if link != page.url]
        return Page(**{**page.__dict__, "links": tuple(links)})

    def _canonical_host(self, host: str) -> str | None:
        host = host.lower()
        if host in self.hosts:
            return host
        if host == f"www.{self.base}":
            return self.base
        return None

    def nav(self) -> tuple[tuple[str, str], ...]:
        """(label, URL) of the header navigation every ordinary page carries."""
        b = self.base
        if self.size.kind == "brochure":
            return (("Home", f"https://{b}/"), ("About", f"https://{b}/about"), ("Contact", f"https://{b}/contact"))
        return (
            ("Home", f"https://{b}/"),
            ("Blog", f"https://{b}/blog"),
            ("Products", f"https://{b}/products"),
            ("Docs", f"https://docs.{b}/"),
            ("Pricing", f"https://{b}/pricing"),
            ("About", f"https://{b}/about"),
        )

    def footer(self) -> tuple[tuple[str, str], ...]:
        """(label, URL) of the footer every ordinary page carries (one link leaves the site)."""
        b = self.base
        if self.size.kind == "brochure":
            return (("Privacy", f"https://{b}/legal/privacy"),)
        return (
            ("Privacy", f"https://{b}/legal/privacy"),
            ("Terms", f"https://{b}/legal/terms"),
            ("Careers", f"https://{b}/careers"),
            ("GitHub", f"https://github.com/{slugify(self.brand)}"),
        )

    @staticmethod
    def _is_chrome(link: str, nav: tuple[tuple[str, str], ...], footer: tuple[tuple[str, str], ...]) -> bool:
        return any(link == href for _, href in nav + footer)

    def _label_for(self, url: str) -> str:
        page = self.lookup(url)
        if page is not None:
            return page.title
        host, path, _ = split_url(url)
        return titled(path.rsplit("/", 1)[-1]) or host

    def _robots_txt(self) -> str:
        rules = "\n".join(f"Disallow: {rule}" for rule in ROBOTS_DISALLOWED)
        return f"User-agent: *\n{rules}\n\nSitemap: https://{self.base}/sitemap.xml\n"

    def _sitemap_xml(self, host: str, path: str) -> str:
        if self.catalogue is None:
            return sitemaps.urlset(self.sitemap_urls(host))
        if path == "/sitemap.xml":
            return sitemaps.index_of_host(self.catalogue, host)
        if path == sitemaps.PAGES_FILE:
            hubs = (hub for hub in self.catalogue.hub_urls() if split_url(hub)[0] == host)
            return sitemaps.urlset(itertools.chain(self.sitemap_urls(host, with_catalogue=False), hubs))
        number = sitemaps.catalogue_file_number(self.catalogue, path)
        return sitemaps.catalogue_file(self.catalogue, host, number or 1)

    def _sitemap_file(self, host: str, path: str) -> Page | None:
        """A catalogue site's `sitemap-pages.xml` or `sitemap-catalogue-<n>.xml`, derived on demand."""
        assert self.catalogue is not None
        if path != sitemaps.PAGES_FILE and sitemaps.catalogue_file_number(self.catalogue, path) is None:
            return None
        name = path.lstrip("/")
        return Page(
            host=host,
            path=path,
            query="",
            title=name,
            description="Sitemap.",
            section="sitemap",
            in_sitemap=False,
            load_ms=300,
        )


class SiteSource(Protocol):
    """Anything that hands out the site of a host (the `SiteRegistry`; tests may pass a stand-in)."""

    def site(self, host: str) -> SyntheticSite: ...
