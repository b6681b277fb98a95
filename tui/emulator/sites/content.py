"""Words and page bodies of the synthetic sites.

A site draws a theme (its trade and vocabulary) and then writes every page's
text from templates filled with that theme's words, using a random generator
seeded by the page's URL: the same seed and URL always give the same text,
and nothing is stored until a page is actually read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from html import escape


@dataclass(frozen=True)
class Theme:
    """The trade of a synthetic site and the words its pages are written with."""

    trade: str
    products: tuple[str, ...]
    topics: tuple[str, ...]
    guides: tuple[str, ...]
    api_resources: tuple[str, ...]
    tags: tuple[str, ...]
    roles: tuple[str, ...]
    verbs: tuple[str, ...]
    adjectives: tuple[str, ...]


THEMES: tuple[Theme, ...] = (
    Theme(
        trade="small-batch coffee roastery",
        products=(
            "Espresso Blend",
            "Ethiopia Yirgacheffe",
            "Colombia Huila",
            "Decaf Swiss Water",
            "Cold Brew Pack",
            "Kenya AA",
            "House Filter",
            "Guatemala Antigua",
            "Sumatra Mandheling",
        ),
        topics=(
            "pour-over brewing",
            "espresso extraction",
            "roast profiles",
            "grinder burrs",
            "water chemistry",
            "milk texturing",
            "green bean sourcing",
            "cupping scores",
            "storage and freshness",
            "cold brew ratios",
            "origin trips",
        ),
        guides=("brew-ratios", "grind-size", "descaling", "subscriptions", "wholesale-orders"),
        api_resources=("orders", "subscriptions", "roasts", "customers", "shipments"),
        tags=("brewing", "origins", "equipment", "recipes"),
        roles=("head-roaster", "barista-trainer", "logistics-lead"),
        verbs=("roast", "brew", "grind", "taste", "source", "store"),
        adjectives=("bright", "balanced", "fruity", "chocolatey", "fresh", "seasonal"),
    ),
    Theme(
        trade="bicycle workshop and parts store",
        products=(
            "Gravel Frame",
            "Carbon Wheelset",
            "Tubeless Kit",
            "Commuter Light Set",
            "Chain Checker",
            "Disc Brake Pads",
            "Saddle Pro",
            "Bar Tape Classic",
            "Mini Pump",
        ),
        topics=(
            "tubeless setup",
            "chain wear",
            "brake bleeding",
            "wheel truing",
            "tyre pressure",
            "bike fitting",
            "winter riding",
            "gear indexing",
            "bearing service",
            "touring racks",
        ),
        guides=("sizing-chart", "service-intervals", "warranty-claims", "click-and-collect", "trade-in"),
        api_resources=("bookings", "parts", "mechanics", "invoices", "stock"),
        tags=("maintenance", "gear", "rides", "workshop"),
        roles=("senior-mechanic", "wheel-builder", "store-manager"),
        verbs=("service", "true", "adjust", "fit", "repair", "upgrade"),
        adjectives=("light", "durable", "quiet", "stiff", "reliable", "weatherproof"),
    ),
    Theme(
        trade="cloud analytics platform",
        products=(
            "Query Engine",
            "Realtime Dashboards",
            "Data Connectors",
            "Alerting",
            "Access Controls",
            "Audit Log",
            "Usage Billing",
            "Embedded Charts",
            "Schema Registry",
        ),
        topics=(
            "query performance",
            "retention policies",
            "event schemas",
            "dashboard design",
            "cost controls",
            "access management",
            "incident response",
            "data modelling",
            "ingestion pipelines",
            "sampling strategies",
        ),
        guides=("first-dashboard", "ingest-events", "sso-setup", "alert-rules", "export-data"),
        api_resources=("datasets", "queries", "dashboards", "alerts", "tokens"),
        tags=("engineering", "product", "security", "releases"),
        roles=("backend-engineer", "solutions-architect", "support-engineer"),
        verbs=("query", "ingest", "model", "monitor", "export", "secure"),
        adjectives=("fast", "scalable", "auditable", "realtime", "typed", "cost-aware"),
    ),
    Theme(
        trade="garden nursery and plant shop",
        products=(
            "Olive Tree",
            "Lavender Hidcote",
            "Japanese Maple",
            "Herb Starter Set",
            "Peat-free Compost",
            "Terracotta Pot",
            "Pruning Shears",
            "Rose Gertrude Jekyll",
            "Fig Brown Turkey",
        ),
        topics=(
            "spring planting",
            "pruning roses",
            "composting",
            "watering in drought",
            "container gardens",
            "pollinator borders",
            "overwintering",
            "soil testing",
            "pest control",
            "seed saving",
        ),
        guides=("plant-care", "delivery-areas", "returns", "planting-service", "gift-cards"),
        api_resources=("plants", "orders", "deliveries", "care-plans", "stores"),
        tags=("seasonal", "how-to", "plants", "news"),
        roles=("horticulturist", "delivery-driver", "garden-designer"),
        verbs=("plant", "prune", "water", "feed", "repot", "protect"),
        adjectives=("hardy", "fragrant", "evergreen", "drought-tolerant", "compact", "native"),
    ),
)

_SENTENCES = (
    "Our team spent the season learning how to {verb} better, and {topic} turned out to matter most.",
    "Customers often ask about {topic}; the short answer is that {adjective} results come from patience.",
    "The {product} is our most {adjective} option, and it pairs well with a routine built around {topic}.",
    "If you {verb} on a schedule, you will notice the difference within a few weeks.",
    "We publish notes on {topic} because most advice online skips the details that make it {adjective}.",
    "A common mistake is to {verb} too quickly; slow down and measure before changing anything.",
    "Every {product} ships with a printed guide and a link to our notes on {topic}.",
    "For teams, we recommend starting small, writing things down, and reviewing {topic} monthly.",
    "Prices include tax; delivery times depend on stock of the {product}.",
    "We keep a log of what works, so the next person can {verb} with confidence.",
)


def slugify(text: str) -> str:
    """Lower-case words joined by hyphens, as the sites' paths are written."""
    out = []
    for ch in text.lower():
        out.append(ch if ch.isalnum() else "-")
    return "-".join(part for part in "".join(out).split("-") if part)


def titled(slug: str) -> str:
    """A path slug written back as a title ("brew-ratios" -> "Brew Ratios")."""
    return " ".join(word.capitalize() for word in slug.split("-"))


def paragraph(rng: random.Random, theme: Theme, sentences: int) -> str:
    """A paragraph of template sentences filled with the theme's words."""
    chosen = []
    for _ in range(sentences):
        template = rng.choice(_SENTENCES)
        chosen.append(
            template.format(
                verb=rng.choice(theme.verbs),
                topic=rng.choice(theme.topics),
                adjective=rng.choice(theme.adjectives),
                product=rng.choice(theme.products),
            )
        )
    return " ".join(chosen)


@dataclass(frozen=True)
class PageBody:
    """The readable parts of a page, before rendering to markdown or HTML."""

    title: str
    description: str
    sections: tuple[tuple[str, str], ...]  # (heading, paragraph)
    nav: tuple[tuple[str, str], ...]  # (label, href) in the header
    footer: tuple[tuple[str, str], ...]  # (label, href) in the footer
    main_links: tuple[tuple[str, str], ...]  # (label, href) inside the main content
    images: tuple[str, ...]
    raw_text: str | None = None  # robots.txt and sitemap.xml are served as plain text


def write_sections(rng: random.Random, theme: Theme, count: int) -> tuple[tuple[str, str], ...]:
    """`count` headed paragraphs for a page body."""
    sections = []
    for _ in range(count):
        heading = f"{rng.choice(theme.adjectives).capitalize()} {rng.choice(theme.topics)}"
        sections.append((heading, paragraph(rng, theme, rng.randint(2, 4))))
    return tuple(sections)


def render_markdown(body: PageBody, *, only_main_content: bool, rendered: bool) -> str:
    """The page as markdown; `rendered` False means client-side content never appeared."""
    if body.raw_text is not None:
        return body.raw_text
    lines: list[str] = []
    if not only_main_content:
        lines.append(" | ".join(f"[{label}]({href})" for label, href in body.nav))
        lines.append("")
    lines += [f"# {body.title}", "", body.description, ""]
    if rendered:
        for heading, text in body.sections:
            lines += [f"## {heading}", "", text, ""]
        for label, href in body.main_links:
            lines.append(f"- [{label}]({href})")
        if body.main_links:
            lines.append("")
        for src in body.images:
            lines += [f"![{body.title}]({src})", ""]
    else:
        lines += ["Loading…", ""]
    if not only_main_content:
        lines.append(" · ".join(f"[{label}]({href})" for label, href in body.footer))
    return "\n".join(lines).strip() + "\n"


def _anchors(links: tuple[tuple[str, str], ...]) -> str:
    return "".join(f'<a href="{escape(href)}">{escape(label)}</a>' for label, href in links)


def render_main_html(body: PageBody, *, rendered: bool) -> str:
    """The `<main>` element of the page."""
    if body.raw_text is not None:
        return f"<pre>{escape(body.raw_text)}</pre>"
    parts = [f"<h1>{escape(body.title)}</h1>", f"<p>{escape(body.description)}</p>"]
    if rendered:
        for heading, text in body.sections:
            parts.append(f"<h2>{escape(heading)}</h2><p>{escape(text)}</p>")
        if body.main_links:
            items = "".join(f'<li><a href="{escape(h)}">{escape(label)}</a></li>' for label, h in body.main_links)
            parts.append(f"<ul>{items}</ul>")
        parts += [f'<img src="{escape(src)}" alt="{escape(body.title)}">' for src in body.images]
    else:
        parts.append('<div id="app">Loading…</div>')
    return "<main>" + "".join(parts) + "</main>"


def render_html(body: PageBody, *, only_main_content: bool, rendered: bool) -> str:
    """The cleaned HTML the service returns in the `html` format."""
    main = render_main_html(body, rendered=rendered)
    if only_main_content or body.raw_text is not None:
        return main
    header = f"<header><nav>{_anchors(body.nav)}</nav></header>"
    footer = f"<footer>{_anchors(body.footer)}</footer>"
    return f"<body>{header}{main}{footer}</body>"


def render_raw_html(body: PageBody, *, rendered: bool) -> str:
    """The page as the target served it, head and scripts included (`rawHtml`)."""
    if body.raw_text is not None:
        return body.raw_text
    head = (
        f'<head><meta charset="utf-8"><title>{escape(body.title)}</title>'
        f'<meta name="description" content="{escape(body.description)}">'
        '<script src="/assets/app.js" defer></script></head>'
    )
    page = render_html(body, only_main_content=False, rendered=rendered)
    return f'<!DOCTYPE html><html lang="en">{head}{page}</html>'
