"""The synthetic sites as a browser sees them: one HTTP answer per URL.

The scrape engine (`scrape_engine.py`) turns a synthetic page into a
Document; this module turns the same page into the HTTP response its server
would send, for the browsers of sessions (see
`tui.emulator.browser.site_interception`). The HTML is the document's
`rawHtml` and the status its `statusCode`, so a replayed scrape shows the
page that was scraped, with the same title.

Where a browser differs from a scrape:
- pages the site renders client-side (`/products`) arrive with their
  "Loading…" placeholder, and the site's `/assets/app.js` fills in the content
  after the page's render delay, as a real single-page app would;
- pages that are slow on purpose (the annual report) are held back for their
  whole load time, so a navigation times out as the scrape did; ordinary
  pages are answered at once so that sessions stay quick;
- a session's browser goes through the default (`auto`) proxy, so pages
  behind anti-bot protection load, as they do for a default scrape;
- `/images/...` answer a small SVG placeholder instead of a 404 page.
"""

from __future__ import annotations

from html import escape

from tui.emulator.browser.backend import SiteResolver, SiteResponse
from tui.emulator.sites.content import render_main_html, render_raw_html
from tui.emulator.sites.site import SiteSource, split_url

APP_SCRIPT_PATH = "/assets/app.js"
IMAGES_PREFIX = "/images/"
# Pages slower than this are held back in the browser; faster ones are answered at once.
HELD_BACK_FROM_MS = 10_000
_RENDERED_TEMPLATE_ID = "wds-rendered"

# Swaps the placeholder <main> for the rendered one once the page's render delay has passed.
APP_SCRIPT = f"""(() => {{
  const rendered = document.getElementById("{_RENDERED_TEMPLATE_ID}");
  if (!rendered) return;
  setTimeout(() => {{
    const main = document.querySelector("main");
    if (main) main.replaceWith(rendered.content.cloneNode(true));
  }}, Number(rendered.dataset.delayMs) || 0);
}})();
"""


def _headers(content_type: str) -> dict[str, str]:
    # no-store: a session that navigates again should meet the site as it is now, not a cached copy.
    return {"Content-Type": content_type, "Cache-Control": "no-store"}


def _placeholder_image(path: str) -> bytes:
    label = escape(path.rsplit("/", 1)[-1])
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360" viewBox="0 0 640 360">'
        '<rect width="640" height="360" fill="#d9dde3"/>'
        f'<text x="320" y="185" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#4a5361">{label}'
        "</text></svg>"
    ).encode()


def respond(sites: SiteSource, url: str) -> SiteResponse | None:
    """The response the synthetic site of `url`'s host gives a browser; None for a URL without a host."""
    host, path, _ = split_url(url)
    if not host:
        return None
    site = sites.site(host)
    if path == APP_SCRIPT_PATH:
        return SiteResponse(200, _headers("text/javascript; charset=utf-8"), APP_SCRIPT.encode())
    if path.startswith(IMAGES_PREFIX):
        return SiteResponse(200, _headers("image/svg+xml"), _placeholder_image(path))
    page = site.fetch(url)
    body = site.body(page)
    status = page.status_code if page.exists else 404
    delay = page.load_ms / 1000 if page.load_ms >= HELD_BACK_FROM_MS else 0.0
    if body.raw_text is not None:
        kind = "application/xml" if page.section == "sitemap" else "text/plain"
        return SiteResponse(status, _headers(f"{kind}; charset=utf-8"), body.raw_text.encode(), delay)
    if page.render_ms > 0:
        html = render_raw_html(body, rendered=False)
        rendered = (
            f'<template id="{_RENDERED_TEMPLATE_ID}" data-delay-ms="{page.render_ms}">'
            f"{render_main_html(body, rendered=True)}</template>"
        )
        before, closing, after = html.rpartition("</body>")
        html = f"{before}{rendered}{closing}{after}"
    else:
        html = render_raw_html(body, rendered=True)
    return SiteResponse(status, _headers("text/html; charset=utf-8"), html.encode(), delay)


def site_resolver(sites: SiteSource) -> SiteResolver:
    """A resolver for `ChromiumBackend.set_site_resolver` answering from `sites` (the emulator's registry)."""

    def resolve(url: str) -> SiteResponse | None:
        return respond(sites, url)

    return resolve
