"""A page of a synthetic site, and the URL helpers every part of the sites uses."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

_SUBDOMAIN_PREFIXES = ("www.", "docs.", "blog.")


def base_domain(host: str) -> str:
    """The domain a host's site is keyed by: `docs.`, `blog.` and `www.` are the same site."""
    host = host.lower().rstrip(".")
    for prefix in _SUBDOMAIN_PREFIXES:
        if host.startswith(prefix) and host.count(".") >= 2:
            return host[len(prefix) :]
    return host


def same_host(a: str, b: str) -> bool:
    """Hosts equal up to a leading `www.`, as crawlers compare them."""
    return a.lower().removeprefix("www.") == b.lower().removeprefix("www.")


@lru_cache(maxsize=8192)
def split_url(url: str) -> tuple[str, str, str]:
    """(host, path, query) of an absolute URL; the path is at least "/".

    Cached: seeding a history and planning crawls split the same few thousand
    URLs over and over, and this was a third of the emulator's start-up.
    """
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    path = parts.path or "/"
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    return host, path, parts.query


def path_depth(path: str) -> int:
    """Number of path segments: "/" is 0, "/blog/post" is 2."""
    return len([part for part in path.split("/") if part])


@dataclass(frozen=True)
class Page:
    """One page of a synthetic site and how its server behaves when fetched."""

    host: str
    path: str
    query: str
    title: str
    description: str
    section: str
    links: tuple[str, ...] = ()
    in_sitemap: bool = True
    status_code: int = 200
    load_ms: int = 500
    render_ms: int = 0  # main content appears only after this much client-side time
    protected: bool = False  # anti-bot: 403 unless fetched through an enhanced proxy
    exists: bool = True

    @property
    def url(self) -> str:
        base = f"https://{self.host}{self.path}"
        return f"{base}?{self.query}" if self.query else base
