"""Issue 11's walk in a real terminal: map the biggest site, filter, select 20 links, batch-scrape them, watch it finish.

On the embedded emulator, at 120x40, keys sent one at a time with a person's
pauses between them (tmux can deliver a burst faster than anyone types).
"""

from __future__ import annotations

import re
import time

from tests.e2e.test_tmux import Terminal, pytestmark, terminal  # noqa: F401 - the fixture, skipped without tmux


def press(term: Terminal, *keys: str, pause: float = 0.25) -> None:
    for key in keys:
        term.keys(key)
        time.sleep(pause)


def typed(term: Terminal, text: str) -> None:
    term.type_text(text)
    time.sleep(0.4)


def settled_count(term: Terminal, seconds: float = 30.0) -> int:
    """The links shown once the count line has stayed the same for a second (a loaded machine draws late)."""
    deadline = time.monotonic() + seconds
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        found = re.search(r"([\d,]+) of 100,000 links", term.screen())
        count = int(found.group(1).replace(",", "")) if found else -1
        if count != last:
            last, since = count, time.monotonic()
        elif count >= 0 and time.monotonic() - since >= 1.0:
            return count
        time.sleep(0.2)
    raise AssertionError(f"the count never settled; the screen:\n{term.screen()}")


def test_map_filter_select_twenty_and_batch_scrape_them(terminal: Terminal) -> None:  # noqa: F811
    terminal.wait_for("connected")
    press(terminal, "M")
    terminal.wait_for("Map a site")
    typed(terminal, "https://bigbox-supply.com")
    press(terminal, *["Tab"] * 6)  # url, search, sitemap, three switches: the limit
    typed(terminal, "100000")
    press(terminal, "C-s")
    screen = terminal.wait_for("100,000 of 100,000 links", seconds=60)
    assert "Map · https://bigbox-supply.com · 100,000 links" in screen

    press(terminal, "/")
    typed(terminal, "/catalog/")  # every seed's catalogue has these (product names vary with the seed)
    terminal.wait_for("of 100,000 links · substring")
    shown = settled_count(terminal)  # the count of the whole text, not of a prefix
    assert 20 < shown < 100_000
    press(terminal, "Down")  # from the filter to the links
    press(terminal, *["S-Down"] * 19, pause=0.1)  # the first row and 19 more: 20
    terminal.wait_for(f"{shown:,} of 100,000 links · 20 selected")

    press(terminal, "b")
    screen = terminal.wait_for("20 URLs")
    assert "Batch scrape · POST /v2/batch/scrape" in screen and "/catalog/" in screen
    press(terminal, "C-s")
    terminal.wait_for("Batch scrape ")
    screen = terminal.wait_for("20 / 20 done", seconds=90)
    assert "completed" in screen and "100%" in screen
    rows = [line for line in screen.splitlines() if "bigbox-supply.com" in line and "Batch" not in line]
    assert rows and all(line.split()[:2] == ["200", "scraped"] for line in rows), screen

    press(terminal, "Escape")  # the status screen, back to the map (the form went away when the batch started)
    press(terminal, "Escape", "Escape", "Escape")
    terminal.wait_for("Team activity")
    press(terminal, "q")
    deadline = time.monotonic() + 15
    while terminal.alive() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not terminal.alive(), f"wds-tui did not exit on q; the screen:\n{terminal.screen()}"
    assert terminal.status_file.read_text().strip() == "0"
