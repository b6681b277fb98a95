"""The layout of a synthetic site: which pages it has, what each links to, which ones fail on purpose.

Its own module because it runs once, when a site is made, and is all writing: `SiteLayout`
draws every page and link from the site's random generator and hands back finished pages.
Everything after that (lookups, bodies, sitemaps) only reads them, in `site.py`.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from tui.emulator.sites.content import Theme, paragraph, slugify, titled
from tui.emulator.sites.page import Page, split_url

NORMAL_LOAD_MS = (250, 2500)
SLOW_LOAD_MS = (75_000, 140_000)
RENDER_DELAY_MS = (2_500, 4_500)

PageKey = tuple[str, str, str]  # (host, path, query)


@dataclass
class _Draft:
    """A page while the site is being built: links are added after every page exists."""

    page: Page
    links: list[str] = field(default_factory=list)


class SiteLayout:
    """Lays out the pages and links of one site from its random generator (`standard()` or `brochure()`).

    `chrome` is the (nav, footer) URLs every ordinary page links to; `hubs` are the catalogue's
    hub pages, linked from the home page of a site that has a catalogue.
    """

    def __init__(
        self,
        rng: random.Random,
        theme: Theme,
        brand: str,
        hosts: tuple[str, str, str],
        chrome: tuple[list[str], list[str]],
        hubs: Iterable[str] = (),
    ) -> None:
        self.rng = rng
        self.theme = theme
        self.brand = brand
        self.hosts = hosts
        self.chrome = chrome
        self.hubs = hubs
        self.drafts: dict[PageKey, _Draft] = {}

    def standard(self) -> dict[PageKey, Page]:
        """The full layout: main host, `docs.` and `blog.` subdomains, and the pages that fail on purpose."""
        b, docs, blog = self.hosts
        rng, theme, brand = self.rng, self.theme, self.brand
        year = 2020 + rng.randint(0, 4)
        self.add(b, "/", f"{brand}: {theme.trade}", f"{brand} is a {theme.trade}.", "home")
        for slug in ("about", "contact", "pricing", "careers"):
            self.add(b, f"/{slug}", f"{titled(slug)} | {brand}", self.describe(slug), slug)
        self.add(
            b,
            "/pricing/enterprise",
            f"Enterprise pricing | {brand}",
            "Plans for large teams.",
            "pricing",
            protected=True,
        )
        posts = self.blog_posts(b)
        self.add(b, "/blog", f"Blog | {brand}", f"Notes from the {theme.trade}.", "blog")
        self.add(b, "/blog", f"Blog, page 2 | {brand}", "Older posts.", "blog", query="page=2", in_sitemap=False)
        products = [
            self.add(b, f"/products/{slugify(name)}", f"{name} | {brand}", self.describe(name), "products")
            for name in rng.sample(theme.products, rng.randint(5, 8))
        ]
        self.add(
            b,
            "/products",
            f"Products | {brand}",
            f"Everything {brand} sells.",
            "products",
            render_ms=rng.randint(*RENDER_DELAY_MS),
        )
        main_docs = [
            self.add(b, f"/docs/{slug}", f"{titled(slug)} | {brand} docs", self.describe(slug), "docs")
            for slug in theme.guides[: rng.randint(3, 5)]
        ]
        self.add(b, "/docs", f"Docs | {brand}", "Help for customers.", "docs")
        roles = [
            self.add(
                b, f"/careers/{role}", f"{titled(role)} | Careers", self.describe(role), "careers", in_sitemap=False
            )
            for role in theme.roles
        ]
        self.add(b, "/legal/privacy", "Privacy policy", "How we handle personal data.", "legal")
        self.add(b, "/legal/terms", "Terms of service", "The terms of using this site.", "legal")
        self.add(
            b,
            f"/reports/annual-{year}",
            f"Annual report {year}",
            "A long report that loads slowly.",
            "reports",
            load_ms=rng.randint(*SLOW_LOAD_MS),
        )
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
        for host in self.hosts:
            self.add(host, "/robots.txt", "robots.txt", "Crawler rules.", "robots", in_sitemap=False)
            self.add(host, "/sitemap.xml", "sitemap.xml", "Sitemap.", "sitemap", in_sitemap=False)

        u = self.url
        self.link(
            u(b, "/"),
            [
                u(b, "/blog"),
                u(b, "/products"),
                u(b, "/careers"),
                u(b, f"/reports/annual-{year}"),
                u(docs, "/"),
                u(blog, "/"),
            ]
            + posts[:3]
            + products[:3],
        )
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
        self.link(u(b, "/"), list(self.hubs))
        return self.finish()

    def brochure(self) -> dict[PageKey, Page]:
        """A handful of pages on the main host only: home, about, contact, a few products, privacy."""
        b, rng, theme, brand = self.hosts[0], self.rng, self.theme, self.brand
        self.add(b, "/", f"{brand}: {theme.trade}", f"{brand} is a {theme.trade}.", "home")
        for slug in ("about", "contact"):
            self.add(b, f"/{slug}", f"{titled(slug)} | {brand}", self.describe(slug), slug)
        products = [
            self.add(b, f"/products/{slugify(name)}", f"{name} | {brand}", self.describe(name), "products")
            for name in rng.sample(theme.products, rng.randint(1, 4))
        ]
        self.add(b, "/legal/privacy", "Privacy policy", "How we handle personal data.", "legal")
        self.add(b, "/robots.txt", "robots.txt", "Crawler rules.", "robots", in_sitemap=False)
        self.add(b, "/sitemap.xml", "sitemap.xml", "Sitemap.", "sitemap", in_sitemap=False)
        u = self.url
        self.link(u(b, "/"), [u(b, "/about"), u(b, "/contact"), u(b, "/legal/privacy")] + products)
        for product in products:
            self.link(product, [u(b, "/"), u(b, "/contact")])
        return self.finish()

    def blog_posts(self, host: str) -> list[str]:
        rng, theme = self.rng, self.theme
        titles = []
        for topic in rng.sample(theme.topics, rng.randint(7, 9)):
            pattern = rng.choice(("A guide to {t}", "What we learned about {t}", "{n} notes on {t}", "Why {t} matters"))
            titles.append(pattern.format(t=topic, n=rng.randint(3, 9)))
        return [self.add(host, f"/blog/{slugify(t)}", t.capitalize(), self.describe(t), "blog") for t in titles]

    def docs_host(self, host: str) -> list[str]:
        theme = self.theme
        pages = [self.add(host, "/", f"{self.brand} documentation", "Guides and API reference.", "docs")]
        pages.append(self.add(host, "/quickstart", "Quickstart", "Get going in five minutes.", "docs"))
        pages += [self.add(host, f"/guides/{slug}", titled(slug), self.describe(slug), "docs") for slug in theme.guides]
        pages += [
            self.add(host, f"/api/{res}", f"{titled(res)} API", f"Endpoints for {res}.", "docs")
            for res in theme.api_resources
        ]
        pages.append(self.add(host, "/changelog", "Changelog", "What changed, release by release.", "docs"))
        return pages[1:]

    def blog_host(self, host: str) -> list[str]:
        rng, theme = self.rng, self.theme
        pages = [self.add(host, "/", f"{self.brand} engineering blog", "Longer stories.", "blog")]
        for topic in rng.sample(theme.topics, 4):
            year = 2021 + rng.randint(0, 3)
            pages.append(self.add(host, f"/{year}/{slugify(topic)}", f"Notes on {topic}", self.describe(topic), "blog"))
        pages += [
            self.add(host, f"/tags/{tag}", f"Posts tagged {tag}", f"Everything about {tag}.", "blog")
            for tag in theme.tags[:3]
        ]
        return pages[1:]

    def describe(self, subject: str) -> str:
        sentence = paragraph(self.rng, self.theme, 1)
        return f"{titled(slugify(subject))}: {sentence}"

    @staticmethod
    def url(host: str, path: str, query: str = "") -> str:
        return f"https://{host}{path}" + (f"?{query}" if query else "")

    def add(
        self,
        host: str,
        path: str,
        title: str,
        description: str,
        section: str,
        *,
        query: str = "",
        in_sitemap: bool = True,
        status_code: int = 200,
        load_ms: int | None = None,
        render_ms: int = 0,
        protected: bool = False,
    ) -> str:
        page = Page(
            host=host,
            path=path,
            query=query,
            title=title,
            description=description,
            section=section,
            in_sitemap=in_sitemap,
            status_code=status_code,
            load_ms=load_ms if load_ms is not None else self.rng.randint(*NORMAL_LOAD_MS),
            render_ms=render_ms,
            protected=protected,
        )
        self.drafts[(host, path, query)] = _Draft(page)
        return page.url

    def link(self, source: str, targets: list[str]) -> None:
        host, path, query = split_url(source)
        draft = self.drafts[(host, path, query)]
        for target in targets:
            if target != source and target not in draft.links:
                draft.links.append(target)

    def finish(self) -> dict[PageKey, Page]:
        """The finished pages: every ordinary page carries the nav and footer links around its own."""
        nav, footer = self.chrome
        pages = {}
        for key, draft in self.drafts.items():
            page = draft.page
            links = list(draft.links)
            if page.section not in ("robots", "sitemap") and page.status_code < 500:
                links = nav + [link for link in links if link not in nav] + footer
                links = [link for link in links if link != page.url]
            pages[key] = Page(**{**page.__dict__, "links": tuple(dict.fromkeys(links))})
        return pages
