"""The synthetic sites in use, one per base domain, built on demand and kept within a bound."""

from __future__ import annotations

import threading
from collections import OrderedDict

from tui.emulator.sites.site import SyntheticSite, base_domain


class SiteRegistry:
    """One `SyntheticSite` per base domain, built on first use and kept while in use.

    At most `max_sites` are kept, least recently used dropped first: a site is
    rebuilt identically from (seed, base domain), while a batch naming
    thousands of hosts would otherwise keep every one (~60 KB each) forever.
    Safe to call from the worker threads of `tui.emulator.core.offload`.
    """

    def __init__(self, seed: int, max_sites: int = 1024) -> None:
        self.seed = seed
        self.max_sites = max_sites
        self._sites: OrderedDict[str, SyntheticSite] = OrderedDict()
        self._lock = threading.Lock()

    def site(self, host: str) -> SyntheticSite:
        """The site serving `host` (a subdomain maps to its base domain's site)."""
        base = base_domain(host)
        with self._lock:
            found = self._sites.get(base)
            if found is not None:
                self._sites.move_to_end(base)
                return found
        built = SyntheticSite(self.seed, base)  # outside the lock: building takes milliseconds
        with self._lock:
            found = self._sites.setdefault(base, built)  # another thread may have built it meanwhile
            self._sites.move_to_end(base)
            while len(self._sites) > self.max_sites:
                self._sites.popitem(last=False)
        return found
