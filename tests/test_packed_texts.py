"""A column of texts packed into one string reads back as the list it was made from."""

from __future__ import annotations

import pytest

from tui.contract.models.map import MapLink, MapLinks
from tui.contract.models.packed_texts import PackedTexts
from tui.dashboard.features.map.links import LinkList

TEXTS: list[str | None] = ["https://a.test/", None, "", "Zebra at dawn", None, "x"]


def test_packed_texts_read_back_as_the_list() -> None:
    packed = PackedTexts.pack(TEXTS)
    assert isinstance(packed, PackedTexts)
    assert len(packed) == len(TEXTS) and list(packed) == TEXTS and packed == TEXTS
    assert [packed[index] for index in range(len(TEXTS))] == TEXTS
    assert packed[-1] == "x" and packed[-2] is None and packed[1:4] == TEXTS[1:4] and packed[::-2] == TEXTS[::-2]
    with pytest.raises(IndexError):
        packed[len(TEXTS)]
    assert packed != TEXTS[:-1] and packed != [*TEXTS[:-1], "y"]


def test_missing_texts_read_as_empty_where_asked() -> None:
    packed = PackedTexts.pack(TEXTS)
    assert isinstance(packed, PackedTexts)
    assert list(packed.none_as_empty()) == [text or "" for text in TEXTS]
    assert list(PackedTexts.pack(["a", "bc"])) == ["a", "bc"]  # no None: no mask


def test_a_column_with_wide_characters_stays_a_list() -> None:
    # One wide character would make the whole string 2 or 4 bytes a character.
    texts: list[str | None] = ["plain", "naïve café", None]
    assert PackedTexts.pack(texts) is texts


def test_packed_links_are_the_same_links() -> None:
    links = [MapLink("https://a.test/", "Home", None), MapLink("https://a.test/Ü", None, "wide"), MapLink("x")]
    mapped = MapLinks.of(links)
    mapped.pack()
    assert isinstance(mapped.descriptions, PackedTexts) and not isinstance(mapped.urls, PackedTexts)
    assert mapped == links and list(mapped) == links and mapped[1:] == links[1:]


def test_a_compacted_list_filters_and_shows_as_before() -> None:
    links = [
        MapLink(f"https://a.test/{word}/{i}", f"{word.title()} {i}" if i % 3 else None)
        for i, word in enumerate(["blog", "docs", "shop", "Blog"] * 50)
    ]
    plain, compacted = LinkList(MapLinks.of(links)), LinkList(MapLinks.of(links))
    compacted.compact()
    assert compacted.compacted and isinstance(compacted.urls, PackedTexts)
    for text in ("blog", "BLOG 1", "*/docs/*", "*1?", "shop*", "", "blog 3"):
        plain.set_filter(text)
        compacted.set_filter(text)
        assert list(compacted.view) == list(plain.view), text
        assert [compacted.titles[i] for i in compacted.view] == [plain.titles[i] for i in plain.view]
        assert compacted.urls_to_export() == plain.urls_to_export()
