"""The typed keywords of scrape, batch and crawl (`tui.api.resources.options`) name exactly the request models' fields.

The TypedDicts are written by hand for the type checker; the models are the
contract. A field added to a model without its keyword (or a keyword left
behind by a removed field) would be a call a type checker refuses, or one it
lets through to a `TypeError`: this holds the two lists together.
"""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from tui.api.resources.options import BatchScrapeArgs, CrawlArgs, ScrapeOptionsArgs
from tui.contract.requests import BatchScrapeRequest, CrawlRequest, ScrapeOptions, ScrapeRequest


@pytest.mark.parametrize(
    ("options", "model", "own_parameter"),
    [
        (ScrapeOptionsArgs, ScrapeOptions, None),
        (ScrapeOptionsArgs, ScrapeRequest, "url"),
        (BatchScrapeArgs, BatchScrapeRequest, "urls"),
        (CrawlArgs, CrawlRequest, "url"),
    ],
)
def test_the_keywords_are_the_models_fields(
    options: type[Any], model: type[BaseModel], own_parameter: str | None
) -> None:
    fields = set(model.model_fields) - {own_parameter}
    assert set(options.__optional_keys__) == fields  # every keyword optional, none the model lacks
    assert not options.__required_keys__
