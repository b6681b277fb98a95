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
from dataclasses import dataclass, field
from typing import Protocol

from tui.emulator.sites import sitemaps
from tui.emulator.sites.catalogue import Catalogue
from tui.emulator.sites.content import (
    THEMES,
    PageBody,
    Theme,
    paragraph,
    slugify,
    titled,
    write_sections,
)
from tui.emulator.sites.page import Page, base_domain, path_depth, same_host, split_url
from tui.emulator.sites.sizes import SiteSize, site_size

# Re-exported: the rest of the emulator imports the URL helpers from here.
__all__ = ["Page", "SiteSource", "SyntheticSite", "base_domain", "path_depth", "same_host", "split_url"]

ROBOTS_DISALLOWED = ("/admin", "/internal")
NORMAL_LOAD_MS = (250, 2500)
SLOW_LOAD_MS = (75_000, 140_000)
RENDER_DELAY_MS = (2_500, 4_500)


@dataclass
class _Draft:
    """A page while the site is being built: links are added after every page exists."""

    page: Page
    links: list[str] = field(default_factory=list)


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
        self._pages: dict[tuple[str, str, str], Page] = {}
        builder = _SiteBuilder(self, rng)
        if self.size.kind == "brochure":
            builder.build_brochure()
        else:
            builder.build()

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
        return Page(host=host, path=path, query=query, title="Page not found",
                    description="The page you were looking for does not exist.",
                    section="missing", in_sitemap=False, status_code=404, load_ms=200, exists=False)

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
            return PageBody(page.title, page.description, (), (), (), (), (), raw_text=self._sitemap_xml(page.host, page.path))
        if not page.exists:
            return PageBody(page.title, page.description, (), nav, footer, (), ())
        if page.status_code >= 500:
            return PageBody("Internal Server Error", "The server encountered an error.", (), (), (), (), ())
        sections = write_sections(rng, self.theme, rng.randint(1, 3))
        main_links = tuple((self._label_for(link), link) for link in page.links
                           if not self._is_chrome(link, nav, footer))
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
        return (("Home", f"https://{b}/"), ("Blog", f"https://{b}/blog"), ("Products", f"https://{b}/products"),
                ("Docs", f"https://docs.{b}/"), ("Pricing", f"https://{b}/pricing"), ("About", f"https://{b}/about"))

    def footer(self) -> tuple[tuple[str, str], ...]:
        """(label, URL) of the footer every ordinary page carries (one link leaves the site)."""
        b = self.base
        if self.size.kind == "brochure":
            return (("Privacy", f"https://{b}/legal/privacy"),)
        return (("Privacy", f"https://{b}/legal/privacy"), ("Terms", f"https://{b}/legal/terms"),
                ("Careers", f"https://{b}/careers"), ("GitHub", f"https://github.com/{slugify(self.brand)}"))

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
        return Page(host=host, path=path, query="", title=name, description="Sitemap.", section="sitemap",
                    in_sitemap=False, load_ms=300)


class _SiteBuilder:
    """Lays out the pages and links of a `SyntheticSite` from its random generator."""

    def __init__(self, site: SyntheticSite, rng: random.Random) -> None:
        self.site = site
        self.rng = rng
        self.theme = site.theme
        self.drafts: dict[tuple[str, str, str], _Draft] = {}

    def build(self) -> None:
        b, docs, blog = self.site.hosts
        rng, theme, brand = self.rng, self.theme, self.site.brand
        year = 2020 + rng.randint(0, 4)
        self.add(b, "/", f"{brand}: {theme.trade}", f"{brand} is a {theme.trade}.", "home")
        for slug in ("about", "contact", "pricing", "careers"):
            self.add(b, f"/{slug}", f"{titled(slug)} | {brand}", self.describe(slug), slug)
        self.add(b, "/pricing/enterprise", f"Enterprise pricing | {brand}", "Plans for large teams.", "pricing",
                 protected=True)
        posts = self.blog_posts(b)
        self.add(b, "/blog", f"Blog | {brand}", f"Notes from the {theme.trade}.", "blog")
        self.add(b, "/blog", f"Blog, page 2 | {brand}", "Older posts.", "blog", query="page=2", in_sitemap=False)
        products = [self.add(b, f"/products/{slugify(name)}", f"{name} | {brand}", self.describe(name), "products")
                    for name in rng.sample(theme.products, rng.randint(5, 8))]
        self.add(b, "/products", f"Products | {brand}", f"Everything {brand} sells.", "products",
                 render_ms=rng.randint(*RENDER_DELAY_MS))
        main_docs = [self.add(b, f"/docs/{slug}", f"{titled(slug)} | {brand} docs", self.describe(slug), "docs")
                     for slug in theme.guides[: rng.randint(3, 5)]]
        self.add(b, "/docs", f"Docs | {brand}", "Help for customers.", "docs")
        roles = [self.add(b, f"/careers/{role}", f"{titled(role)} | Careers", self.describe(role), "careers",
                          in_sitemap=False) for role in theme.roles]
        self.add(b, "/legal/privacy", "Privacy policy", "How we handle personal data.", "legal")
        self.add(b, "/legal/terms", "Terms of service", "The terms of using this site.", "legal")
        self.add(b, f"/reports/annual-{year}", f"Annual report {year}", "A long report that loads slowly.",
                 "reports", load_ms=rng.randint(*SLOW_LOAD_MS))
        self.add(b, "/status/legacy", "Legacy status page", "An old status page.", "status", status_code=500)
        self.add(b, "/admin", "Admin", "Staff only.", "admin", in_sitemap=False)
        self.add(b, "/admin/settings", "Admin settings", "Staff only.", "admin", in_sitemap=False)
        self.add(b, "/internal/metrics", "Internal metrics", "Staff only.", "internal", in_sitemap=False)
        for topic in rng.sample(theme.topics, 2):
            # Landing pages are linked from nowhere: only the sitemap knows them, on purpose.
            slug = slugify(topic)
            self.add(b, f"/landing/{slug}", f"{titled(slug)} offer", self.describe(topic), "landing")
        docs_pages = self.docs_host(docs)
        blog_pages = self.blog_host(blog)
        for host in self.site.hosts:
            self.add(host, "/robots.txt", "robots.txt", "Crawler rules.", "robots", in_sitemap=False)
            self.add(host, "/sitemap.xml", "sitemap.xml", "Sitemap.", "sitemap", in_sitemap=False)

        u = self.url
        self.link(u(b, "/"), [u(b, "/blog"), u(b, "/products"), u(b, "/careers"), u(b, f"/reports/annual-{year}"),
                              u(docs, "/"), u(blog, "/")] + posts[:3] + products[:3])
        self.link(u(b, "/about"), [u(b, "/contact"), u(b, "/status/legacy"), u(b, "/careers")])
        self.link(u(b, "/pricing"), [u(b, "/pricing/enterprise"), u(b, "/contact")] + products[:2])
        self.link(u(b, "/careers"), roles)
        self.link(u(b, "/blog"), posts[:5] + [u(b, "/blog", "page=2")])
        removed = u(b, f"/blog/{slugify(rng.choice(theme.topics))}-archive")
        self.link(u(b, "/blog", "page=2"), posts[5:] + [removed, u(b, "/blog")])
        for i, post in enumerate(posts):
            self.link(post, [u(b, "/blog"), posts[(i + 1) % len(posts)], f"{post}?utm_source=share"])
        self.link(u(b, "/products"), products + [u(b, "/pricing")])
        for product in products:
            variants = [f"{product}?variant={slugify(adj)}" for adj in rng.sample(theme.adjectives, 2)]
            self.link(product, variants + [u(b, "/products"), u(b, "/pricing")])
        self.link(u(b, "/docs"), main_docs + [u(docs, "/")])
        for page in main_docs:
            self.link(page, [u(b, "/docs"), u(docs, "/quickstart")])
        self.link(u(b, "/legal/privacy"), [u(b, "/legal/terms"), u(b, "/admin")])
        self.link(u(b, f"/reports/annual-{year}"), [u(b, "/internal/metrics"), u(b, "/about")])
        self.link(u(b, "/admin"), [u(b, "/admin/settings")])
        self.link(u(docs, "/"), docs_pages + [u(b, "/")])
        for page in docs_pages:
            self.link(page, [u(docs, "/"), rng.choice(docs_pages)])
        self.link(u(blog, "/"), blog_pages)
        for page in blog_pages:
            self.link(page, [u(blog, "/"), u(b, "/blog")])
        if self.site.catalogue is not None:
            self.link(u(b, "/"), list(self.site.catalogue.hub_urls()))
        self.finish()

    def build_brochure(self) -> None:
        """A handful of pages on the main host only: home, about, contact, a few products, privacy."""
        b, rng, theme, brand = self.site.base, self.rng, self.theme, self.site.brand
        self.add(b, "/", f"{brand}: {theme.trade}", f"{brand} is a {theme.trade}.", "home")
        for slug in ("about", "contact"):
            self.add(b, f"/{slug}", f"{titled(slug)} | {brand}", self.describe(slug), slug)
        products = [self.add(b, f"/products/{slugify(name)}", f"{name} | {brand}", self.describe(name), "products")
                    for name in rng.sample(theme.products, rng.randint(1, 4))]
        self.add(b, "/legal/privacy", "Privacy policy", "How we handle personal data.", "legal")
        self.add(b, "/robots.txt", "robots.txt", "Crawler rules.", "robots", in_sitemap=False)
        self.add(b, "/sitemap.xml", "sitemap.xml", "Sitemap.", "sitemap", in_sitemap=False)
        u = self.url
        self.link(u(b, "/"), [u(b, "/about"), u(b, "/contact"), u(b, "/legal/privacy")] + products)
        for product in products:
            self.link(product, [u(b, "/"), u(b, "/contact")])
        self.finish()

    def blog_posts(self, host: str) -> list[str]:
        rng, theme = self.rng, self.theme
        titles = []
        for topic in rng.sample(theme.topics, rng.randint(7, 9)):
            pattern = rng.choice(("A guide to {t}", "What we learned about {t}", "{n} notes on {t}", "Why {t} matters"))
            titles.append(pattern.format(t=topic, n=rng.randint(3, 9)))
        return [self.add(host, f"/blog/{slugify(t)}", t.capitalize(), self.describe(t), "blog") for t in titles]

    def docs_host(self, host: str) -> list[str]:
        theme = self.theme
        pages = [self.add(host, "/", f"{self.site.brand} documentation", "Guides and API reference.", "docs")]
        pages.append(self.add(host, "/quickstart", "Quickstart", "Get going in five minutes.", "docs"))
        pages += [self.add(host, f"/guides/{slug}", titled(slug), self.describe(slug), "docs") for slug in theme.guides]
        pages += [self.add(host, f"/api/{res}", f"{titled(res)} API", f"Endpoints for {res}.", "docs")
                  for res in theme.api_resources]
        pages.append(self.add(host, "/changelog", "Changelog", "What changed, release by release.", "docs"))
        return pages[1:]

    def blog_host(self, host: str) -> list[str]:
        rng, theme = self.rng, self.theme
        pages = [self.add(host, "/", f"{self.site.brand} engineering blog", "Longer stories.", "blog")]
        for topic in rng.sample(theme.topics, 4):
            year = 2021 + rng.randint(0, 3)
            pages.append(self.add(host, f"/{year}/{slugify(topic)}", f"Notes on {topic}", self.describe(topic), "blog"))
        pages += [self.add(host, f"/tags/{tag}", f"Posts tagged {tag}", f"Everything about {tag}.", "blog")
                  for tag in theme.tags[:3]]
        return pages[1:]

    def describe(self, subject: str) -> str:
        sentence = paragraph(self.rng, self.theme, 1)
        return f"{titled(slugify(subject))}: {sentence}"

    @staticmethod
    def url(host: str, path: str, query: str = "") -> str:
        return f"https://{host}{path}" + (f"?{query}" if query else "")

    def add(self, host: str, path: str, title: str, description: str, section: str, *, query: str = "",
            in_sitemap: bool = True, status_code: int = 200, load_ms: int | None = None, render_ms: int = 0,
            protected: bool = False) -> str:
        page = Page(host=host, path=path, query=query, title=title, description=description, section=section,
                    in_sitemap=in_sitemap, status_code=status_code,
                    load_ms=load_ms if load_ms is not None else self.rng.randint(*NORMAL_LOAD_MS),
                    render_ms=render_ms, protected=protected)
        self.drafts[(host, path, query)] = _Draft(page)
        return page.url

    def link(self, source: str, targets: list[str]) -> None:
        host, path, query = split_url(source)
        draft = self.drafts[(host, path, query)]
        for target in targets:
            if target != source and target not in draft.links:
                draft.links.append(target)

    def finish(self) -> None:
        nav = [href for _, href in self.site.nav()]
        footer = [href for _, href in self.site.footer()]
        for key, draft in self.drafts.items():
            page = draft.page
            links = list(draft.links)
            if page.section not in ("robots", "sitemap") and page.status_code < 500:
                links = nav + [link for link in links if link not in nav] + footer
                links = [link for link in links if link != page.url]
            self.site._pages[key] = Page(**{**page.__dict__, "links": tuple(dict.fromkeys(links))})


class SiteSource(Protocol):
    """Anything that hands out the site of a host (the `SiteRegistry`; tests may pass a stand-in)."""

    def site(self, host: str) -> SyntheticSite: ...
