"""The synthetic sites as a session's browser receives them (`tui.emulator.sites.site_server`), without a browser."""

from __future__ import annotations

from tui.contract.requests import ScrapeRequest
from tui.emulator.jobs.scrape_engine import fetch_page
from tui.emulator.sites.registry import SiteRegistry
from tui.emulator.sites.site_server import APP_SCRIPT_PATH, HELD_BACK_FROM_MS, respond, site_resolver

HOST = "acme-outdoor.com"


def scraped(sites: SiteRegistry, url: str) -> dict:
    result = fetch_page(sites, url, ScrapeRequest(url=url, formats=["rawHtml"], wait_for=10_000))
    assert result.document is not None
    return result.document


def test_a_page_is_the_html_and_status_the_scrape_saw() -> None:
    sites = SiteRegistry(3)
    for path in ("/", "/about", "/blog?page=2", "/no-such-page", "/status/legacy"):
        url = f"https://{HOST}{path}"
        response = respond(sites, url)
        document = scraped(sites, url)
        assert response is not None
        assert response.status == document["metadata"]["statusCode"]
        assert response.body.decode() == document["rawHtml"]
        assert response.headers["Content-Type"] == "text/html; charset=utf-8"
        assert f"<title>{document['metadata']['title']}</title>" in response.body.decode()
        assert response.delay == 0


def test_robots_and_sitemaps_are_text_and_xml() -> None:
    sites = SiteRegistry(3)
    robots = respond(sites, f"https://docs.{HOST}/robots.txt")
    assert robots is not None and robots.status == 200
    assert robots.headers["Content-Type"] == "text/plain; charset=utf-8" and b"Disallow: /admin" in robots.body
    sitemap = respond(sites, f"https://{HOST}/sitemap.xml")
    assert sitemap is not None and sitemap.headers["Content-Type"] == "application/xml; charset=utf-8"
    assert sitemap.body.startswith(b"<?xml") and f"https://{HOST}/about".encode() in sitemap.body


def test_a_client_side_page_ships_its_content_for_the_script() -> None:
    sites = SiteRegistry(3)
    products = respond(sites, f"https://{HOST}/products")
    assert products is not None
    html = products.body.decode()
    main, template = html.split('<template id="wds-rendered"', 1)
    assert "Loading…" in main and "<h2>" not in main.split("<main>", 1)[1]
    page = sites.site(HOST).fetch(f"https://{HOST}/products")
    assert f'data-delay-ms="{page.render_ms}"' in template and "<h2>" in template
    script = respond(sites, f"https://{HOST}{APP_SCRIPT_PATH}")
    assert script is not None and script.headers["Content-Type"].startswith("text/javascript")
    assert b"wds-rendered" in script.body


def test_slow_pages_are_held_back_and_images_are_placeholders() -> None:
    sites = SiteRegistry(3)
    slow = next(page for page in sites.site(HOST).pages() if page.section == "reports")
    assert slow.load_ms >= HELD_BACK_FROM_MS
    response = respond(sites, slow.url)
    assert response is not None and response.delay == slow.load_ms / 1000
    image = respond(sites, f"https://{HOST}/images/trail-boots.jpg")
    assert image is not None and image.status == 200 and image.headers["Content-Type"] == "image/svg+xml"
    assert b"trail-boots.jpg" in image.body


def test_the_resolver_answers_any_host_but_not_a_url_without_one() -> None:
    resolve = site_resolver(SiteRegistry(3))
    made_up = resolve("https://never-heard-of.example/anything")
    assert made_up is not None and made_up.status == 404
    assert resolve("https:///no-host") is None
