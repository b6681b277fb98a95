"""How big each synthetic site is: a handful of pages up to more than 100,000 URLs.

A site's size class comes from its host name alone (so the README can name
hosts), the exact number of catalogue pages from (seed, host):

- `brochure`: a handful of pages on one host (home, about, contact, a few products);
- `standard`: the reference layout of ~60 URLs on three hosts, with the pages that
  fail for known reasons (see `site.py`);
- `catalogue`: the standard layout plus a catalogue of N pages generated on demand
  (`catalogue.py`): products on the main host, an archive on `blog.`, a knowledge
  base on `docs.`.

The seeded demo hosts and names reserved for examples and tests (RFC 2606/6761:
`example.com` and its subdomains, `*.test`, `*.example`, `*.invalid`, `*.localhost`) always have the
standard layout, so their pages never change. `NAMED_SIZES` pins a few hosts to
a size; any other host draws one from a hash of its name.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

STANDARD_HOSTS = ("acme-outdoor.com", "northwind.dev", "lumen-labs.io", "fernwood.co")
_RESERVED_NAMES = ("example.com", "example.net", "example.org", "localhost")
_RESERVED_SUFFIXES = (".test", ".example", ".invalid", ".localhost", ".local")

# Host -> (kind, fewest catalogue pages, most catalogue pages); the exact count depends on the seed.
NAMED_SIZES: dict[str, tuple[str, int, int]] = {
    "bigbox-supply.com": ("catalogue", 140_000, 160_000),  # the biggest: > 100,000 URLs for every seed
    "openshelf-library.org": ("catalogue", 105_000, 115_000),
    "harbour-books.com": ("catalogue", 20_000, 30_000),
    "trailhead-journal.com": ("catalogue", 1_500, 3_000),
    "corner-bakery.com": ("brochure", 0, 0),
}
BIGGEST_HOST = "bigbox-supply.com"

# For other hosts: (share in percent, kind, fewest, most catalogue pages), a long tail as on the web.
_DRAWN_SIZES = (
    (20, "brochure", 0, 0),
    (45, "standard", 0, 0),
    (20, "catalogue", 200, 1_000),
    (12, "catalogue", 1_000, 10_000),
    (3, "catalogue", 10_000, 50_000),
)


@dataclass(frozen=True)
class SiteSize:
    """The layout of a site (`brochure`, `standard`, `catalogue`) and its catalogue's page count."""

    kind: str
    catalogue_pages: int = 0


def is_pinned_standard(base: str) -> bool:
    """Whether `base` always has the standard layout (a demo host or a reserved example name)."""
    reserved = base in _RESERVED_NAMES or base.endswith(tuple(f".{name}" for name in _RESERVED_NAMES))
    return base in STANDARD_HOSTS or reserved or base.endswith(_RESERVED_SUFFIXES) or "." not in base


def site_size(seed: int, base: str) -> SiteSize:
    """The size of the site of base domain `base` under `seed`."""
    if is_pinned_standard(base):
        return SiteSize("standard")
    named = NAMED_SIZES.get(base)
    if named is None:
        draw = zlib.crc32(f"size:{base}".encode()) % 100
        for share, kind, low, high in _DRAWN_SIZES:
            if draw < share:
                named = (kind, low, high)
                break
            draw -= share
    assert named is not None
    kind, low, high = named
    if kind != "catalogue":
        return SiteSize(kind)
    spread = zlib.crc32(f"pages:{seed}:{base}".encode()) % (high - low + 1)
    return SiteSize(kind, low + spread)
