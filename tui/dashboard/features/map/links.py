"""The links of a map as the explorer works on them: filter, sort and select, fast on 100,000 links.

`LinkList` reads the links as three columns (url, title, description: the
`MapLinks` of a `MapResult`, taken as they are, not copied). Once the links
are on screen, `compact` packs those columns into one string each and makes
a lowercased "<tab>url<tab>title<tab>" per link, so a filter keystroke is one
pass of `in` over plain strings: a few ms for 100,000 links. A glob that is a
substring between stars (`*/rides/*`) is searched as that substring; any
other is first narrowed by `in` with its literal pieces, tabs marking the
ones that must begin or end the url or title (`*.pdf`: ".pdf<tab>").
Typing on narrows the last result; the results of recent filters are kept
(up to `KEPT_POSITIONS` positions in all), so deleting what was just typed
shows them again without a search. What is shown is `view`, positions into
the columns in the order of the current sort; the selection is kept by
position in the columns, so it survives any filter or sort. Nothing here
knows about Textual.
"""

from __future__ import annotations

import fnmatch
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from operator import methodcaller
from pathlib import Path
from typing import Literal, Protocol

from tui.contract.models.map import MapLinks
from tui.contract.models.packed_texts import PackedTexts

SortKey = Literal["none", "url", "title"]
GLOB_CHARACTERS = frozenset("*?[]")
# Positions of earlier filters' results kept for a return to them (8 bytes each): 1.6 MB at most.
KEPT_POSITIONS = 200_000


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
    from the start: the same answer without backtracking, several times faster;
    `*.pdf` as `endswith(".pdf")`, `docs/*` as `startswith("docs/")`.
    """
    core = pattern.strip("*")
    if not core:
        return None
    if not is_glob(core) and pattern.startswith("*") != pattern.endswith("*"):
        # `*.pdf` and `docs/*`: a test of the string's end or start, no regular expression at all
        return methodcaller("endswith" if pattern.startswith("*") else "startswith", core)
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

    @property
    def substring(self) -> str | None:
        """What a link's url or title must contain to match, when that is all the filter asks; else None.

        A plain text, or a glob that is a plain text between stars (`*/rides/*`
        matches a url or title that contains `/rides/`, as `/rides/` does).
        """
        needle = self.needle
        if not self.glob:
            return needle
        core = needle.strip("*")
        if core and needle.startswith("*") and needle.endswith("*") and not is_glob(core):
            return core
        return None

    def narrows(self, before: Filter) -> bool:
        """Whether every link matching self also matches `before` (so only its matches need checking)."""
        mine, theirs = self.substring, before.substring
        return mine is not None and theirs is not None and theirs in mine


def _glob_pieces(pattern: str) -> list[str]:
    """Texts that every haystack ("\turl\ttitle\t") whose url or title matches `pattern` contains.

    Its literal pieces, and those that begin or end it with a tab before or after
    them: `*.pdf` must end the url or title, so ".pdf\t" is in the haystack.
    """
    pieces = glob_literals(pattern)
    ends = re.split(r"[*?\[\]]", pattern)
    if ends[0]:  # the glob starts with a literal: the url or the title starts with it
        pieces.insert(0, "\t" + ends[0])
    if len(ends) > 1 and ends[-1]:
        pieces.insert(0, ends[-1] + "\t")
    return pieces


def _containing(needle: str, candidates: Sequence[int], texts: Sequence[str]) -> Sequence[int]:
    """The candidates whose text contains `needle`, in their order."""
    # A comprehension with `in` beats `compress(map(str.__contains__, ...))`: `in` is one
    # bytecode, a call through the method descriptor is not.
    found = [index for index in candidates if needle in texts[index]]
    return candidates if len(found) == len(candidates) else found  # all of them: the same list, not a copy


class LinkList:
    """Links as columns, a filtered and sorted view of them, and the selected ones."""

    def __init__(self, links: MapLinks | Iterable[Link]) -> None:
        if not isinstance(links, MapLinks):
            listed = list(links)
            links = MapLinks(
                [link.url for link in listed], [link.title for link in listed], [link.description for link in listed]
            )
        self._links = links
        self._read_columns()
        self._haystack: list[str] | None = None  # made by `prepare_search`
        self._orders: dict[tuple[SortKey, bool], Sequence[int]] = {("none", False): range(len(self.urls))}
        self._kept: OrderedDict[str, Sequence[int]] = OrderedDict()  # needle -> view, in the current order
        self.sort_key: SortKey = "none"
        self.descending = False
        self.filter = Filter()
        self.view: Sequence[int] = self._orders[("none", False)]
        self.selected: set[int] = set()

    def __len__(self) -> int:
        return len(self.urls)

    def _read_columns(self) -> None:
        links = self._links
        self.urls: Sequence[str] = links.urls
        titles = links.titles
        self.titles: Sequence[str] = (
            titles.none_as_empty() if isinstance(titles, PackedTexts) else [title or "" for title in titles]
        )
        self.descriptions: Sequence[str | None] = links.descriptions

    def compact(self) -> None:
        """Pack the links' columns (`MapLinks.pack`) and make what a filter searches, if not done yet.

        Not done with the list: 100,000 links show sooner without it, and the
        explorer asks for it once they are on screen. The columns are packed
        first: the strings they free make room for the search's.
        """
        self._links.pack()
        self._read_columns()
        self.prepare_search()

    @property
    def compacted(self) -> bool:
        """Whether `compact` has run (or a filter made the search strings)."""
        return self._haystack is not None

    def prepare_search(self) -> list[str]:
        """Make what a filter searches, once (`compact`, or the first filter when nobody did before)."""
        if self._haystack is None:
            # "\turl\ttitle\t" lowercased: one `in` per link finds a substring of either (a tab is in
            # neither), and the tabs mark where each starts and ends, for globs (`_glob_pieces`).
            pairs = zip(self.urls, self.titles, strict=True)
            self._haystack = [f"\t{url}\t{title}\t".lower() for url, title in pairs]
        return self._haystack

    # --- filter and sort ---------------------------------------------------------

    def set_filter(self, text: str) -> None:
        """Show the links matching `text` (substring of url or title, or a glob when it has * ? [ ])."""
        new = Filter(text)
        if new.needle == self.filter.needle:
            self.filter = new
            return
        kept = self._kept.get(new.needle)
        if kept is not None:
            self._kept.move_to_end(new.needle)
            self.filter, self.view = new, kept
            return
        # Typing on extends a substring: only what matched before can match now.
        candidates = self.view if new.narrows(self.filter) else self._order()
        self.filter = new
        self.view = self._matching(candidates, new)
        self._keep(new.needle, self.view)

    def _keep(self, needle: str, view: Sequence[int]) -> None:
        """Remember a filter's result (the newest first to stay) within `KEPT_POSITIONS`.

        Results are often the same list (typing on a word that every match
        already spells out): one list held under several filters counts once.
        """
        if not needle or self._positions(view) > KEPT_POSITIONS:
            return
        self._kept[needle] = view
        while self.kept_positions() > KEPT_POSITIONS:
            self._kept.popitem(last=False)

    @staticmethod
    def _positions(view: Sequence[int]) -> int:
        return 0 if isinstance(view, range) else len(view)  # a range holds no position

    def kept_positions(self) -> int:
        """How many positions the results kept for a return hold (at most `KEPT_POSITIONS`)."""
        unique = {id(view): view for view in self._kept.values()}
        return sum(map(self._positions, unique.values()))

    def _matching(self, candidates: Sequence[int], wanted: Filter) -> Sequence[int]:
        needle = wanted.needle
        if not needle:
            return candidates
        haystack = self.prepare_search()
        substring = wanted.substring
        if substring is not None:
            return _containing(substring, candidates, haystack)
        match = glob_matcher(needle)
        if match is None:
            return candidates  # only stars: everything matches
        # What a matching url or title must contain drops most links with a cheap `in`,
        # before the glob itself runs on the rest.
        for piece in _glob_pieces(needle):
            candidates = _containing(piece, candidates, haystack)
        urls, titles = self.urls, self.titles
        return [index for index in candidates if match(urls[index].lower()) or match(titles[index].lower())]

    def sort_by(self, key: SortKey) -> None:
        """Sort by `key`; sorting again by the same key turns the order around ("none": as the service sent)."""
        self.descending = not self.descending if key == self.sort_key and key != "none" else False
        self.sort_key = key
        self._kept.clear()  # in the order of the sort before
        self.view = self._matching(self._order(), self.filter)
        self._keep(self.filter.needle, self.view)

    def _order(self) -> Sequence[int]:
        cache_key = (self.sort_key, self.descending)
        order = self._orders.get(cache_key)
        if order is None:
            ascending = self._orders.get((self.sort_key, False))
            if ascending is None:
                everyone = range(len(self.urls))
                column = list(map(str.lower, self.urls if self.sort_key == "url" else self.titles))
                # stable: ties keep the service's order
                ascending = sorted(everyone, key=column.__getitem__)
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
