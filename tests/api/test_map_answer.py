"""A map's answer read into `MapLinks` columns: the same links, the same typed errors, as a model per link gave."""

from __future__ import annotations

import httpx
import pytest

from tests.api.mock_service import Recorder, json_response
from tui.api import errors
from tui.api.client import WdsClient
from tui.contract.models.map import MapLink, MapLinks, MapResult

LINKS = [
    {"url": "https://a.test/", "title": "Home", "description": "The start"},
    {"url": "https://a.test/b", "title": None},
    {"url": "https://a.test/c", "description": "only a description", "rank": 3},  # unknown fields are dropped
]


async def test_links_come_back_as_columns_and_as_links(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "links": LINKS}))
    mapped = await client.map("https://a.test")
    assert isinstance(mapped.links, MapLinks) and len(mapped.links) == 3
    assert mapped.links.urls == ["https://a.test/", "https://a.test/b", "https://a.test/c"]
    assert mapped.links.titles == ["Home", None, None]
    assert mapped.links.descriptions == ["The start", None, "only a description"]
    expected = [
        MapLink("https://a.test/", "Home", "The start"),
        MapLink("https://a.test/b"),
        MapLink("https://a.test/c", None, "only a description"),
    ]
    assert list(mapped.links) == expected and mapped.links == expected
    assert mapped.links[-1] == expected[-1] and mapped.links[1:] == expected[1:]
    assert MapLinks.of(expected) == mapped.links


async def test_an_answer_read_again_from_its_dump_is_the_same(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "links": LINKS}))
    mapped = await client.map("https://a.test")
    dumped = mapped.model_dump_json(by_alias=True)
    assert MapResult.model_validate_json(dumped) == mapped
    assert mapped.model_dump()["links"][1] == {"url": "https://a.test/b", "title": None, "description": None}


async def test_an_empty_map_equals_an_empty_list(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True, "links": []}))
    assert (await client.map("https://a.test")).links == []


@pytest.mark.parametrize(
    ("links", "said"),
    [
        ([{"url": "https://a.test/"}, {"title": "no url"}], r"links\[1\]\.url: Field required"),
        ([{"url": "https://a.test/"}, {"url": 7}], r"links\[1\]\.url: Input should be a valid string \(got 7\)"),
        ([{"url": "https://a.test/", "title": ["a"]}], r"links\[0\]\.title: Input should be a valid string"),
        ([{"url": "https://a.test/", "description": 1.5}], r"links\[0\]\.description: .*\(got 1\.5\)"),
        ([{"url": "https://a.test/"}, 3], r"links\[1\]"),
        ({"url": "https://a.test/"}, r"links: Input should be a valid list"),
    ],
)
async def test_a_malformed_map_is_a_shape_error_naming_the_link(
    client: WdsClient, recorder: Recorder, links: object, said: str
) -> None:
    recorder.queue.append(json_response(200, {"success": True, "links": links}))
    with pytest.raises(errors.ResponseShapeError, match=said):
        await client.map("https://a.test")


async def test_a_map_without_links_is_a_shape_error(client: WdsClient, recorder: Recorder) -> None:
    recorder.queue.append(json_response(200, {"success": True}))
    with pytest.raises(errors.ResponseShapeError, match=r"links: Field required"):
        await client.map("https://a.test")


async def test_what_the_fast_reader_refuses_is_still_read_as_json(client: WdsClient, recorder: Recorder) -> None:
    # A lone surrogate escape, and a byte-order mark: pydantic-core refuses them, Python's json reads them.
    body = b'\xef\xbb\xbf{"success": true, "links": [{"url": "https://a.test/", "title": "\\ud800"}]}'
    recorder.queue.append(httpx.Response(200, content=body, headers={"content-type": "application/json"}))
    mapped = await client.map("https://a.test")
    assert mapped.links.titles == ["\ud800"]


async def test_deep_nesting_is_still_a_shape_error(client: WdsClient, recorder: Recorder) -> None:
    body = b'{"success": true, "links": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    recorder.queue.append(httpx.Response(200, content=body, headers={"content-type": "application/json"}))
    with pytest.raises(errors.ResponseShapeError, match="nested too deeply"):
        await client.map("https://a.test")
