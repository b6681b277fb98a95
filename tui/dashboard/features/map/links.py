"""The links of a map as the explorer works on them: filter, sort and select, fast on 100,000 links.

`LinkList` keeps the links as three columns (url, title, description) plus a
lowercased copy of "url + title" made once, so a filter keystroke is one
pass of `in` (or one compiled glob) over plain strings: ~10 ms for 100,000
links. What is shown is `view`, positions into the columns in the order of
the current sort; the selection is kept by position in the columns, so it
survives any filter or sort. Nothing here knows about Textual.

Columns and orders are tuples: a tuple of strings or ints is untracked by
the cyclic garbage collector after its first pass, so 100,000 links add
nothing to the full collections that would otherwise stall a keystroke.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

SortKey = Literal["none", "url", "title"]
GLOB_CHARACTERS = frozenset("*?[]")


class Link(Protocol):
    """What a link must have (`tui.contract.models.map.MapLink` does); read-only, as a frozen link is."""

    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str | None: ...
    @property
    def description(self) -> str | None: ...


def is_glob(text: str) -> bool:
    """Whether a filter is read as a glob (it has * ? [ or ]) rather than a substring."""
    return any(char in GLOB_CHARACTERS for char in text)


def glob_literals(pattern: str) -> list[str]:
    """The pieces of a glob that must appear as they are (`*shoe*.htm?` -> shoe, .htm), longest first."""
    without_sets = re.sub(r"\[!?\]?[^\]]*\]", "*", pattern)  # a [set] is one unknown character
    pieces = [piece for piece in re.split(r"[*?\[\]]", without_sets) if piece]
    return sorted(pieces, key=len, reverse=True)


def glob_matcher(pattern: str) -> Callable[[str], object] | None:
    """A test of whole strings against a glob, None when the glob is only stars (it matches all).

    `*shoe*` is run as a search for `shoe` rather than as `.*shoe.*` matched
    from the start: the same answer without backtracking, several times faster.
    """
    core = pattern.strip("*")
    if not core:
        return None
    regex = fnmatch.translate(core)  # "(?s:...)\\Z"
    if pattern.endswith("*"):
        regex = regex.removesuffix(r"\Z")
    compiled = re.compile(regex)
    return compiled.search if pattern.startswith("*") else compiled.match


@dataclass(frozen=True)
class Filter:
    """A filter as typed: empty matches all; a glob matches the whole url or the whole title."""

    text: str = ""

    @property
    def needle(self) -> str:
        return self.text.strip().lower()

    @property
    def glob(self) -> bool:
        return is_glob(self.needle)

    def narrows(self, before: Filter) -> bool:
        """Whether every link matching self also matches `before` (so only its matches need checking)."""
        return not self.glob and not before.glob and before.needle in self.needle


class LinkList:
    """Links as columns, a filtered and sorted view of them, and the selected ones."""

    def __init__(self, links: Iterable[Link]) -> None:
        links = list(links)
        self.urls: tuple[str, ...] = tuple([link.url for link in links])
        self.titles: tuple[str, ...] = tuple([link.title or "" for link in links])
        self.descriptions: tuple[str, ...] = tuple([link.description or "" for link in links])
        # Most URLs are lowercase already: keep the same string then, not a copy (memory).
        self._urls_lower = tuple([lower if lower != url else url for url in self.urls for lower in (url.lower(),)])
        self._titles_lower = tuple([title.lower() for title in self.titles])
        # "url\ttitle": one `in` per link finds a substring of either (a tab is in neither).
        pairs = zip(self._urls_lower, self._titles_lower, strict=True)
        self._haystack = tuple([f"{url}\t{title}" for url, title in pairs])
        self._orders: dict[tuple[SortKey, bool], tuple[int, ...]] = {("none", False): tuple(range(len(self.urls)))}
        self.sort_key: SortKey = "none"
        self.descending = False
        self.filter = Filter()
        self.view: tuple[int, ...] = self._orders[("none", False)]
        self.selected: set[int] = set()

    def __len__(self) -> int:
        return len(self.urls)

    # --- filter and sort ---------------------------------------------------------

    def set_filter(self, text: str) -> None:
        """Show the links matching `text` (substring of url or title, or a glob when it has * ? [ ])."""
        new = Filter(text)
        if new.needle == self.filter.needle:
            self.filter = new
            return
        # Typing on extends a substring: only what matched before can match now.
        candidates = self.view if new.narrows(self.filter) else self._order()
        self.filter = new
        self.view = self._matching(candidates, new)

    def _matching(self, candidates: tuple[int, ...], wanted: Filter) -> tuple[int, ...]:
        needle = wanted.needle
        if not needle:
            return candidates
        haystack = self._haystack
        if wanted.glob:
            # The glob's literal pieces must all be in the url or the title: a cheap `in` drops
            # most links before the (much slower) regular expression runs on the rest.
            for piece in glob_literals(needle):
                candidates = tuple([index for index in candidates if piece in haystack[index]])
            match = glob_matcher(needle)
            if match is None:
                return candidates  # only stars: everything matches
            urls, titles = self._urls_lower, self._titles_lower
            return tuple([index for index in candidates if match(urls[index]) or match(titles[index])])
        return tuple([index for index in candidates if needle in haystack[index]])

    def sort_by(self, key: SortKey) -> None:
        """Sort by `key`; sorting again by the same key turns the order around ("none": as the service sent)."""
        self.descending = not self.descending if key == self.sort_key and key != "none" else False
        self.sort_key = key
        self.view = self._matching(self._order(), self.filter)

    def _order(self) -> tuple[int, ...]:
        cache_key = (self.sort_key, self.descending)
        order = self._orders.get(cache_key)
        if order is None:
            ascending = self._orders.get((self.sort_key, False))
            if ascending is None:
                column = self._urls_lower if self.sort_key == "url" else self._titles_lower
                # stable: ties keep the service's order
                ascending = tuple(sorted(range(len(column)), key=column.__getitem__))
                self._orders[(self.sort_key, False)] = ascending
            order = ascending[::-1] if self.descending else ascending
            self._orders[cache_key] = order
        return order

    # --- selection ---------------------------------------------------------------

    def link_at(self, row: int) -> int:
        """The link (its position in the columns) shown at `row` of the view."""
        return self.view[row]

    def is_selected(self, row: int) -> bool:
        return self.view[row] in self.selected

    def toggle(self, row: int) -> bool:
        """Select or unselect the link at `row`; True when it is now selected."""
        index = self.view[row]
        if index in self.selected:
            self.selected.discard(index)
            return False
        self.selected.add(index)
        return True

    def select_rows(self, first: int, last: int) -> None:
        """Select the rows from `first` to `last` (either order, both included)."""
        low, high = sorted((first, last))
        self.selected.update(self.view[max(low, 0) : high + 1])

    def select_all_shown(self) -> int:
        """Select every link the filter shows; the number newly selected."""
        before = len(self.selected)
        self.selected.update(self.view)
        return len(self.selected) - before

    def clear_selection(self) -> None:
        self.selected.clear()

    def selected_urls(self) -> list[str]:
        """The selected URLs, in the order the view shows them, then any selected but filtered out."""
        shown = [self.urls[index] for index in self.view if index in self.selected]
        if len(shown) == len(self.selected):
            return shown
        in_view = set(self.view)
        hidden = sorted(index for index in self.selected if index not in in_view)
        return shown + [self.urls[index] for index in hidden]

    def urls_to_export(self) -> list[str]:
        """What copy, save and batch act on: the selected URLs, or every shown one when none is selected."""
        return self.selected_urls() if self.selected else [self.urls[index] for index in self.view]

    def count_text(self) -> str:
        """ "1,234 of 150,000 links · 20 selected"."""
        text = f"{len(self.view):,} of {len(self.urls):,} links"
        return f"{text} · {len(self.selected):,} selected" if self.selected else text


def save_urls(path: Path, urls: Sequence[str], *, overwrite: bool = False) -> None:
    """Write `urls` to `path`, one per line.

    Raises `FileExistsError` when the file exists and `overwrite` is false,
    `FileNotFoundError` when its directory does not exist, `PermissionError`,
    `IsADirectoryError` or another `OSError` as the system says.
    """
    mode = "w" if overwrite else "x"
    with path.open(mode, encoding="utf-8", newline="\n") as out:
        out.writelines(f"{url}\n" for url in urls)
